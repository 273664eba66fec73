// Finds the browsers the test suite runs in (Debian's Chromium and Firefox ESR), installing them with
// apt-get when they are missing and we are root. Nothing is ever downloaded by a test tool itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = {
  chromium: { env: 'CHROME_PATH', path: '/usr/bin/chromium', pkg: 'chromium' },
  firefox: { env: 'FIREFOX_PATH', path: '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
};

function canApt() {
  return process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Returns the executable path of each browser, installing missing ones with apt-get as root.
 * Throws with a message naming CHROME_PATH / FIREFOX_PATH when a browser cannot be found or installed.
 * @param {Array<'chromium'|'firefox'>} names
 */
export function ensureBrowsers(names) {
  const missing = names.filter((n) => !process.env[wanted[n].env] && !existsSync(wanted[n].path));
  if (missing.length > 0) {
    if (!canApt()) {
      throw new Error(
        `Missing browser(s): ${missing.join(', ')}. Install Debian's ${missing.map((n) => wanted[n].pkg).join(' and ')}, ` +
          `or point ${missing.map((n) => wanted[n].env).join(' / ')} at an executable.`,
      );
    }
    const pkgs = missing.map((n) => wanted[n].pkg);
    console.log(`[silo] ${pkgs.join(', ')} not found: installing Debian's package(s) with apt-get…`);
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', ...pkgs], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return Object.fromEntries(names.map((n) => [n, process.env[wanted[n].env] || wanted[n].path]));
}

/** Flags that let Chromium run as root in a container and keep it off the (closed) network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
