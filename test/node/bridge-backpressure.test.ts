// The bridge against a client slower than its agent (a browser journaling a flood): the agent must be
// held back at the pipe, not buffered. The bridge's own reads and writes (/proc/<pid>/io) say how
// many bytes of agent output it holds at any moment, and that must stay under a bound that does not
// depend on the flood's length, while every update still arrives, in order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { procIo, procStatusKiB, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';
import { report } from '../support/summary.ts';

const ORIGIN = 'http://localhost:5173';
const MiB = 1024 * 1024;
/** The flood: about 210 bytes an update, some 40 MiB in all, far more than the bridge may hold. */
const FLOOD = 200_000;
/** Updates the client reads each time before it stops reading again. */
const STEP = 25_000;
/** The bridge's --max-buffered-bytes. */
const BUFFERED = MiB;
/**
 * Most agent output the bridge may hold: the socket's share, one read of the pipe and a few messages
 * in between come to little over `BUFFERED`; the rest is headroom.
 */
const HELD_BOUND = BUFFERED + 7 * MiB;
/** Polls in a row (20 ms apart) in which the bridge read nothing: it has stopped taking output. */
const QUIET_POLLS = 10;

const peakRssKiB = (pid: number) => procStatusKiB(pid, 'VmHWM');

describe('bridge backpressure', { timeout: 120_000 }, () => {
  test('a client that keeps falling behind a flood: the agent is held back, the bridge holds a bounded amount, every update arrives in order', async (t) => {
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      bridgeArgs: ['--max-buffered-bytes', String(BUFFERED)],
    });
    try {
      const client = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
      await new Promise((r) => client.once('open', r));
      const replies = new Map<number, Record<string, unknown>>();
      let updates = 0;
      let outOfOrder = 0;
      client.on('message', (data) => {
        const m = JSON.parse(String(data));
        if (m.method !== 'session/update') replies.set(m.id, m);
        else if (m.params.update.sessionUpdate === 'agent_message_chunk') {
          if (m.params.update.content.text !== `${updates} `) outOfOrder++;
          updates++;
        }
      });
      const send = (m: object) => client.send(JSON.stringify({ jsonrpc: '2.0', ...m }));

      // Polls every 20 ms until `done()`, checking at each poll that the bridge holds no more than
      // the bound: what it read minus what it wrote since the flood began (its log lines and the
      // client's few requests are noise of a few KiB).
      let base = procIo(bridge.pid);
      let maxHeld = 0;
      const watch = (done: () => boolean, what: string) =>
        pollUntil(
          () => {
            const io = procIo(bridge.pid);
            const held = io.read - base.read - (io.written - base.written);
            maxHeld = Math.max(maxHeld, held);
            assert.ok(
              held <= HELD_BOUND,
              `the bridge holds ${(held / MiB).toFixed(1)} MiB of agent output (bound ${HELD_BOUND / MiB} MiB) after ${updates} updates read`,
            );
            return done();
          },
          what,
          60_000,
        );

      send({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      send({ id: 1, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } });
      await watch(() => replies.has(1), 'session/new answered');
      const { sessionId } = replies.get(1)!.result as { sessionId: string };
      const rssBefore = peakRssKiB(bridge.pid);
      base = procIo(bridge.pid);
      send({
        id: 2,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: `/scenario flood ${FLOOD}` }] },
      });

      let stalls = 0;
      while (updates < FLOOD && !replies.has(2)) {
        // Stop reading until the bridge has stopped reading the agent: a bounded bridge stops once its
        // buffer is full; one that buffers without bound takes the whole flood first. How soon the
        // bridge counts as stopped only decides when the client reads again: the bound is checked at
        // every poll either way.
        client.pause();
        let lastRead = -1;
        let quiet = 0;
        await watch(() => {
          const { read } = procIo(bridge.pid);
          quiet = read === lastRead ? quiet + 1 : 0;
          lastRead = read;
          return quiet >= QUIET_POLLS;
        }, 'the bridge to stop reading the agent');
        stalls++;
        client.resume();
        const target = Math.min(FLOOD, updates + STEP);
        await watch(() => updates >= target || replies.has(2), `${target} updates read`);
      }
      await watch(() => replies.has(2), 'the prompt answered');

      assert.deepEqual(replies.get(2)!.result, { stopReason: 'end_turn' });
      assert.equal(updates, FLOOD, 'every update of the flood arrived');
      assert.equal(outOfOrder, 0, 'in order, none twice');
      const grownMiB = (peakRssKiB(bridge.pid) - rssBefore) / 1024;
      assert.ok(grownMiB < 150, `bridge memory bounded (peak RSS grew ${grownMiB.toFixed(0)} MiB)`);
      t.diagnostic(
        `the bridge held at most ${(maxHeld / MiB).toFixed(2)} MiB of agent output over ${stalls} stalls; peak RSS grew ${grownMiB.toFixed(0)} MiB`,
      );
      report({ category: 'lost', n: FLOOD - updates, name: 'node flood into a client that falls behind' });
      report({
        category: 'figure',
        n: Math.round(peakRssKiB(bridge.pid) / 1024),
        name: `bridge peak RSS, a client falling behind a flood of ${FLOOD}`,
        unit: 'MiB',
      });
      client.close();
    } finally {
      await bridge.stop();
    }
  });
});
