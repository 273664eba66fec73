/**
 * What to tell a developer whose page could not start Silo's worker: the error names what the page
 * can tell of its setup (Vite's dev optimizer, webpack, the package's own file in place) and the fix
 * for it, else each bundler's fix in a few words. One source for the advice: docs/install.md
 * ("When the worker cannot start") says the same.
 */
import { SiloError } from './errors.ts';

/**
 * Where the page API started its own worker from: `url`, the worker file it expected beside itself
 * (undefined where the bundler rewrote the page API's own URL at build time), and `bundler` when the
 * build could tell (webpack names itself). Undefined for a worker the page passed in.
 */
export interface WorkerPlace {
  readonly url?: string;
  readonly bundler?: 'webpack';
}

const CSP = "and that the page's Content-Security-Policy allows worker-src 'self'";
const OWN_WORKER =
  'start a worker running silo-acp/worker yourself and pass it: createAgentsService({ worker })';
const EMITTED = "emits the worker itself from new Worker(new URL('./worker.js', import.meta.url))";

/** The advice for a worker that failed to start from `place` (see {@link WorkerPlace}). */
export function workerStartAdvice(place: WorkerPlace | undefined): string {
  if (!place)
    return "The worker passed to createAgentsService must run silo-acp/worker as a module worker ({ type: 'module' }).";
  const url = place.url ?? '';
  if (url.includes('/node_modules/.vite/'))
    return `Vite's dev server pre-bundled silo-acp away from its worker: add optimizeDeps: { exclude: ['silo-acp'] } to vite.config; or ${OWN_WORKER}.`;
  if (place.bundler === 'webpack')
    return `webpack ${EMITTED}: check that the page can load webpack's output (output.publicPath) ${CSP}; or ${OWN_WORKER}.`;
  // A bundler that writes the page API's URL at build time (Parcel does) emits the worker too.
  if (url.startsWith('file:'))
    return `Your bundler ${EMITTED}: check that the page can load the bundler's whole output folder ${CSP}; or ${OWN_WORKER}.`;
  if (/\/silo-acp\/dist\/(?:standalone\/)?worker\.js$/.test(url))
    return `That file is silo-acp's own worker: check that the server sends it as JavaScript ${CSP}.`;
  return (
    'The worker file is not there. Vite, webpack 5 and Parcel 2 emit it with no configuration; ' +
    'Rollup: add @web/rollup-plugin-import-meta-assets; esbuild (or any other bundler): copy ' +
    'node_modules/silo-acp/dist/worker.js to that URL; no build step: keep the files of ' +
    `dist/standalone/ together; or ${OWN_WORKER}.`
  );
}

/**
 * What the page saw of a worker that failed before it ever answered: its `error` event, and when.
 * `message` (with `filename` and `lineno`) is set when the worker's script ran and threw; a script
 * (or one of its imports) that did not load fires a bare event — the browser tells the page neither
 * the URL nor the status of the failed request. `afterMs`: how long after the worker was started.
 */
export interface WorkerStartFailure {
  readonly message?: string;
  readonly filename?: string;
  readonly lineno?: number;
  readonly afterMs: number;
}

/** What the error says happened: the worker's own exception and where, or a script that did not load. */
function whatHappened(failure: WorkerStartFailure): string {
  const after = `${(failure.afterMs / 1000).toFixed(1)} s after it was started`;
  if (!failure.message)
    return `its script or one of its imports did not load, ${after} (the browser gives no reason: its network panel names the failed request)`;
  const where = failure.filename ? ` (${failure.filename}${failure.lineno ? `:${failure.lineno}` : ''})` : '';
  return `it threw ${failure.message}${where}, ${after}`;
}

/**
 * The `internal` error of a worker that failed before it ever answered: names the URL it was started
 * from (a `file:` URL, which a bundler wrote at build time, is not named), what happened (its own
 * exception, or a script that did not load, and how long after it was started) and
 * {@link workerStartAdvice}, with `data: { workerUrl, cause, afterMs }` (`cause`: `'threw'` or
 * `'load'`). Silo waits for no clock: only the worker's `error` event makes this error.
 */
export function workerStartError(place: WorkerPlace | undefined, failure: WorkerStartFailure): SiloError {
  const url = place?.url?.startsWith('file:') ? undefined : place?.url;
  return SiloError.internal(
    `The Silo worker could not start${url ? ` from ${url}` : ''}: ${whatHappened(failure)}. ${workerStartAdvice(place)}`,
    { workerUrl: url, cause: failure.message ? 'threw' : 'load', afterMs: Math.round(failure.afterMs) },
  );
}
