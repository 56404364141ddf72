// Debian packages the lanes and `npm run demo` need, installed only when dpkg says they are missing:
// `apt-get install --no-upgrade` of exactly those, named before apt-get runs. Without --no-upgrade,
// `apt-get install` of a package list also upgrades the installed ones in it (and their dependencies)
// without saying so. Built-ins only: scripts/test-all.mjs and test/host/toolchain.mjs both use it.
import { spawnSync } from 'node:child_process';

// dpkg-query's own format syntax (not a JS template): one "name status" line per known package.
const DPKG_FORMAT = ['$', '{Package} $', '{Status}\\n'].join('');

/** The packages of `pkgs` that dpkg-query's output (in DPKG_FORMAT) does not list as "install ok installed". */
export function missingPackages(pkgs, dpkgQueryOutput) {
  const installed = new Set();
  for (const line of String(dpkgQueryOutput).split('\n')) {
    const m = /^(\S+) (.*)$/.exec(line.trim());
    if (m && /\bok installed$/.test(m[2])) installed.add(m[1].split(':')[0]);
  }
  return pkgs.filter((p) => !installed.has(p));
}

/** The apt-get argv that installs exactly `missing`: nothing upgraded, no recommends, waiting for a held lock. */
export function aptInstallArgv(missing) {
  if (missing.length === 0) throw new Error('aptInstallArgv: nothing to install');
  for (const p of missing) {
    // Debian package names: lower case, digits, + - . (a name never starts an option).
    if (!/^[a-z0-9][a-z0-9+.-]+$/.test(p)) throw new Error(`not a Debian package name: ${JSON.stringify(p)}`);
  }
  return [
    'apt-get',
    '-o',
    'DPkg::Lock::Timeout=600',
    'install',
    '-y',
    '-qq',
    '--no-install-recommends',
    '--no-upgrade',
    ...missing,
  ];
}

/** Installs the packages of `pkgs` dpkg does not have (apt-get update first); says which before it does. */
export function ensureAptPackages(pkgs, { log = console.log, why = '' } = {}) {
  const query = spawnSync('dpkg-query', ['-W', `-f=${DPKG_FORMAT}`, ...pkgs], { encoding: 'utf8' });
  const missing = missingPackages(pkgs, query.stdout ?? '');
  if (missing.length === 0) return [];
  log(`apt-get will install ${missing.join(', ')}${why ? ` (${why})` : ''}; nothing already installed is upgraded`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (argv) => {
    const [cmd, ...args] = [...sudo, ...argv];
    const r = spawnSync(cmd, args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (exit ${r.status ?? r.signal ?? r.error?.message})`);
  };
  // Another apt run (a teammate's, unattended upgrades) may hold the lock: wait for it rather than fail.
  run(['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'update', '-qq']);
  run(aptInstallArgv(missing));
  return missing;
}
