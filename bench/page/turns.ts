/**
 * Page side of the throughput and latency benchmarks: one prompt turn of an agent through the bridge
 * (`/scenario flood <count>`, `/scenario paced <rate> <count>`), received by Silo (the built page API
 * and worker), by the bare raw worker (the limit), by the ACP SDK's client in the page, or by the
 * naive client that journals each update in its own transaction. Merged into `window.siloBench`.
 */
import { client, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { createAgentsService } from '../../src/index.ts';
import type { AgentBridgeOptions, AgentSessionUpdate } from '../../src/types.ts';
import type { Segment } from '../../worker/journal.ts';
import { CWD, freshName } from './fixtures.ts';
import { deleteDatabase, openDatabase, requestResult, sessionRange } from './measure.ts';
import type { RawMessage, RawRequest } from './protocol.ts';

/**
 * Asks the runner to sample the renderer's per-thread CPU time (main thread, workers) at the start
 * and end of a timed flood; a no-op when the runner did not expose it.
 */
const cpuMark = async (phase: 'start' | 'end') => {
  await window.siloBenchCpu?.(phase);
};

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

export const turnsBench = {
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
