// Load through the real bridge: 20 concurrent sessions, and one session journaling a flood (50,000
// updates by default, 1,000,000 with `npm test -- --long`). Nothing may be lost (measured against the
// numbered chunks the agent sent), and memory must stay bounded: the bridge's peak RSS and the page's
// JS heap are reported in the summary.
import { executeServerCommand } from '@web/test-runner-commands';
import { expect } from 'chai';
import { type AgentsService, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { report, testEnv } from '../../support/summary-browser.ts';

const CWD = '/tmp/silo-load';
/** Chromium's non-standard heap gauge; Firefox has none a page can read. */
const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;
const peakRss = async (b: TestBridge) =>
  (await executeServerCommand<{ peakRssKiB: number }, { pid: number }>('silo-proc-status', { pid: b.pid }))
    .peakRssKiB;

/** Counts the flood's chunks (`0 `, `1 `, …) as they are delivered, checking order without keeping them. */
function floodCounter() {
  let next = 0;
  let outOfOrder = 0;
  return {
    see(text: string | undefined) {
      if (text === undefined || !/^\d+ $/.test(text)) return;
      if (Number(text) === next) next++;
      else outOfOrder++;
    },
    get count() {
      return next;
    },
    get outOfOrder() {
      return outOfOrder;
    },
  };
}

describe('load through one bridge', function () {
  this.timeout(1_800_000);
  let service: AgentsService;
  let bridge: TestBridge;
  before(async () => {
    bridge = await startBridge({ bridgeArgs: ['--max-connections', '24'] });
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(() => {
    service = createAgentsService({ databaseName: `silo-load-${crypto.randomUUID()}` });
  });
  afterEach(async () => {
    await service.dispose();
  });

  it('20 concurrent sessions, each flooding: every update journaled in order, no cross-talk', async () => {
    const { long } = await testEnv();
    const perSession = long ? 20_000 : 1_000;
    const counters = Array.from({ length: 20 }, () => floodCounter());
    const sessions = await Promise.all(
      counters.map((c) => service.connect({ bridge, cwd: CWD, onUpdate: (u) => c.see(u.text) })),
    );
    let peakHeap = heap() ?? 0;
    const stops = await Promise.all(sessions.map((s) => s.prompt(`/scenario flood ${perSession}`)));
    peakHeap = Math.max(peakHeap, heap() ?? 0);
    expect(stops.every((s) => s === 'end_turn')).to.equal(true);
    let lost = 0;
    for (const [i, s] of sessions.entries()) {
      const summary = (await service.sessions()).find((x) => x.sessionId === s.sessionId)!;
      // The prompt, the chunks, the turn end (+ the commands the agent announces).
      lost += Math.max(0, perSession - counters[i]!.count);
      expect(counters[i]!.outOfOrder, `session ${i}: in order`).to.equal(0);
      expect(summary.updateCount, `session ${i}: journaled`).to.be.at.least(perSession + 2);
    }
    const ids = new Set(sessions.map((s) => s.sessionId));
    expect(ids.size).to.equal(20, 'twenty distinct sessions');
    const journal = await sessions[7]!.transcript();
    expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
    expect(journal.filter((u) => /^\d+ $/.test(u.text ?? '')).map((u) => Number(u.text))).to.deep.equal(
      Array.from({ length: perSession }, (_, i) => i),
      'one session’s journal holds exactly its own flood, in order',
    );
    await report('lost', lost, '20 concurrent sessions');
    await report(
      'figure',
      Math.round((await peakRss(bridge)) / 1024),
      `bridge peak RSS, 20 sessions × ${perSession} updates`,
      'MiB',
    );
    if (peakHeap)
      await report(
        'figure',
        Math.round(peakHeap / 1024 / 1024),
        `page JS heap, 20 sessions × ${perSession} updates`,
        'MiB',
      );
    expect(lost).to.equal(0);
    await Promise.all(sessions.map((s) => s.close()));
  });

  it('one session journaling a flood: no loss, in order, bounded memory', async () => {
    const { long } = await testEnv();
    const n = long ? 1_000_000 : 50_000;
    const counter = floodCounter();
    let batches = 0;
    const session = await service.connect({ bridge, cwd: CWD, onUpdate: (u) => counter.see(u.text) });
    session.subscribe(() => batches++);
    let peakHeap = heap() ?? 0;
    const sampler = setInterval(() => {
      peakHeap = Math.max(peakHeap, heap() ?? 0);
    }, 250);
    const started = performance.now();
    let stop: string;
    try {
      stop = await session.prompt(`/scenario flood ${n}`);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(stop).to.equal('end_turn');
    const summary = (await service.sessions()).find((x) => x.sessionId === session.sessionId)!;
    const lost = Math.max(0, n - counter.count);
    await report('lost', lost, `one session, ${n} updates`);
    await report(
      'figure',
      Math.round(n / seconds),
      `journaled updates per second (flood of ${n})`,
      'updates/s',
    );
    await report(
      'figure',
      Math.round((await peakRss(bridge)) / 1024),
      `bridge peak RSS after ${n} updates`,
      'MiB',
    );
    if (peakHeap)
      await report(
        'figure',
        Math.round(peakHeap / 1024 / 1024),
        `page JS heap peak during ${n} updates`,
        'MiB',
      );
    expect(counter.outOfOrder, 'in order').to.equal(0);
    expect(lost, 'nothing lost').to.equal(0);
    expect(summary.updateCount, 'the journal holds them all').to.be.at.least(n + 2);
    expect(batches, 'batched delivery').to.be.lessThan(n / 10);
    if (!long) {
      const journal = await session.transcript();
      expect(journal.map((u) => u.seq)).to.deep.equal(
        journal.map((_, i) => i),
        'gapless',
      );
    }
    if (peakHeap) expect(peakHeap / 1024 / 1024, 'page heap bounded').to.be.lessThan(long ? 1024 : 512);
  });
});
