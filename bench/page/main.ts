/**
 * The benchmark page. The Node runner (bench/run.ts) calls `window.siloBench.*` one measurement at a
 * time; every function sets up what it needs, measures, tears it down and returns plain numbers.
 * Silo itself is loaded from the built library bundles (`./silo.js`, `./components.js`, whose default
 * worker is `./worker.js`), exactly as an app would ship them.
 */
import { client, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import '../../components/index.ts';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { renderMarkdown } from '../../components/content/markdown.ts';
import type { SiloTranscript } from '../../components/transcript/silo-transcript.ts';
import { type AgentSessionHandle, createAgentsService } from '../../src/index.ts';
import type { AgentBridgeOptions, AgentSessionUpdate } from '../../src/types.ts';
import type { Segment } from '../../worker/journal.ts';
import { exportBench } from './export.ts';
import {
  afterPaint,
  countElements,
  deleteDatabase,
  nextFrame,
  openDatabase,
  percentile,
  recordMainThread,
  requestResult,
  sessionRange,
} from './measure.ts';
import type { JournalMessage, JournalRequest, RawMessage, RawRequest } from './protocol.ts';
import { scaleBench } from './scale.ts';

const CWD = '/tmp/silo-bench';

/**
 * Asks the runner to sample the renderer's per-thread CPU time (main thread, workers) at the start
 * and end of a timed flood; a no-op when the runner did not expose it.
 */
const cpuMark = async (phase: 'start' | 'end') => {
  await window.siloBenchCpu?.(phase);
};
const freshName = (what: string) => `silo-bench-${what}-${crypto.randomUUID()}`;

export interface FloodResult {
  ms: number;
  /** agent_message_chunk updates the page received (callbacks). */
  received: number;
  /** agent_message_chunk updates durably journaled (verified by reading the journal), when checked. */
  journaled?: number;
  /** True when the journal holds every chunk, in order, with gapless sequence numbers. */
  journalComplete?: boolean;
}

/** Runs one turn through the bare worker (the raw limit). */
function runRaw(
  request: RawRequest,
  onSent?: (sentAt: number) => void,
): Promise<{ ms: number; chunks: number }> {
  const worker = new Worker(new URL('./raw-worker.js', import.meta.url), { type: 'module', name: 'raw' });
  return new Promise<{ ms: number; chunks: number }>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<RawMessage>) => {
      const m = e.data;
      if (m.type === 'sent') onSent?.(m.sentAt);
      else if (m.type === 'done') void cpuMark('end').then(() => resolve({ ms: m.ms, chunks: m.chunks }));
      else reject(new Error(m.message));
    };
    worker.onerror = (e) => reject(new Error(e.message));
    void cpuMark('start').then(() => worker.postMessage(request));
  }).finally(() => worker.terminate());
}

/** Reads a Silo journal directly and checks a flood of `count` chunks is all there, in order. */
async function checkFloodJournal(databaseName: string, sessionId: string, count: number) {
  const db = await openDatabase(databaseName);
  try {
    const segments = await requestResult(
      db.transaction('segments').objectStore('segments').getAll(sessionRange(sessionId)) as IDBRequest<
        Segment[]
      >,
    );
    let seq = 0;
    let chunks = 0;
    let inOrder = true;
    for (const s of segments) {
      for (const u of s.updates) {
        if (u.seq !== seq++) inOrder = false;
        if (u.kind === 'agent_message_chunk') {
          if (u.text !== `${chunks} `) inOrder = false;
          chunks++;
        }
      }
    }
    return { journaled: chunks, journalComplete: inOrder && chunks === count };
  } finally {
    db.close();
  }
}

/**
 * The ACP SDK in the page: one turn of `/scenario flood <count>`, counting `agent_message_chunk`s.
 * With `db`, each update is also put in its own IndexedDB transaction and counted once committed
 * (the naive journal); the time then runs until the last transaction commits.
 */
async function sdkClientFlood(
  bridge: AgentBridgeOptions,
  count: number,
  db: IDBDatabase | undefined,
): Promise<FloodResult> {
  let pending = 0;
  let received = 0;
  let drained: (() => void) | undefined;
  const see = (update: { sessionUpdate?: string }) => {
    if (update.sessionUpdate === 'agent_message_chunk') received++;
  };
  const app = client({ name: db ? 'naive-bench' : 'sdk-bench' }).onNotification(
    'session/update',
    ({ params }) => {
      const update = params.update as { sessionUpdate?: string };
      if (!db) return see(update);
      pending++;
      const tx = db.transaction('updates', 'readwrite');
      tx.objectStore('updates').put(params);
      tx.oncomplete = () => {
        see(update);
        if (--pending === 0) drained?.();
      };
    },
  );
  const connection = app.connect(
    createWebSocketStream(bridge.url, { protocols: bridgeProtocols(bridge.token) }),
  );
  try {
    await connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await connection.agent.request('session/new', { cwd: CWD, mcpServers: [] });
    received = 0;
    await cpuMark('start');
    const t0 = performance.now();
    await connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `/scenario flood ${count}` }],
    });
    if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
    const ms = performance.now() - t0;
    await cpuMark('end');
    return { ms, received };
  } finally {
    connection.close();
  }
}

