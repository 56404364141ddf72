// `npm run demo`: VS Code in the browser with this extension and the example notebooks, on 127.0.0.1.
// Installs what it needs (Node 24 + code-server via npm, chromium not needed), builds and packages the
// extension, installs the .vsix into a scratch profile under .cache/demo, copies examples/ into its
// workspace, starts code-server and prints the URL. The examples run against the built-in
// "Local emulator" connection, which starts the emulator inside the extension host on first use.
// Ctrl-C stops code-server (its whole process group).
import fs from 'node:fs';
import path from 'node:path';
import { buildDist, packageVsix } from '../test/host/package-vsix.mjs';
import {
  CACHE,
  ensureToolchain,
  installExtension,
  ROOT,
  scratchProfile,
  startCodeServer,
} from '../test/host/toolchain.mjs';

const port = process.env.PORT ? Number(process.env.PORT) : undefined;

ensureToolchain({ chromium: false });
buildDist();
const vsix = packageVsix();
const profile = scratchProfile(path.join(CACHE, 'demo'), {
  settings: { 'workbench.colorTheme': process.env.DEMO_THEME ?? 'Default Dark Modern' },
});
fs.cpSync(path.join(ROOT, 'examples'), profile.workspace, { recursive: true });
installExtension(vsix, profile);
const server = await startCodeServer({ ...profile, port, logFile: path.join(profile.dir, 'code-server.log') });
const url = new URL(server.url);
url.searchParams.set('folder', profile.workspace);

console.log(`
Measurements notebooks demo
  VS Code:   ${url}
  Examples:  ${profile.workspace} (open tour.measnb and click Run All)
  Emulator:  the "Local emulator" connection starts it inside VS Code on the first run (no key needed)
  Log:       ${server.logFile}
Press Ctrl-C to stop.`);

await new Promise((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});
await server.stop();
