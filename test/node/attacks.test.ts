// Attacks on the bridge that a browser page cannot mount: a slow client that stops reading (output
// stall), clients without an Origin, and a non-loopback bind. Each must be refused or bounded while
// the bridge keeps serving a legitimate client. (Browser-mounted attacks: test/browser/reliability/attacks.test.ts.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { connectBridge } from '../support/acp-harness.ts';
import { procStatusKiB, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil as until } from '../support/poll.ts';
import { report } from '../support/summary.ts';

const ORIGIN = 'http://localhost:5173';
const MiB = 1024 * 1024;

const peakRssKiB = (pid: number) => procStatusKiB(pid, 'VmHWM');

describe('bridge attacks from non-browser clients', { timeout: 180_000 }, () => {
  test('a client that stops reading is bounded (agent paused) and then disconnected (1008); others are served', async () => {
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      bridgeArgs: ['--max-buffered-bytes', String(MiB), '--max-output-stall-ms', '2000'],
    });
    try {
      const rssBefore = peakRssKiB(bridge.pid);
      const slow = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
      await new Promise((r) => slow.once('open', r));
      const replies: Record<string, unknown>[] = [];
      let chunks = 0;
      slow.on('message', (data) => {
        const m = JSON.parse(String(data));
        if (m.method === 'session/update') chunks++;
        else replies.push(m);
      });
      const send = (m: object) => slow.send(JSON.stringify({ jsonrpc: '2.0', ...m }));
      send({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      send({ id: 1, method: 'session/new', params: { cwd: '/tmp', mcpServers: [] } });
      await until(() => replies.length >= 2, 'session/new answered');
      const sessionId = (replies[1] as { result: { sessionId: string } }).result.sessionId;
      send({
        id: 2,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: '/scenario flood 400000' }] },
      });
      await until(() => chunks > 100, 'the flood started');
      // Stop reading: the TCP window closes, the bridge's buffer fills, the agent must be paused.
      slow.pause();
      // Meanwhile a legitimate client gets a whole turn.
      const legit = connectBridge(bridge.url, bridge.token, ORIGIN);
      const legitSession = await legit.start();
      assert.equal(await legit.prompt(legitSession, 'while another client stalls'), 'end_turn');
      // The SDK's WebSocket session closes it with 1008 (the close event itself waits for a client
      // that reads nothing, so the bridge's warning is what to wait for).
      await until(
        () => bridge.log.some((l) => /output stalled/.test(l)),
        'the stalled client is disconnected (1008)',
      );
      await until(
        () => bridge.agentPids().length === 1,
        () =>
          `the stalled client’s agent is ended (agents ${bridge.agentPids().length}; bridge log: ${bridge.log.slice(-6).join(' | ')})`,
      );
      const grownMiB = (peakRssKiB(bridge.pid) - rssBefore) / 1024;
      report({
        category: 'figure',
        n: Math.round(peakRssKiB(bridge.pid) / 1024),
        name: 'bridge peak RSS with a stalled client flooding',
        unit: 'MiB',
      });
      assert.ok(
        grownMiB < 150,
        `bridge memory bounded while a client stalls (grew ${grownMiB.toFixed(0)} MiB)`,
      );
      assert.equal(await legit.prompt(legitSession, 'after the stall'), 'end_turn');
      legit.close();
      slow.terminate();
      report({ category: 'attacks', n: 1, name: 'slow client (output stall)' });
    } finally {
      await bridge.stop();
    }
  });

  test('clients without an Origin header (non-browser tools) are refused by default, before spawning', async () => {
    const bridge = await startBridgeProcess({ allowOrigin: [ORIGIN] });
    try {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(bridge.url, bridgeProtocols(bridge.token));
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => resolve(101));
        ws.once('error', () => {});
      });
      assert.equal(status, 403);
      assert.equal(bridge.spawnedCount(), 0);
      report({ category: 'attacks', n: 1, name: 'missing Origin' });
    } finally {
      await bridge.stop();
    }
  });

  test('a non-loopback bind without --allow-non-loopback is refused', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.1']) {
      await assert.rejects(
        startBridgeProcess({ bridgeArgs: ['--host', host] }),
        /not a loopback address/,
        host,
      );
    }
    report({ category: 'attacks', n: 3, name: 'non-loopback bind' });
  });
});
