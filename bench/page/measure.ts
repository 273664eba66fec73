/** Small page-side measuring helpers: frames, long tasks, percentiles, DOM size, IndexedDB. */
import type { Segment } from '../../worker/journal.ts';

/** The `p`-quantile (0…1) of `values`, nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/**
 * Resolves right after the next frame's rendering: a task posted from an animation-frame callback
 * runs once that frame's style, layout and paint are done (the usual "after next paint" measure). So
 * what a caller reads then is what that frame painted, and its clock has not waited for another frame.
 */
export const afterPaint = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    }),
  );

/** Records animation-frame intervals and long tasks until `stop()`. */
export function recordMainThread(): () => { frames: number[]; longTasks: number[] } {
  const frames: number[] = [];
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(e.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  let last = 0;
  let running = true;
  const tick = (t: number) => {
    if (!running) return;
    if (last) frames.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return () => {
    running = false;
    for (const e of observer.takeRecords()) longTasks.push(e.duration);
    observer.disconnect();
    return { frames, longTasks };
  };
}

/** Every element in the document, shadow trees included. */
export function countElements(root: Document | ShadowRoot | Element = document): number {
  let n = 0;
  const walk = (node: Document | ShadowRoot | Element) => {
    for (const el of Array.from(node.querySelectorAll('*'))) {
      n++;
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(root);
  return n;
}

export function openDatabase(name: string, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    // A journal is opened at whatever version Silo left it; a bench store of its own at version 1.
    const request = upgrade ? indexedDB.open(name, 1) : indexedDB.open(name);
    request.onupgradeneeded = () => upgrade?.(request.result);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The key range of one session in Silo's `segments` store (keys `[sessionId, firstSeq]`). */
export const sessionRange = (sessionId: string) =>
  IDBKeyRange.bound([sessionId, 0], [sessionId, Number.POSITIVE_INFINITY]);

/** One `getAll` of a session's segment records: the whole raw journal (the reopen's and the export's baseline). */
export const readSegments = (db: IDBDatabase, sessionId: string): Promise<Segment[]> =>
  requestResult(
    db.transaction('segments').objectStore('segments').getAll(sessionRange(sessionId)) as IDBRequest<
      Segment[]
    >,
  );
