/**
 * Knowing when the Silo worker is gone. A worker that throws fires `error`; a worker that is
 * terminated (by the page, or by the browser) fires nothing — so the worker holds a Web Lock for its
 * whole life and the page queues for the same lock: the page is granted it exactly when the worker
 * has died. Either way every pending and later call rejects with a coded error instead of hanging.
 */
import type { Remote } from 'comlink';
import { SiloError } from './errors.ts';
import type { WorkerApi } from './worker-api.ts';
import { type WorkerPlace, workerStartError } from './worker-start.ts';

/**
 * Watches `worker` (whose API is `api`) and calls `onGone` once, when it crashes or stops, with the
 * error calls reject with from then on. Returns the API to use instead of `api`: every call of it rejects once the worker is gone (`internal` for a
 * crash, `closed` for a terminated worker), pending ones included. A worker that fails before it ever
 * answered could not start (its script did not load or threw at once): the `internal` error then says
 * where it was started from (`place`, undefined for a worker the page passed in), which of the two
 * happened and how long after the start, and what to do (`workerStartError`). There is no start
 * timeout: a worker slow to load (a loaded machine, a slow network) is waited for, however long; only
 * its `error` event or its end says it failed. Web Locks missing (an insecure context) leaves only the
 * crash signal.
 */
export function watchWorker(
  worker: Worker,
  api: Remote<WorkerApi>,
  onGone: (error: SiloError) => void,
  place?: WorkerPlace,
): Remote<WorkerApi> {
  // Whether the worker ever answered a call (any answer, the life lock's or another's: under load
  // Chromium may answer `init` before the lock is granted). Before that, an error means it did not start.
  let answered = false;
  const startedAt = performance.now();
  const started = () => {
    answered = true;
  };
  let reject: (e: SiloError) => void = () => {};
  const gone = new Promise<never>((_, r) => {
    reject = r;
  });
  gone.catch(() => {});
  let ended = false;
  const end = (error: SiloError) => {
    if (ended) return;
    ended = true;
    reject(error);
    onGone(error);
  };
  worker.addEventListener('error', (e) => {
    e.preventDefault?.();
    if (answered) end(SiloError.internal(`The Silo worker failed${e.message ? `: ${e.message}` : ''}`));
    else {
      const { message, filename, lineno } = e as Partial<ErrorEvent>;
      end(workerStartError(place, { message, filename, lineno, afterMs: performance.now() - startedAt }));
    }
  });
  if (typeof navigator !== 'undefined' && navigator.locks) {
    const name = `silo-worker-${crypto.randomUUID()}`;
    void api.holdLifeLock(name).then(
      () => {
        started();
        return navigator.locks.request(name, () =>
          end(SiloError.closed('The Silo worker stopped: start a new agents service to go on')),
        );
      },
      () => {},
    );
  }
  return new Proxy(api, {
    get(target, property) {
      const member = Reflect.get(target, property);
      if (typeof property !== 'string' || typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        const call = (member as (...a: unknown[]) => Promise<unknown>)(...args);
        call.then(started, started);
        return Promise.race([call, gone]);
      };
    },
  });
}
