// Base64 (RFC 4648, standard alphabet, padded) for neutral core: the notebook file keeps binary outputs
// in it. Pure code, no Buffer and no atob/btoa, so it runs alike in node and the browser. Decoding reads
// as Buffer.from(text, 'base64') does: padding is optional and a last lone character is dropped; callers
// check the alphabet first.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = new Uint8Array(128).fill(255);
for (let i = 0; i < ALPHABET.length; i++) CODES[ALPHABET.charCodeAt(i)] = i;

/** The base64 text of bytes (padded with '='). */
export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 3 * 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    let s = '';
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      s += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
    }
    if (end - i === 1) {
      const n = bytes[i] << 16;
      s += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}==`;
    } else if (end - i === 2) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
      s += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}${ALPHABET[(n >> 6) & 63]}=`;
    }
    parts.push(s);
  }
  return parts.join('');
}

/** The bytes of base64 text (standard alphabet; trailing '=' optional) in a fresh buffer (offset 0, so 8-byte aligned:
 * the wire decoder views columns in place). Throws on any other character. */
export function base64ToBytes(text: string): Uint8Array {
  let n = text.length;
  while (n > 0 && text.charCodeAt(n - 1) === 61 /* = */) n--;
  const out = new Uint8Array(Math.floor((n * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? CODES[c] : 255;
    if (v === 255) throw new Error(`not base64: '${text[i]}' at ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return o === out.length ? out : out.slice(0, o);
}
