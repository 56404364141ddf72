// A static loopback HTTP server for benchmarks: it answers every request with one pre-made body from
// memory or disk, so that a benchmark measures the client (or curl), not the time a server spends
// generating data. Any request method is accepted (a recent query is a POST).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticServer {
  /** http://127.0.0.1:port */
  origin: string;
  close(): Promise<void>;
}

export type StaticBody = { file: string } | { bytes: Buffer };

/** Serves `body` with `headers` (Content-Length is added) to every request, after reading the request. */
export async function startStaticServer(body: StaticBody, headers: Record<string, string>): Promise<StaticServer> {
  const size = 'file' in body ? fs.statSync(body.file).size : body.bytes.length;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { ...headers, 'content-length': size });
      if ('file' in body) fs.createReadStream(body.file).pipe(res);
      else res.end(body.bytes);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
