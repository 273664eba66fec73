// The seeded fuzzer end to end: a hostile agent (agent/test/fuzz-agent.ts) behind the real bridge
// writes mutated frames of the recorded real traffic (truncated lines, wrong types, unknown kinds and
// fields, huge strings, deep nesting, duplicated and reordered ids, stray responses, vendor requests)
// into a real Silo session. The page must stay responsive, every valid update after a bad one must
// still arrive, and the journal must equal, in order, exactly the updates that arrived.
// Default: one seed × 1,000 frames per browser (2,000 more run Node-side); long (`npm test -- --long`): 3 seeds × 10,000.
import { executeServerCommand } from '@web/test-runner-commands';
import { expect } from 'chai';
import { type AgentSessionUpdate, type AgentsService, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import {
  distinctBadInputs,
  expectedUpdate,
  generateFrames,
  markerUpdate,
  updatesOfRecording,
} from '../../support/fuzz.ts';
import { watchFrameGaps } from '../../support/main-thread.ts';
import { report, testEnv } from '../../support/summary-browser.ts';
import { until } from '../../support/until.ts';
import { script, update } from '../fixtures/conformance.ts';

/**
 * The longest the page may go without an animation frame during the fuzz: {@link GAP_FACTOR} times
 * the longest gap while the same session's agent plays as many valid updates of the recorded traffic
 * (the baseline, measured in the same run on this machine under its load now), and never less than
 * 500 ms. A frame is due every 16.7 ms; the main thread doing the fuzz's work (a 256 KiB string or a
 * deeply nested frame) leaves a gap of seconds, while a loaded machine slows the baseline with it.
 */
const MIN_FRAME_GAP_MS = 500;
const GAP_FACTOR = 4;

/** Rows Silo writes itself (the prompt, the end of the turn), not the agent. */
const isSilos = (u: AgentSessionUpdate) =>
  (u.kind === 'user_message_chunk' && u.timestamp !== undefined) || u.turnEnd !== undefined;

describe('fuzzed recorded traffic into a real session', function () {
  this.timeout(600_000);
  let bridge: TestBridge;
  let service: AgentsService;
  let sources: Record<string, never>[];

  before(async () => {
    bridge = await startBridge({ agentScript: 'agent/test/fuzz-agent.ts' });
    sources = [];
    for (const name of ['main', 'load', 'resume']) {
      sources.push(
        ...(updatesOfRecording(
          await executeServerCommand<string, { name: string }>('silo-fixture', { name }),
        ) as never[]),
      );
    }
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(() => {
    service = createAgentsService({ databaseName: `silo-fuzz-${crypto.randomUUID()}` });
  });
  afterEach(async () => {
    await service.dispose();
  });

  it('journals exactly the valid updates, in order, and keeps serving (seeded; the seed reproduces a failure)', async () => {
    const { long } = await testEnv();
    const seeds = long ? [101, 102, 103] : [Number(new URLSearchParams(location.search).get('seed') ?? 7)];
    const count = long ? 10_000 : 1_000;
    const maxString = 256 * 1024;
    for (const seed of seeds) {
      const delivered: AgentSessionUpdate[] = [];
      const session = await service.connect({
        bridge,
        cwd: '/tmp/silo-fuzz',
        onUpdate: (u) => delivered.push(u),
      });
      const frames = generateFrames({ seed, count, sessionId: session.sessionId, sources, maxString });
      const must = frames.filter((f) => f.verdict === 'must').map((f) => expectedUpdate(f.line));
      // The page keeps painting: the longest gap between two animation frames during the fuzz. The
      // work is in the worker; a main thread blocked by it (parsing, normalizing or journaling on the
      // page) would leave a gap of seconds. First the baseline: the same count of valid recorded
      // updates played as an ordinary turn, in a session of its own (the fuzzed journal stays exact).
      const plain = await service.connect({ bridge, cwd: '/tmp/silo-fuzz-baseline' });
      const ordinary = must.map((_, i) => update(sources[i % sources.length]!));
      const base = watchFrameGaps();
      expect(await plain.prompt(script({ lines: ordinary })), `seed ${seed}: the baseline turn`).to.equal(
        'end_turn',
      );
      const baseline = base.stop();
      await plain.close();
      await report(
        'figure',
        baseline,
        `longest gap between frames, ${must.length} valid updates (the baseline)`,
        'ms',
      );
      const watch = watchFrameGaps();
      const stop = await session.prompt(`fuzz ${seed} ${count} ${maxString}`);
      const longestGap = watch.stop();
      expect(stop, `seed ${seed}`).to.equal('end_turn');
      await report('figure', longestGap, `longest gap between frames, fuzz seed ${seed}`, 'ms');
      expect(watch.frames, `seed ${seed}: frames drawn`).to.be.greaterThan(1);
      const bound = Math.max(MIN_FRAME_GAP_MS, GAP_FACTOR * baseline);
      expect(
        longestGap,
        `seed ${seed}: longest gap between frames (ms), baseline ${baseline}`,
      ).to.be.lessThan(bound);
      const journal = await session.transcript();
      const fromAgent = journal.filter((u) => !isSilos(u));
      await report('inputs', distinctBadInputs(frames), `browser fuzz seed ${seed}`);
      await report('lost', Math.max(0, must.length - fromAgent.length), `browser fuzz seed ${seed}`);
      expect(fromAgent.at(-1)?.raw, `seed ${seed}: the marker arrived last`).to.deep.equal(
        markerUpdate(seed, count),
      );
      expect(fromAgent.length, `seed ${seed}: as many journaled as valid frames sent`).to.equal(must.length);
      for (let i = 0; i < must.length; i++) {
        expect(fromAgent[i]!.raw, `seed ${seed}: update ${i} raw and in order`).to.deep.equal(must[i]);
      }
      expect(
        journal.map((u) => u.seq),
        `seed ${seed}: gapless`,
      ).to.deep.equal(journal.map((_, i) => i));
      expect(delivered, `seed ${seed}: the page got exactly the journal`).to.deep.equal(journal);
      // Still serving: another turn on the same session.
      expect(await session.prompt('ping')).to.equal('end_turn');
      await until(() => delivered.some((u) => u.text === 'pong: ping'), 'the reply after the fuzz');
      expect(session.state).to.equal('connected');
      await session.close();
    }
  });
});
