// The thread that reads blocks of csv-wide lines for csv-parallel.node.ts (bundled as dist/csv-worker.js):
// each request's bytes are read into columns that are posted back, their buffers transferred, not copied.

import { parentPort } from 'node:worker_threads';
import { type BlockReply, type BlockRequest, blockBuffers } from './csv-blocks';
import { readBlock } from './csv-wide-reader';

function answer(m: BlockRequest): { reply: BlockReply; transfer: ArrayBuffer[] } {
  try {
    // A Buffer's indexOf finds line ends with memchr.
    const block = readBlock(Buffer.from(m.bytes, 0, m.length), m.length, m.specs, m.strict);
    return { reply: { id: m.id, bytes: m.bytes, block }, transfer: [m.bytes, ...blockBuffers(block)] };
  } catch (e) {
    return {
      reply: { id: m.id, bytes: m.bytes, error: e instanceof Error ? (e.stack ?? e.message) : String(e) },
      transfer: [m.bytes],
    };
  }
}

const port = parentPort;
if (port) {
  port.on('message', (m: BlockRequest) => {
    const { reply, transfer } = answer(m);
    port.postMessage(reply, transfer);
  });
  port.postMessage('ready');
}
