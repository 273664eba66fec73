// What `npm start` serves, built when it is missing or older than what it is built from:
//   dist/            the package (`npm run build`, about 25 s): the demo imports it as an app would
//   demo/dist/       the built demo (`vite build` of demo/, about 2 s; vite.config.ts): the pages,
//                    their assets, embed.html and a copy of dist/standalone/, the files a user would
//                    deploy and all that the demo server serves
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(root, 'dist');

/** The built demo, served by `npm start`. */
export const demoBuildDir = join(root, 'demo', 'dist');

/** The newest modification time (ms) of the files under `dir` but outside `skip`, or 0 when none. */
function newest(dir, skip) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && !(skip && path.startsWith(skip))) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** The oldest modification time (ms) of `files`, or 0 when one is missing. */
function oldest(files) {
  return files.every((f) => existsSync(f)) ? Math.min(...files.map((f) => statSync(f).mtimeMs)) : 0;
}

function run(args, what, log) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${what} failed`);
  log(`[silo] built ${what}`);
}

/**
 * Runs `npm run build` when the package's bundles (dist/silo.js, dist/components.js, dist/worker.js and
 * their dist/standalone/ copies, which embed.html loads) are missing or older than the sources they
 * are built from. Throws when the build fails.
 */
export function ensureBundle(log = console.log) {
  const names = ['components.js', 'silo.js', 'worker.js'];
  const built = oldest([
    ...names.map((f) => join(distDir, f)),
    ...names.map((f) => join(distDir, 'standalone', f)),
  ]);
  const sources = Math.max(...['src', 'worker', 'components'].map((d) => newest(join(root, d))));
  if (built > sources) return;
  log(
    `[silo] dist/ is ${built ? 'older than the sources' : 'missing'}: building the package (npm run build, about 25 s)…`,
  );
  run([join(root, 'scripts/build.mjs')], 'the package (dist/)', log);
}

/**
 * Builds what `npm start` serves when it is missing or stale: the package (see {@link ensureBundle}),
 * then the demo (demo/dist/) when it is older than demo/, the package or vite.config.ts. Throws when a
 * build fails.
 */
export function ensureDemoBuild(log = console.log) {
  ensureBundle(log);
  const built = oldest(['index.html', 'offline.html', 'embed.html'].map((f) => join(demoBuildDir, f)));
  const sources = Math.max(
    newest(join(root, 'demo'), demoBuildDir),
    newest(distDir),
    statSync(join(root, 'vite.config.ts')).mtimeMs,
  );
  if (built > sources) return;
  log(
    `[silo] demo/dist/ is ${built ? 'older than its sources' : 'missing'}: building the demo (npm run build:demo)…`,
  );
  run(
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    'the demo (demo/dist/)',
    log,
  );
}
