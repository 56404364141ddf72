// Headless Debian chromium through playwright-core (no browser download), and workbench URLs.
import { chromium } from 'playwright-core';
import { ensureChromium } from './toolchain.mjs';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `scrollbars`: keep scrollbars that take room, as a desktop browser has (playwright hides them when headless). */
export async function launchChromium({ scrollbars = false } = {}) {
  // The e2e lane's loopback image server (test/host/image-server.mjs): trust its one self-signed key.
  const spki = process.env.MEASNB_E2E_TRUSTED_SPKI;
  const args = spki ? [...FLAGS, `--ignore-certificate-errors-spki-list=${spki}`] : FLAGS;
  const ignoreDefaultArgs = scrollbars ? ['--hide-scrollbars'] : undefined;
  return chromium.launch({ executablePath: ensureChromium(), headless: true, args, ignoreDefaultArgs });
}

/** The workbench URL for a folder, with an optional smoke-test payload (extension development/tests paths). */
export function workbenchUrl(serverUrl, folder, payload) {
  const u = new URL(serverUrl);
  u.pathname = '/';
  u.searchParams.set('folder', folder);
  if (payload) u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}

/** A path on the code-server machine as the workbench names it (vscode-remote://host/abs/path). */
export function remoteUri(serverUrl, absPath) {
  return `vscode-remote://${new URL(serverUrl).host}${absPath}`;
}