/** A `<silo-transcript>` in the page, rendered empty, one frame later. */
async function mountTranscript(): Promise<SiloTranscript> {
  const el = document.createElement('silo-transcript') as SiloTranscript;
  el.style.cssText = 'display: block; width: 960px; height: 640px';
  document.body.append(el);
  await el.updateComplete;
  await nextFrame();
  return el;
}

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

/** A long Markdown answer of about `bytes` characters: sections of prose, lists and code. */
function markdownAnswer(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let k = 1; length < bytes; k++) {
    const section = [
      `## Part ${k}: what the code does`,
      `The function \`step${k}\` reads the **input**, keeps what it needs and _returns_ a new value; see [the docs](https://docs.example.test/${k}) for the rest. It runs in linear time and allocates once per call, which matters for long inputs.`,
      `- first, it checks the arguments (\`${k}\` of them)\n- then it folds the list\n- finally it writes the result`,
      `\`\`\`ts\nexport function step${k}(xs: number[]): number {\n  return xs.reduce((a, b) => a + b * ${k}, 0);\n}\n\`\`\``,
      `> Note: part ${k} assumes the previous part ran.`,
    ].join('\n\n');
    parts.push(section);
    length += section.length + 2;
  }
  return parts.join('\n\n').slice(0, bytes);
}

