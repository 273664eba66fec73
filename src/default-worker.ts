/**
 * Starts the package's own worker entry. In the sources the path is kept in a variable so the demo's
 * and the tests' bundlers leave it alone; the library build replaces this module with one that says
 * `new Worker(new URL('./worker.js', import.meta.url), …)` literally (see `scripts/build.mjs`), the
 * pattern an app's bundler detects to emit the worker.
 */
import type { WorkerPlace } from './worker-start.ts';

const WORKER_PATH = '../worker/index.ts';

/** A started worker and where it was started from (for the error if it cannot start). */
export interface DefaultWorker {
  readonly worker: Worker;
  readonly place: WorkerPlace;
}

/** Starts Silo's worker as a module worker. Throws where module workers are unavailable. */
export function startDefaultWorker(): DefaultWorker {
  const url = new URL(WORKER_PATH, import.meta.url).href;
  return { worker: new Worker(url, { type: 'module', name: 'silo' }), place: { url } };
}
