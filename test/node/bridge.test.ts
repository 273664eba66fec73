// The real bridge (bridge/cli.ts) on port 0 with the real reference agent, driven through real
// WebSocket clients.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { AGENT_EXITED_METHOD, bridgeProtocols, CLOSE_AGENT_EXITED } from '../../bridge/protocol.ts';
import { connectBridge } from '../support/acp-harness.ts';
import { type BridgeProcess, processAlive, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';
import { upgradeStatus } from '../support/upgrade-status.ts';

const ORIGIN = 'http://localhost:5173';

const until = (check: () => boolean, what: string) => pollUntil(check, what, 10_000);

describe('silo-bridge with the reference agent', { timeout: 120000 }, () => {
  let bridge: BridgeProcess;
  before(async () => {
    bridge = await startBridgeProcess({ allowOrigin: [ORIGIN] });
  });
  after(async () => {
    const exit = await bridge.stop();
    assert.equal(exit.code, 0, `bridge exits cleanly on SIGTERM: ${bridge.log.join('\n')}`);
  });

  test('prints a pasteable connection string and a machine-readable line', () => {
    assert.match(bridge.url, /^ws:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(bridge.token.length >= 32, 'token has at least 128 bits');
    assert.deepEqual(bridge.origins, [ORIGIN]);
    assert.equal(bridge.connection, `${bridge.url}/#token=${bridge.token}`);
  });

  test('a full turn works through a real WebSocket', async () => {
    const h = connectBridge(bridge.url, bridge.token, ORIGIN);
    const sessionId = await h.start();
    const stop = await h.prompt(sessionId, 'hello bridge');
    assert.equal(stop, 'end_turn');
    assert.match(h.text(sessionId), /\*\*Echo:\*\* hello bridge/);
    assert.equal(h.socket.protocol, 'acp', 'the bridge selects the acp subprotocol, never the token');
    assert.ok(!bridge.log.some((l) => l.includes('hello bridge')), 'message bodies are not logged');
    h.close();
    await h.socketClosed;
  });

  test('a wrong Origin, a foreign Host, a missing or a wrong token are refused before any process is spawned', async () => {
    const spawnedBefore = bridge.spawnedCount();
    const pidsBefore = bridge.agentPids().length;
    const good = { Origin: ORIGIN };
    const cases: [string, string[], Record<string, string>, number, RegExp][] = [
      ['wrong origin', bridgeProtocols(bridge.token), { Origin: 'http://evil.example' }, 403, /Origin/],
      ['suffix origin', bridgeProtocols(bridge.token), { Origin: `${ORIGIN}.evil.example` }, 403, /Origin/],
      [
        'origin on another port',
        bridgeProtocols(bridge.token),
        { Origin: 'http://localhost:5174' },
        403,
        /Origin/,
      ],
      ['missing origin', bridgeProtocols(bridge.token), {}, 403, /Origin/],
      [
        'foreign host',
        bridgeProtocols(bridge.token),
        { ...good, Host: `evil.example:${bridge.port}` },
        403,
        /Host/,
      ],
      [
        'loopback host, wrong port',
        bridgeProtocols(bridge.token),
        { ...good, Host: 'localhost:1' },
        403,
        /Host/,
      ],
      ['missing token', ['acp'], good, 401, /missing token/],
      ['wrong token', bridgeProtocols(`${bridge.token.slice(0, -1)}x`), good, 401, /wrong token/],
      ['empty token', ['acp', 'silo-token.'], good, 401, /token/],
    ];
    for (const [name, protocols, headers, status, reason] of cases) {
      const r = await upgradeStatus(bridge.url, protocols, headers);
      assert.equal(r.status, status, `${name}: status`);
      assert.match(r.body, reason, `${name}: reason`);
    }
    assert.equal(bridge.spawnedCount(), spawnedBefore, 'no agent was spawned for a refused upgrade');
    // An agent of an earlier test may still be exiting, so the count can only have gone down.
    assert.ok(bridge.agentPids().length <= pidsBefore, 'no agent process started for a refused upgrade');
    assert.ok(!bridge.log.some((l) => l.includes(bridge.token)), 'the token never appears in the log');
  });

  test('closing the socket ends the agent', async () => {
    const h = connectBridge(bridge.url, bridge.token, ORIGIN);
    const sessionId = await h.start();
    const pids = bridge.agentPids();
    assert.equal(pids.length, 1, 'one agent for one connection');
    // A slow stream keeps the agent busy while the socket goes away.
    const turn = h.prompt(sessionId, '/scenario slow 1000 20').catch((e: Error) => e);
    await h.until(
      () => h.updates(sessionId).some((u) => u.sessionUpdate === 'agent_message_chunk'),
      'first chunk',
    );
    h.socket.close();
    assert.ok((await turn) instanceof Error, 'the pending prompt rejects');
    await until(() => !processAlive(pids[0]!), `agent ${pids[0]} to end`);
    assert.deepEqual(bridge.agentPids(), []);
  });

  test('an agent crash reaches the client with its exit code', async () => {
    const h = connectBridge(bridge.url, bridge.token, ORIGIN);
    const sessionId = await h.start();
    const turn = h.prompt(sessionId, '/scenario crash').catch((e: Error) => e);
    const closed = await h.socketClosed;
    assert.equal(closed.code, CLOSE_AGENT_EXITED);
    // The close reason carries the agent's last meaningful stderr line, not the Node warning after it.
    assert.equal(
      closed.reason,
      'agent exited with code 3: reference-agent: crashed on purpose (/scenario crash)',
    );
    const exit = h.raw.find((m) => m.method === AGENT_EXITED_METHOD);
    assert.deepEqual(exit?.params, {
      code: 3,
      signal: null,
      stderr: 'reference-agent: crashed on purpose (/scenario crash)',
    });
    assert.ok((await turn) instanceof Error, 'the pending prompt rejects');
    assert.ok(
      h.updates(sessionId).some((u) => u.sessionUpdate === 'tool_call'),
      'updates sent before the crash were delivered',
    );
  });

  test('an oversized frame is refused without harming other connections', async () => {
    const other = connectBridge(bridge.url, bridge.token, ORIGIN);
    const otherSession = await other.start();
    const big = connectBridge(bridge.url, bridge.token, ORIGIN);
    const bigSession = await big.start();
    big.socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 99,
        method: 'session/prompt',
        params: { sessionId: bigSession, prompt: [{ type: 'text', text: 'x'.repeat(17 * 1024 * 1024) }] },
      }),
    );
    const closed = await big.socketClosed;
    assert.equal(closed.code, 1009, 'message too big');
    assert.equal(await other.prompt(otherSession, 'still fine?'), 'end_turn');
    assert.match(other.text(otherSession), /still fine\?/);
    other.close();
    await other.socketClosed;
  });

  test('two concurrent connections get two independent agents', async () => {
    const a = connectBridge(bridge.url, bridge.token, ORIGIN);
    const b = connectBridge(bridge.url, bridge.token, ORIGIN);
    const [sa, sb] = await Promise.all([a.start(), b.start()]);
    assert.equal(bridge.agentPids().length, 2, 'two agent processes');
    const [ra, rb] = await Promise.all([a.prompt(sa, 'from A'), b.prompt(sb, 'from B')]);
    assert.deepEqual([ra, rb], ['end_turn', 'end_turn']);
    assert.match(a.text(sa), /from A/);
    assert.doesNotMatch(a.text(), /from B/, 'A sees nothing of B');
    assert.match(b.text(sb), /from B/);
    assert.doesNotMatch(b.text(), /from A/, 'B sees nothing of A');
    // Ending A's agent leaves B working.
    const exited = a.socketClosed;
    a.close();
    await exited;
    assert.equal(await b.prompt(sb, 'B again'), 'end_turn');
    b.close();
    await b.socketClosed;
    await until(() => bridge.agentPids().length === 0, 'both agents to end');
  });

  test('an agent line over the limit ends that agent and tells the client why', async () => {
    const h = connectBridge(bridge.url, bridge.token, ORIGIN);
    const sessionId = await h.start();
    const turn = h.prompt(sessionId, '/scenario huge-line').catch((e: Error) => e);
    const closed = await h.socketClosed;
    assert.equal(closed.code, 4001);
    assert.match(closed.reason, /agent message over/);
    const exit = h.raw.find((m) => m.method === AGENT_EXITED_METHOD);
    assert.match(String(exit?.params?.reason), /over \d+ bytes/);
    assert.ok((await turn) instanceof Error);
  });
});

