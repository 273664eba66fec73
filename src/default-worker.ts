/**
 * Starts the package's own worker entry. The path is kept in a variable so bundlers leave it alone;
 * the library build rewrites it to the sibling `worker.js` bundle (see `scripts/build.mjs`).
 */
const WORKER_PATH = '../worker/index.ts';

/** Starts Silo's worker as a module worker. Throws where module workers are unavailable. */
export function startDefaultWorker(): Worker {
  return new Worker(new URL(WORKER_PATH, import.meta.url), { type: 'module', name: 'silo' });
}
