// The seeded fuzzer through the real bridge: a hostile agent (agent/test/fuzz-agent.ts) writes
// thousands of mutated frames of the recorded real traffic; a real WebSocket client (the SDK's, with a
// raw tap) must see every valid update, in order, intact, and the bridge must neither crash nor hang.
// Default: 2 seeds × 2,000 frames; `npm test -- --long` (SILO_LONG=1): 10 seeds × 10,000 frames.
// A failure names its seed: rerun with SILO_FUZZ_SEED=<seed> to reproduce it alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectBridge } from '../support/acp-harness.ts';
import { type BridgeProcess, ROOT, startBridgeProcess } from '../support/bridge-process.mjs';
import {
  distinctBadInputs,
  expectedUpdate,
  generateFrames,
  markerUpdate,
  updatesOfRecording,
} from '../support/fuzz.ts';
import { LONG, report } from '../support/summary.ts';

const ORIGIN = 'http://localhost:5173';
const FIXTURES = join(ROOT, 'test/fixtures/claude-agent-acp');
const SEEDS = process.env.SILO_FUZZ_SEED
  ? [Number(process.env.SILO_FUZZ_SEED)]
  : LONG
    ? [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    : [1, 2];
const COUNT = LONG ? 10_000 : 2_000;
/** Smaller huge strings in the long run keep it to a few hundred MB of traffic. */
const MAX_STRING = LONG ? 64 * 1024 : 1024 * 1024;

const sources = ['main', 'load', 'resume'].flatMap((n) =>
  updatesOfRecording(readFileSync(join(FIXTURES, `${n}.jsonl`), 'utf8')),
);

describe('fuzzed recorded traffic through the real bridge', { timeout: LONG ? 1_800_000 : 240_000 }, () => {
  let bridge: BridgeProcess;
  const errors: unknown[][] = [];
  const consoleError = console.error;
  before(async () => {
    bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      agentCommand: [process.execPath, '--import', 'tsx', join(ROOT, 'agent/test/fuzz-agent.ts')],
    });
    // The SDK logs every update it cannot parse; thousands are expected here. Kept, not printed.
    console.error = (...args: unknown[]) => void errors.push(args);
  });
  after(async () => {
    console.error = consoleError;
    await bridge.stop();
  });

  for (const seed of SEEDS) {
    test(`seed ${seed}: ${COUNT} frames, every valid update delivered in order, the bridge still serving`, async () => {
      const h = connectBridge(bridge.url, bridge.token, ORIGIN);
      const sessionId = await h.start();
      const frames = generateFrames({ seed, count: COUNT, sessionId, sources, maxString: MAX_STRING });
      const must = frames.filter((f) => f.verdict === 'must').map((f) => expectedUpdate(f.line));
      const stop = await h.prompt(sessionId, `fuzz ${seed} ${COUNT} ${MAX_STRING}`);
      assert.equal(stop, 'end_turn', `seed ${seed}: the fuzz turn ends normally`);
      // What a client journals: the update objects of this session (the worker's tap keeps the same).
      const got = h.updates(sessionId).filter((u) => typeof u === 'object' && u !== null);
      report({
        category: 'inputs',
        n: distinctBadInputs(frames),
        name: `node fuzz seed ${seed}`,
      });
      const lost = Math.max(0, must.length - got.length);
      report({ category: 'lost', n: lost, name: `node fuzz seed ${seed}` });
      assert.deepEqual(got.at(-1), markerUpdate(seed, COUNT), `seed ${seed}: the marker arrived last`);
      assert.equal(got.length, must.length, `seed ${seed}: exactly the valid updates arrived (lost ${lost})`);
      for (let i = 0; i < must.length; i++)
        assert.deepEqual(got[i], must[i], `seed ${seed}: update ${i} intact and in order`);
      // Still serving: the same connection takes another turn, and a new connection works.
      assert.equal(await h.prompt(sessionId, 'ping'), 'end_turn');
      assert.equal(bridge.child.exitCode, null, 'the bridge is alive');
      h.close();
      await h.socketClosed;
      const fresh = connectBridge(bridge.url, bridge.token, ORIGIN);
      assert.equal(await fresh.prompt(await fresh.start(), 'after the fuzz'), 'end_turn');
      fresh.close();
      await fresh.socketClosed;
    });
  }
});
