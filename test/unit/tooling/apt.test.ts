// scripts/apt.mjs: which Debian packages are missing (from dpkg-query's output), and the apt-get argv that
// installs exactly those without upgrading anything already installed.
import assert from 'node:assert/strict';
import { aptInstallArgv, missingPackages } from '../../../scripts/apt.mjs';

describe('apt: install only what dpkg says is missing', () => {
  it('lists the packages dpkg-query does not show as installed (unknown, removed, half-installed)', () => {
    // dpkg-query -W -f='${Package} ${Status}\n' prints known packages only; unknown ones go to stderr.
    const out = [
      'chromium install ok installed',
      'libkrb5-dev deinstall ok config-files',
      'python3:amd64 install ok installed',
      'build-essential install ok half-installed',
      '',
    ].join('\n');
    assert.deepEqual(missingPackages(['chromium', 'libkrb5-dev', 'python3', 'build-essential', 'faketime'], out), [
      'libkrb5-dev',
      'build-essential',
      'faketime',
    ]);
    assert.deepEqual(missingPackages(['chromium'], 'chromium install ok installed\n'), []);
    assert.deepEqual(missingPackages(['chromium'], ''), ['chromium']);
  });

  it('installs exactly the missing packages with --no-upgrade and no recommends', () => {
    const argv = aptInstallArgv(['faketime', 'libkrb5-dev']);
    assert.equal(argv[0], 'apt-get');
    assert.ok(argv.includes('install') && argv.includes('-y'));
    assert.ok(argv.includes('--no-upgrade'), 'nothing already installed is upgraded');
    assert.ok(argv.includes('--no-install-recommends'));
    assert.deepEqual(argv.slice(-2), ['faketime', 'libkrb5-dev']);
    assert.equal(argv.filter((a) => !a.startsWith('-') && a !== 'DPkg::Lock::Timeout=600').length, 4);
  });

  it('refuses an empty list and anything that is not a package name', () => {
    assert.throws(() => aptInstallArgv([]), /nothing to install/);
    assert.throws(() => aptInstallArgv(['--allow-downgrades']), /not a Debian package name/);
    assert.throws(() => aptInstallArgv(['Chromium; rm']), /not a Debian package name/);
  });
});
