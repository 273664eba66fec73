import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agent, client, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';

test("the SDK's agent() and client() talk over an in-memory connection", async () => {
  const seen: string[] = [];
  const app = agent({ name: 'plumbing-agent' })
    .onRequest(methods.agent.initialize, ({ params }) => ({
      protocolVersion: params.protocolVersion,
      agentCapabilities: {},
    }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: 's1' }))
    .onRequest(methods.agent.session.prompt, async ({ params, client: c }) => {
      await c.notify(methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello' } },
      });
      return { stopReason: 'end_turn' };
    });
  const peer = client({ name: 'plumbing-client' }).onNotification(
    methods.client.session.update,
    ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') {
        seen.push(params.update.content.text);
      }
    },
  );
  const c = peer.connect(app);
  const r = await c.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  assert.equal(r.protocolVersion, PROTOCOL_VERSION);
  const { sessionId } = await c.agent.request(methods.agent.session.new, { cwd: '/tmp', mcpServers: [] });
  const { stopReason } = await c.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: 'hi' }],
  });
  assert.equal(stopReason, 'end_turn');
  assert.deepEqual(seen, ['hello']);
  c.close();
});