const bench = {
  /** Silo: the built page API and worker, journaling on; ends when `prompt()` resolves (all journaled and delivered). */
  async siloFlood(bridge: AgentBridgeOptions, count: number, verify: boolean): Promise<FloodResult> {
    const databaseName = freshName('flood');
    const service = createAgentsService({ databaseName });
    let received = 0;
    try {
      const session = await service.connect({
        bridge,
        cwd: CWD,
        onUpdate: (u) => {
          if (u.kind === 'agent_message_chunk') received++;
        },
      });
      received = 0;
      await cpuMark('start');
      const t0 = performance.now();
      await session.prompt(`/scenario flood ${count}`);
      const ms = performance.now() - t0;
      await cpuMark('end');
      const result: FloodResult = { ms, received };
      await session.close();
      await service.dispose();
      if (verify) Object.assign(result, await checkFloodJournal(databaseName, session.sessionId, count));
      return result;
    } finally {
      await service.dispose();
      await deleteDatabase(databaseName);
    }
  },

  /** The raw limit: a bare worker that only parses frames. */
  async rawFlood(bridge: AgentBridgeOptions, count: number): Promise<FloodResult> {
    const r = await runRaw({ bridge, prompt: `/scenario flood ${count}`, mode: 'count' });
    return { ms: r.ms, received: r.chunks };
  },

  /**
   * The client users would write: the ACP SDK's `client()` on the page's main thread, counting
   * updates, no journal; ends when the prompt is answered.
   */
  sdkFlood(bridge: AgentBridgeOptions, count: number): Promise<FloodResult> {
    return sdkClientFlood(bridge, count, undefined);
  },

  /**
   * The naive client: the SDK in the page, one IndexedDB transaction and one callback per update;
   * ends when the prompt answered and every update's transaction committed.
   */
  async naiveFlood(bridge: AgentBridgeOptions, count: number): Promise<FloodResult> {
    const databaseName = freshName('naive');
    const db = await openDatabase(databaseName, (d) =>
      d.createObjectStore('updates', { autoIncrement: true }),
    );
    try {
      const result = await sdkClientFlood(bridge, count, db);
      const stored = await requestResult(db.transaction('updates').objectStore('updates').count());
      return { ...result, journaled: stored };
    } finally {
      db.close();
      await deleteDatabase(databaseName);
    }
  },

  /**
   * A stream fed at a fixed rate from the page, one batch per 16 ms as Silo's worker delivers them:
   * agent text chunks, a new message every `chunksPerMessage` chunks with a tool call between
   * messages. `silo`: into `<silo-transcript>` (`appendUpdates`). `bare`: the baseline, the least a
   * page can do — each batch's text appended as one text node to a plain `<div>` per message.
   * Feeding from the page measures the renderer at exactly `rate`, whatever the agent can send.
   */
  async feedStream(target: 'silo' | 'bare', rate: number, count: number, chunksPerMessage: number) {
    const host = document.createElement('div');
    host.style.cssText = 'width: 960px; height: 640px; overflow-y: auto; white-space: pre-wrap';
    const el = document.createElement('silo-transcript') as SiloTranscript;
    el.updates = [];
    document.body.append(target === 'silo' ? el : host);
    try {
      if (target === 'silo') await el.updateComplete;
      await nextFrame();
      let seq = 0;
      let sent = 0;
      let message = 0;
      let bareMessage: HTMLElement | undefined;
      const make = (out: AgentSessionUpdate[]) => {
        if (sent % chunksPerMessage === 0 && sent > 0) {
          const toolCallId = `feed-tool-${message}`;
          const raw = {
            sessionUpdate: 'tool_call',
            toolCallId,
            title: `Edit file ${message}`,
            kind: 'edit',
            status: 'completed',
          };
          out.push({
            kind: 'tool_call',
            seq: seq++,
            raw,
            toolCall: { toolCallId, title: raw.title, kind: 'edit', status: 'completed' },
          });
          message++;
        }
        const text = `${sent % 7 === 0 ? '\n\n' : ''}word${sent} `;
        const messageId = `feed-msg-${message}`;
        const content = { type: 'text' as const, text };
        out.push({
          kind: 'agent_message_chunk',
          seq: seq++,
          messageId,
          text,
          content,
          raw: { sessionUpdate: 'agent_message_chunk', messageId, content },
        });
        sent++;
      };
      const renderBare = (batch: AgentSessionUpdate[]) => {
        let text = '';
        for (const u of batch) {
          if (u.kind === 'tool_call' || !bareMessage) {
            if (text && bareMessage) bareMessage.append(text);
            text = '';
            bareMessage = document.createElement('div');
            host.append(bareMessage);
          }
          if (u.text) text += u.text;
        }
        if (text) bareMessage!.append(text);
        host.scrollTop = host.scrollHeight;
      };
      const stop = recordMainThread();
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const due = Math.min(count, Math.floor(((performance.now() - t0) * rate) / 1000));
          const batch: AgentSessionUpdate[] = [];
          while (sent < due) make(batch);
          if (batch.length) {
            if (target === 'silo') el.appendUpdates(batch);
            else renderBare(batch);
          }
          if (sent >= count) {
            clearInterval(timer);
            resolve();
          }
        }, 16);
      });
      const ms = performance.now() - t0;
      if (target === 'silo') await el.updateComplete;
      await nextFrame();
      const { frames, longTasks } = stop();
      return {
        ms,
        achievedRate: (sent / ms) * 1000,
        frameP50: percentile(frames, 0.5),
        frameP95: percentile(frames, 0.95),
        longTasks: longTasks.length,
        longestTask: longTasks.length ? Math.max(...longTasks) : 0,
        /** Time spent in long tasks beyond their first 50 ms (the blocking time). */
        blockingMs: longTasks.reduce((t, d) => t + Math.max(0, d - 50), 0),
        dom: countElements(),
      };
    } finally {
      el.remove();
      host.remove();
    }
  },

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
      const segments = await requestResult(
        db.transaction('segments').objectStore('segments').getAll(sessionRange(sessionId)) as IDBRequest<
          Segment[]
        >,
      );
      const ms = performance.now() - t0;
      return { ms, updates: segments.reduce((n, s) => n + s.updates.length, 0), segments: segments.length };
    } finally {
      db.close();
    }
  },

  reopenService: undefined as ReturnType<typeof createAgentsService> | undefined,

  /**
   * Silo, offline source: `<silo-transcript>` opening the journaled thread (`service` +
   * `session-id`), with the worker started and the journal open beforehand (as for the raw read).
   * Ends at the first frame after the row carrying `marker` (the last screen) is laid out inside the
   * visible log; nothing scrolls the element (no `scrollToLatest()`): it must open at the end itself.
   */
  async reopen(databaseName: string, sessionId: string, marker: string, timeoutMs: number) {
    const service = createAgentsService({ databaseName });
    bench.reopenService = service;
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
    bench.reopenService = service;
    const t0 = performance.now();
    bench.reopenHandle = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    const connectMs = performance.now() - t0;
    await mountTranscript();
    return { connectMs };
  },

  reopenHandle: undefined as AgentSessionHandle | undefined,

  /**
   * Silo, live source after a reload, timed: the handle {@link reopenLiveConnect} made is given to
   * the mounted `<silo-transcript>` (`session`). Timed like {@link reopen}, from setting `session`.
   */
  async reopenLive(marker: string, timeoutMs: number) {
    const handle = bench.reopenHandle!;
    bench.reopenHandle = undefined;
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

  /**
   * One long answer streamed into `<silo-transcript>`: `bytes` of Markdown in `chunks` chunks,
   * `perFrame` chunks a frame. For each frame, the main-thread time from the first animation-frame
   * callback (registered before the element's) to the end of the element's render (its
   * `updateComplete`) and a forced layout. Reports the per-frame times; the runner
   * compares the first tenth with the last. Also times one whole-message Markdown render of the full
   * answer, the cost every frame used to pay at the end.
   */
  async streamAnswer(bytes: number, chunks: number, perFrame: number) {
    const text = markdownAnswer(bytes);
    const size = Math.ceil(text.length / chunks);
    const el = await mountTranscript();
    try {
      el.appendUpdates([
        {
          kind: 'user_message_chunk',
          seq: 0,
          text: 'Explain it at length',
          content: { type: 'text', text: 'Explain it at length' },
          raw: {
            sessionUpdate: 'user_message_chunk',
            content: { type: 'text', text: 'Explain it at length' },
          },
        },
      ]);
      await el.updateComplete;
      await nextFrame();
      const log = el.shadowRoot!.querySelector<HTMLElement>('.log')!;
      const frames: number[] = [];
      const renders: number[] = [];
      const layouts: number[] = [];
      let seq = 1;
      for (let i = 0; i < chunks; i += perFrame) {
        const batch: AgentSessionUpdate[] = [];
        for (let j = i; j < Math.min(chunks, i + perFrame); j++) {
          const piece = text.slice(j * size, (j + 1) * size);
          const content = { type: 'text' as const, text: piece };
          batch.push({
            kind: 'agent_message_chunk',
            seq: seq++,
            messageId: 'answer',
            text: piece,
            content,
            raw: { sessionUpdate: 'agent_message_chunk', messageId: 'answer', content },
          });
        }
        let t0 = 0;
        requestAnimationFrame(() => {
          t0 = performance.now();
        });
        el.appendUpdates(batch);
        // The element renders in an animation frame it asks for once the update is scheduled (after
        // t0's callback); its updateComplete resolves right after that render.
        await el.updateComplete;
        const t1 = performance.now();
        void log.scrollHeight;
        const t2 = performance.now();
        frames.push(t2 - t0);
        renders.push(t1 - t0);
        layouts.push(t2 - t1);
      }
      const rendered = el.shadowRoot!.querySelector('[part~="message-agent"]')?.textContent?.length ?? 0;
      const whole: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        renderMarkdown(`${text} `.slice(0, text.length + (i % 2)));
        whole.push(performance.now() - t0);
      }
      return {
        frames,
        renders,
        layouts,
        chars: text.length,
        rendered,
        wholeRenderMs: percentile(whole, 0.5),
      };
    } finally {
      el.remove();
    }
  },

  async reopenCleanup() {
    for (const e of Array.from(document.querySelectorAll('silo-transcript'))) e.remove();
    await bench.reopenService?.dispose();
    bench.reopenService = undefined;
  },

  deleteDatabase,

  ...scaleBench,
  ...exportBench,

  /** Silo: time from the agent stamping an update to the page's `onUpdate`, at `rate`/s. */
  async siloLatency(bridge: AgentBridgeOptions, rate: number, count: number) {
    const databaseName = freshName('latency');
    const service = createAgentsService({ databaseName });
    const latencies: number[] = [];
    try {
      const session = await service.connect({
        bridge,
        cwd: CWD,
        onUpdate: (u: AgentSessionUpdate) => {
          const sentAt = (u.raw as { _meta?: Record<string, unknown> })._meta?.['silo/sentAt'];
          if (typeof sentAt === 'number') latencies.push(Date.now() - sentAt);
        },
      });
      await session.prompt(`/scenario paced ${rate} ${count}`);
      await session.close();
      return latencies;
    } finally {
      await service.dispose();
      await deleteDatabase(databaseName);
    }
  },

  /** The raw limit for latency: the bare worker posts each chunk's stamp to the page as it arrives. */
  async rawLatency(bridge: AgentBridgeOptions, rate: number, count: number) {
    const latencies: number[] = [];
    await runRaw({ bridge, prompt: `/scenario paced ${rate} ${count}`, mode: 'latency' }, (sentAt) =>
      latencies.push(Date.now() - sentAt),
    );
    return latencies;
  },
};

export type SiloBench = typeof bench;

declare global {
  interface Window {
    siloBench: SiloBench;
    /** Exposed by the runner: samples per-thread CPU time of the renderer (see bench/cpu.ts). */
    siloBenchCpu?: (phase: 'start' | 'end') => Promise<void>;
  }
}

window.siloBench = bench;
