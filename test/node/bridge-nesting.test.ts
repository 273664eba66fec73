// The bridge forwards what the agent writes, however deeply nested, unless it cannot be serialized
// again for the socket (nesting that overflows JSON.stringify's stack): that one message is dropped
// and logged, and the connection goes on (agent/test/nested-agent.mjs).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { WebSocket } from 'ws';
import { nestsDeeperThan } from '../../bridge/connector.ts';
import { bridgeProtocols } from '../../bridge/protocol.ts';
import { type BridgeProcess, ROOT, startBridgeProcess } from '../support/bridge-process.mjs';
import { pollUntil } from '../support/poll.ts';

const ORIGIN = 'http://localhost:5173';
let bridge: BridgeProcess;
before(async () => {
  bridge = await startBridgeProcess({
    allowOrigin: [ORIGIN],
    agentCommand: [process.execPath, join(ROOT, 'agent/test/nested-agent.mjs')],
  });
});
after(async () => {
  await bridge.stop();
});

test('a message too deeply nested to serialize is dropped and logged; deep ones and the rest go through', async () => {
  const socket = new WebSocket(bridge.url, bridgeProtocols(bridge.token), { headers: { Origin: ORIGIN } });
  const received: Record<string, unknown>[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
  );
  const texts = () =>
    received.flatMap((m) => {
      const update = (m.params as { update?: { content?: { text?: string } } } | undefined)?.update;
      return update?.content?.text === undefined ? [] : [update.content.text];
    });
  await pollUntil(() => texts().includes('after'), 'the update after the deep ones', 20_000);
  assert.deepEqual(texts(), ['deep', 'after']);
  const deep = received.find((m) => JSON.stringify(m).includes('"text":"deep"')) as {
    params: { update: { _meta: { deep: unknown } } };
  };
  assert.equal(JSON.stringify(deep.params.update._meta.deep), `${'['.repeat(300)}${']'.repeat(300)}`);
  assert.ok(
    bridge.log.some((l) => l.includes('dropped an agent message that cannot be serialized')),
    bridge.log.join('\n'),
  );
  assert.equal(socket.readyState, WebSocket.OPEN, 'the connection goes on');
  socket.close();
});

test('nestsDeeperThan counts levels of objects and arrays, not strings', () => {
  assert.equal(nestsDeeperThan({ a: 'x'.repeat(1000) }, 1), false);
  assert.equal(nestsDeeperThan([[]], 2), false);
  assert.equal(nestsDeeperThan([[[]]], 2), true);
  assert.equal(nestsDeeperThan({ a: [1, { b: 'x' }] }, 3), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: { c: null } }] }, 3), true);
});
