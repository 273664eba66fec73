/**
 * Page side of the reopen benchmark (and of scale's and find's, which reopen first): a synthetic
 * thread journaled by the journal worker, its raw reads (the whole journal, its last segment), and
 * `<silo-transcript>` opening it, from the journal alone or through a reconnected session, timed to
 * its last screen painted. Merged into `window.siloBench`.
 */
import type { SiloTranscript } from '../../components/transcript/silo-transcript.ts';
import { type AgentSessionHandle, createAgentsService } from '../../src/index.ts';
import type { AgentBridgeOptions } from '../../src/types.ts';
import type { Segment } from '../../worker/journal.ts';
import { CWD, freshName, mountTranscript } from './fixtures.ts';
import {
  afterPaint,
  countElements,
  openDatabase,
  readSegments,
  requestResult,
  sessionRange,
} from './measure.ts';
import type { JournalMessage, JournalRequest } from './protocol.ts';

/** The service of the transcript being reopened, disposed by `reopenCleanup`. */
let reopenService: ReturnType<typeof createAgentsService> | undefined;
/** The handle `reopenLiveConnect` made, for `reopenLive` to open. */
let reopenHandle: AgentSessionHandle | undefined;

/**
 * Waits, frame by frame, for the row carrying `marker` to be painted inside the visible log, and
 * returns the time from `t0` to right after the paint of the frame that showed it (`afterPaint`; it
 * used to be the start of the frame after the one it was seen in: two frames more than the screen
 * took). Nothing scrolls the element. On `timeoutMs`
 * without it, `atEnd` is false (the last screen was not shown).
 */
async function lastScreen(el: SiloTranscript, marker: string, t0: number, timeoutMs: number) {
  let firstRowsMs: number | undefined;
  const markerVisible = () => {
    const log = el.shadowRoot?.querySelector('.log');
    if (!log) return false;
    const box = log.getBoundingClientRect();
    // The log's rows, or its tail paint's (the last rows drawn over the log while it settles).
    const rows = el.shadowRoot!.querySelectorAll<HTMLElement>('.log > .row, .tail-paint > .row');
    for (const row of Array.from(rows)) {
      if (!row.textContent?.includes(marker)) continue;
      const r = row.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    }
    return false;
  };
  let atEnd = true;
  for (;;) {
    await afterPaint();
    const rendered = el.shadowRoot?.querySelector('.log > .row, .tail-paint > .row') !== null;
    if (firstRowsMs === undefined && rendered) firstRowsMs = performance.now() - t0;
    if (markerVisible()) break;
    if (performance.now() - t0 > timeoutMs) {
      atEnd = false;
      break;
    }
  }
  const ms = performance.now() - t0;
  return { ms, firstRowsMs, atEnd, rows: el.model.rows.length, dom: countElements() };
}

export const reopenBench = {
  /** Writes a synthetic thread of `count` updates into a fresh journal with Silo's journal module. */
  async generateJournal(count: number, marker: string, noisy = false) {
    const databaseName = freshName('reopen');
    const sessionId = `bench-thread-${crypto.randomUUID()}`;
    const worker = new Worker(new URL('./journal-worker.js', import.meta.url), {
      type: 'module',
      name: 'journal',
    });
    const before = await navigator.storage.estimate();
    try {
      const done = await new Promise<JournalMessage>((resolve) => {
        worker.onmessage = (e: MessageEvent<JournalMessage>) => resolve(e.data);
        worker.onerror = (e) => resolve({ type: 'error', message: e.message });
        worker.postMessage({ databaseName, sessionId, count, marker, noisy } satisfies JournalRequest);
      });
      if (done.type === 'error') throw new Error(done.message);
      // IndexedDB's own size on disk, as the browser counts it for the origin's quota.
      const after = await navigator.storage.estimate();
      return {
        databaseName,
        sessionId,
        updates: done.updates,
        ms: done.ms,
        approxBytes: done.approxBytes,
        wireBytes: done.wireBytes,
        diskBytes: (after.usage ?? 0) - (before.usage ?? 0),
      };
    } finally {
      worker.terminate();
    }
  },

  /** The baseline: one `getAll` of the session's segments (the whole raw journal). */
  async rawRead(databaseName: string, sessionId: string) {
    const db = await openDatabase(databaseName);
    try {
      const t0 = performance.now();
      const segments = await readSegments(db, sessionId);
      const ms = performance.now() - t0;
      return { ms, updates: segments.reduce((n, s) => n + s.updates.length, 0), segments: segments.length };
    } finally {
      db.close();
    }
  },

  /**
   * Silo, offline source: `<silo-transcript>` opening the journaled thread (`service` +
   * `session-id`), with the worker started and the journal open beforehand (as for the raw read).
   * Ends at the first frame after the row carrying `marker` (the last screen) is laid out inside the
   * visible log; nothing scrolls the element (no `scrollToLatest()`): it must open at the end itself.
   */
  async reopen(databaseName: string, sessionId: string, marker: string, timeoutMs: number) {
    const service = createAgentsService({ databaseName });
    reopenService = service;
    await service.sessions();
    const el = await mountTranscript();
    const t0 = performance.now();
    el.service = service;
    el.sessionId = sessionId;
    return lastScreen(el, marker, t0, timeoutMs);
  },

  /**
   * Silo, live source after a reload, first half: a fresh service connects to the journaled session
   * through the bridge (`resume`; the agent does not know it, so the handle is journal-only, the path
   * is the same), timed (`connectMs`), and an empty `<silo-transcript>` is mounted. {@link reopenLive}
   * then times the open.
   */
  async reopenLiveConnect(bridge: AgentBridgeOptions, databaseName: string, sessionId: string) {
    const service = createAgentsService({ databaseName });
    reopenService = service;
    const t0 = performance.now();
    reopenHandle = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    const connectMs = performance.now() - t0;
    await mountTranscript();
    return { connectMs };
  },

  /**
   * Silo, live source after a reload, timed: the handle {@link reopenLiveConnect} made is given to
   * the mounted `<silo-transcript>` (`session`). Timed like {@link reopen}, from setting `session`.
   */
  async reopenLive(marker: string, timeoutMs: number) {
    const handle = reopenHandle!;
    reopenHandle = undefined;
    const el = document.querySelector('silo-transcript') as SiloTranscript;
    const t0 = performance.now();
    el.session = handle;
    const result = await lastScreen(el, marker, t0, timeoutMs);
    return { ...result, resumeOutcome: handle.resumeOutcome };
  },

  /** The floor: reading just the journal's last segment (one cursor step from the end). */
  async rawTailRead(databaseName: string, sessionId: string) {
    const db = await openDatabase(databaseName);
    try {
      const t0 = performance.now();
      const cursor = await requestResult(
        db.transaction('segments').objectStore('segments').openCursor(sessionRange(sessionId), 'prev'),
      );
      const updates = (cursor?.value as Segment | undefined)?.updates.length ?? 0;
      return { ms: performance.now() - t0, updates };
    } finally {
      db.close();
    }
  },

  /** Removes the open `<silo-transcript>`s and disposes the service {@link reopen} or {@link reopenLiveConnect} made. */
  async reopenCleanup() {
    for (const e of Array.from(document.querySelectorAll('silo-transcript'))) e.remove();
    await reopenService?.dispose();
    reopenService = undefined;
  },
};