describe('silo-bridge limits and shutdown', { timeout: 120000 }, () => {
  test('wrong tokens over --max-token-failures get 429; the right token still gets in', async () => {
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      bridgeArgs: ['--max-token-failures', '3'],
    });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await upgradeStatus(bridge.url, bridgeProtocols('nope'.repeat(10)), { Origin: ORIGIN });
        assert.equal(r.status, 401);
      }
      const over = await upgradeStatus(bridge.url, bridgeProtocols('nope'.repeat(10)), { Origin: ORIGIN });
      assert.equal(over.status, 429, 'a wrong token over the limit');
      const right = await upgradeStatus(bridge.url, bridgeProtocols(bridge.token), { Origin: ORIGIN });
      assert.equal(right.status, 101, 'the right token is never locked out');
      assert.equal(bridge.spawnedCount(), 1);
    } finally {
      await bridge.stop();
    }
  });

  test('a client that opens --max-connections sockets at once gets every one (none pushed out unread)', async () => {
    // The bridge accepts such a burst before it reads any request; the bound on sockets not yet
    // upgraded (bridge/admission.ts) must not cut it down.
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      agentCommand: ['cat'],
      bridgeArgs: ['--max-connections', '24'],
    });
    const sockets: WebSocket[] = [];
    try {
      const outcomes = await Promise.all(
        Array.from(
          { length: 24 },
          () =>
            new Promise<string>((resolve) => {
              const ws = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { origin: ORIGIN });
              sockets.push(ws);
              ws.once('open', () => resolve('open'));
              ws.once('error', (error) => resolve(error.message));
            }),
        ),
      );
      assert.deepEqual(outcomes, Array(24).fill('open'));
    } finally {
      for (const ws of sockets) ws.terminate();
      await bridge.stop();
    }
  });

  test('connections over --max-connections are refused with 503 before spawning', async () => {
    const bridge = await startBridgeProcess({
      allowOrigin: [ORIGIN],
      bridgeArgs: ['--max-connections', '1'],
    });
    try {
      const a = connectBridge(bridge.url, bridge.token, ORIGIN);
      await a.start();
      const r = await upgradeStatus(bridge.url, bridgeProtocols(bridge.token), { Origin: ORIGIN });
      assert.equal(r.status, 503);
      assert.equal(bridge.spawnedCount(), 1);
      a.close();
      await a.socketClosed;
      await until(() => bridge.agentPids().length === 0, 'the first agent to end');
      const b = connectBridge(bridge.url, bridge.token, ORIGIN);
      await b.start();
      b.close();
      await b.socketClosed;
    } finally {
      await bridge.stop();
    }
  });

  test('SIGTERM ends every agent and leaves nothing running', async () => {
    const bridge = await startBridgeProcess({ allowOrigin: [ORIGIN] });
    const a = connectBridge(bridge.url, bridge.token, ORIGIN);
    const b = connectBridge(bridge.url, bridge.token, ORIGIN);
    const [sa] = await Promise.all([a.start(), b.start()]);
    void a.prompt(sa, '/scenario hang').catch(() => {});
    await a.until(() => a.text(sa).length > 0, 'the hang scenario to start');
    const pids = bridge.agentPids();
    assert.equal(pids.length, 2);
    const exit = await bridge.stop();
    assert.equal(exit.code, 0);
    for (const pid of pids) assert.ok(!processAlive(pid), `agent ${pid} ended`);
    assert.equal((await a.socketClosed).code, 1001);
  });

  test('a non-loopback --host is refused without --allow-non-loopback', async () => {
    await assert.rejects(startBridgeProcess({ bridgeArgs: ['--host', '0.0.0.0'] }), /not a loopback address/);
  });
});
