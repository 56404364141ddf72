// The thread that reads some columns of csv-wide lines for csv-parallel.node.ts (bundled as
// dist/csv-worker.js): the lines arrive in shared buffers, block by block; at the end its columns go back
// to the main reader, their buffers transferred, not copied.

import { parentPort } from 'node:worker_threads';
import { columnBuffers, type FromWorker, type ToWorker } from './csv-blocks';
import { ColumnsReader } from './csv-columns';

const port = parentPort;
if (port) {
  let reader: ColumnsReader | undefined;
  const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  port.on('message', (m: ToWorker) => {
    if (m.type === 'init') reader = new ColumnsReader(m, m.columns ?? []);
    else if (m.type === 'lines') post(reader!.lines(m, (bytes) => Buffer.from(bytes)));
    else {
      const columns = reader!.columns();
      post({ type: 'columns', columns }, columnBuffers(columns));
    }
  });
  post('ready');
}
