// Attacks on the bridge that a browser page cannot mount: a slow client that stops reading (output
// stall), clients without an Origin, a non-loopback bind, a flood of sockets that never upgrade
// (half-open and slow-drip) from another local user, and a stream of wrong tokens. Each must be
// refused or bounded while the bridge keeps serving a legitimate client. (Browser-mounted attacks:
// test/browser/reliability/attacks.test.ts.)
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { HANDSHAKE_DEADLINE_MS } from '../../bridge/admission.ts';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { connectBridge } from '../support/acp-harness.ts';
import { procStatusKiB, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil as until } from '../support/poll.ts';
import { report } from '../support/summary.ts';
import { upgradeStatus } from '../support/upgrade-status.ts';

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

  test('1,100 half-open and slow-drip sockets at a limit of 256 descriptors do not keep the real client out', async () => {
    const bridge = await startBridgeProcess({ allowOrigin: [ORIGIN], fdLimit: 256 });
    const flood: { socket: Socket; opened: number; closedAfter?: number; drip?: NodeJS.Timeout }[] = [];
    try {
      // Another local user's sockets, from ten loopback addresses (the per-address bound is not
      // the only one): 1,000 that connect and send nothing, 100 that send a header byte every 100 ms.
      for (let i = 0; i < 1100; i++) {
        const socket = connect({
          host: '127.0.0.1',
          port: bridge.port,
          localAddress: `127.0.0.${2 + (i % 10)}`,
        });
        const entry: (typeof flood)[number] = { socket, opened: Date.now() };
        socket.on('error', () => {});
        socket.once('close', () => {
          entry.closedAfter = Date.now() - entry.opened;
          clearInterval(entry.drip);
        });
        if (i % 11 === 0) {
          socket.once('connect', () => {
            socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nX-Slow: `);
            entry.drip = setInterval(() => socket.write('x'), 100);
          });
        }
        flood.push(entry);
      }
      const settled = () =>
        flood.filter((f) => f.closedAfter !== undefined || f.socket.readyState === 'open');
      await until(
        () => settled().length === flood.length,
        () => `the flood connected (${settled().length})`,
      );
      // The real client, while what is left of the flood is still open.
      const legit = connectBridge(bridge.url, bridge.token, ORIGIN);
      const session = await legit.start();
      assert.equal(await legit.prompt(session, 'through the flood'), 'end_turn');
      assert.ok(
        flood.some((f) => f.closedAfter === undefined),
        'some of the flood was still open when the client got its turn',
      );
      legit.close();
      // The bridge closes every flood socket itself, at the upgrade deadline at the latest.
      await until(
        () => flood.every((f) => f.closedAfter !== undefined),
        () => `every flood socket closed (${flood.filter((f) => f.closedAfter === undefined).length} open)`,
        HANDSHAKE_DEADLINE_MS + 10_000,
      );
      const longest = Math.max(...flood.map((f) => f.closedAfter!));
      report({
        category: 'figure',
        n: longest,
        name: 'longest life of a socket that never upgraded',
        unit: 'ms',
      });
      report({ category: 'attacks', n: 2, name: 'half-open and slow-drip socket flood' });
    } finally {
      for (const f of flood) {
        clearInterval(f.drip);
        f.socket.destroy();
      }
      await bridge.stop();
    }
  });

  test('an attacker sending wrong tokens never locks out the user with the right one', async () => {
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      bridgeArgs: ['--max-token-failures', '3'],
    });
    const statuses: number[] = [];
    let stop = false;
    // Four attackers on the same loopback address as the user, each guessing as fast as it is answered.
    const attackers = [0, 1, 2, 3].map(async (a) => {
      for (let i = 0; !stop && i < 2000; i++) {
        const guess = `guess-${a}-${i}-${'a'.repeat(40)}`;
        statuses.push((await upgradeStatus(bridge.url, bridgeProtocols(guess), { Origin: ORIGIN })).status);
      }
    });
    try {
      await until(() => statuses.includes(429), 'the attackers are over their limit');
      const user = connectBridge(bridge.url, bridge.token, ORIGIN);
      const session = await user.start();
      assert.equal(await user.prompt(session, 'while someone guesses'), 'end_turn');
      user.close();
      const during = statuses.length;
      stop = true;
      await Promise.all(attackers);
      assert.ok(during > 3, `the attack went on while the user worked (${during} guesses)`);
      assert.deepEqual(
        [...new Set(statuses)].sort(),
        [401, 429],
        'every guess was refused: 401, then 429 once over the limit',
      );
      assert.equal(bridge.spawnedCount(), 1, 'only the user’s agent');
      report({ category: 'attacks', n: 1, name: 'wrong-token lockout of the user' });
    } finally {
      stop = true;
      await Promise.allSettled(attackers);
      await bridge.stop();
    }
  });
});
