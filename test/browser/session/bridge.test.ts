// The real bridge, started by the test runner's plugin, reached by a page WebSocket carrying the
// token as a subprotocol.
import { expect } from 'chai';
import { AGENT_EXITED_METHOD, bridgeProtocols, CLOSE_AGENT_EXITED } from '../../../bridge/protocol.ts';
import {
  bridgeAgentCount,
  bridgeSpawnedCount,
  killBridgeAgents,
  restartBridge,
  startBridge,
  stopBridge,
  type TestBridge,
} from '../../support/bridge.ts';

/** Resolves with the next message parsed as JSON. */
function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    socket.addEventListener('message', (e) => resolve(JSON.parse(String(e.data))), { once: true });
  });
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('socket error before open')), { once: true });
  });
}

function closed(socket: WebSocket): Promise<CloseEvent> {
  return new Promise((resolve) => socket.addEventListener('close', resolve, { once: true }));
}

describe('silo-bridge from a page', () => {
  let bridge: TestBridge;
  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });

  it('allows this page’s origin', () => {
    expect(bridge.origins).to.include(location.origin);
  });

  it('accepts the token subprotocol and answers initialize', async () => {
    const socket = new WebSocket(bridge.url, bridgeProtocols(bridge.token));
    await opened(socket);
    expect(socket.protocol).to.equal('acp');
    const reply = nextMessage(socket);
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
    );
    const message = await reply;
    expect(message.id).to.equal(0);
    expect((message.result as { agentInfo: { name: string } }).agentInfo.name).to.equal(
      'silo-reference-agent',
    );
    const done = closed(socket);
    socket.close();
    await done;
  });

  it('refuses a wrong token before spawning an agent', async () => {
    const spawned = await bridgeSpawnedCount(bridge.id);
    const socket = new WebSocket(bridge.url, bridgeProtocols(`${bridge.token}x`));
    const event = await closed(socket);
    expect(event.wasClean).to.equal(false);
    expect(event.code).to.equal(1006);
    expect(await bridgeSpawnedCount(bridge.id)).to.equal(spawned);
  });

  it('tells the page the agent’s exit when it is killed', async () => {
    const socket = new WebSocket(bridge.url, bridgeProtocols(bridge.token));
    await opened(socket);
    const reply = nextMessage(socket);
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
    );
    await reply;
    expect(await bridgeAgentCount(bridge.id)).to.equal(1);
    const messages: Record<string, unknown>[] = [];
    socket.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))));
    const done = closed(socket);
    await killBridgeAgents(bridge.id);
    const event = await done;
    expect(event.code).to.equal(CLOSE_AGENT_EXITED);
    expect(event.reason).to.equal('agent killed by SIGKILL');
    expect(messages.at(-1)).to.deep.equal({
      jsonrpc: '2.0',
      method: AGENT_EXITED_METHOD,
      params: { code: null, signal: 'SIGKILL' },
    });
  });
});

describe('silo-bridge restarts from the test plugin', () => {
  it('comes back on the same port with the same token after a stop', async () => {
    const bridge = await startBridge();
    await stopBridge(bridge.id, true);
    const again = await restartBridge(bridge.id);
    expect([again.url, again.token]).to.deep.equal([bridge.url, bridge.token]);
    const socket = new WebSocket(again.url, bridgeProtocols(again.token));
    await opened(socket);
    const done = closed(socket);
    socket.close();
    await done;
    await stopBridge(bridge.id);
  });
});
