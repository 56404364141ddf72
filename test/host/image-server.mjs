// The README's images over https on loopback, as the Marketplace would serve them from the repository:
// the extension's page (VS Code's CSP `img-src https: data:`, its sanitizer keeps only http(s) images)
// shows them only from an https URL. A self-signed certificate made with openssl; the browser trusts
// exactly that key (`--ignore-certificate-errors-spki-list`), nothing else.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { ARTIFACTS, ROOT } from './toolchain.mjs';

const TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif' };

function certificate() {
  const dir = path.join(ARTIFACTS, 'image-server');
  fs.mkdirSync(dir, { recursive: true });
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  if (!fs.existsSync(cert)) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
  }
  const pem = fs.readFileSync(cert, 'utf8');
  const spki = new crypto.X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return { key: fs.readFileSync(key), cert: pem, spkiHash: crypto.createHash('sha256').update(spki).digest('base64') };
}

/** Serves `<root>/media/**` images read-only; returns its base URL, the certificate's SPKI hash and close(). */
export async function startImageServer(root = ROOT) {
  const { key, cert, spkiHash } = certificate();
  const media = path.join(root, 'media');
  const server = https.createServer({ key, cert }, (req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'https://x').pathname).replace(/^\/+/, '');
    const file = path.resolve(root, rel);
    const type = TYPES[path.extname(file).toLowerCase()];
    if (req.method !== 'GET' || !type || !file.startsWith(media + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `https://127.0.0.1:${port}`, spkiHash, close: () => new Promise((r) => server.close(r)) };
}
