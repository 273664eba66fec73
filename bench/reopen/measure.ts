/**
 * One reopen of a journal, as the reopen and scale benchmarks run it: the raw baselines (`getAll`,
 * the last segment), then `<silo-transcript>` opening it offline (`service` + `session-id`) and as a
 * live session after a reload (`session`), each timed to the paint of the last screen. Each timed
 * open starts from a collected page heap: one page runs every open in turn, and the model of the
 * open before (167 MB for a million updates) would otherwise be collected inside the next one's
 * timing, where a reloaded page has no such garbage.
 */
import { address, type Bench, call, heapUsed } from '../harness.ts';
import type { Journal } from './journal.ts';

export interface Reopened {
  raw: number;
  tail: number;
  offline: number;
  live: number;
  /** `connect` with `resume` after the reload, to the handle (the live open's first half), ms. */
  connect: number;
  first: number;
  liveFirst: number;
  dom: [number, number];
  atEnd: boolean;
  liveAtEnd: boolean;
  rows: number;
  outcome: string | undefined;
  /** The page's JS heap in use after the collection before each timed open (offline, live), bytes. */
  heapBefore: [number, number];
}

/**
 * Reopens `journal` once; `whileOpen` runs with the offline transcript still open (the heap, find),
 * before it is closed. Without `baselines`, the raw reads (`getAll`, the last segment) are skipped.
 */
export async function reopenOnce(
  bench: Bench,
  journal: Journal,
  whileOpen?: () => Promise<void>,
  baselines = true,
): Promise<Reopened> {
  const { page, quick } = bench;
  const timeout = quick ? 30_000 : 180_000;
  const { databaseName, sessionId, marker } = journal;
  let raw = Number.NaN;
  let tail = Number.NaN;
  if (baselines) {
    const r = await call(page, 'rawRead', databaseName, sessionId);
    if (r.updates !== journal.updates)
      throw new Error(`raw read found ${r.updates} updates, expected ${journal.updates}`);
    raw = r.ms;
    tail = (await call(page, 'rawTailRead', databaseName, sessionId)).ms;
  }
  const offlineHeap = await heapUsed(page);
  const s = await call(page, 'reopen', databaseName, sessionId, marker, timeout);
  try {
    await whileOpen?.();
  } finally {
    await call(page, 'reopenCleanup');
  }
  const c = await call(page, 'reopenLiveConnect', address(bench.bridges.reference), databaseName, sessionId);
  const liveHeap = await heapUsed(page);
  const l = await call(page, 'reopenLive', marker, timeout);
  await call(page, 'reopenCleanup');
  return {
    raw,
    tail,
    offline: s.atEnd ? s.ms : Number.NaN,
    live: l.atEnd ? l.ms : Number.NaN,
    connect: c.connectMs,
    first: s.firstRowsMs ?? Number.NaN,
    liveFirst: l.firstRowsMs ?? Number.NaN,
    dom: [s.dom, l.dom],
    atEnd: s.atEnd,
    liveAtEnd: l.atEnd,
    rows: s.rows,
    outcome: l.resumeOutcome,
    heapBefore: [offlineHeap, liveHeap],
  };
}
