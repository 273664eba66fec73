// The replay agent (agent/replay.ts) plays the recorded claude-agent-acp traffic to a live client.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { DEFAULT_FIXTURES_DIR, type RecordedEntry, readRecording } from '../../agent/replay.ts';
import { FULL_CAPABILITIES, type StdioHarness, spawnAgent } from '../support/acp-harness.ts';

const recorded = (name: string) => readRecording(`${DEFAULT_FIXTURES_DIR}/${name}.jsonl`);
const agentSide = (entries: RecordedEntry[]) =>
  entries.filter((e) => e.dir === 'agent->client').map((e) => e.msg);
const SESSION = 'cd3faa81-dc65-47ef-b9fd-9b2f4f396e21';

async function initialize(h: StdioHarness) {
  return h.connection.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: FULL_CAPABILITIES,
  });
}

describe('replay agent', { timeout: 60000 }, () => {
  test('main: answers every request with the recorded response and sends the recorded traffic in order', async () => {
    const entries = recorded('main');
    const h = spawnAgent(['--files', 'main'], { replay: true });
    const init = await initialize(h);
    assert.equal(init.agentInfo?.name, '@agentclientprotocol/claude-agent-acp');
    const { sessionId } = await h.connection.agent.request('session/new', {
      cwd: '/home/dev/project',
      mcpServers: [],
    });
    assert.equal(sessionId, SESSION);
    await h.connection.agent.request('session/set_mode', { sessionId, modeId: 'acceptEdits' });
    assert.equal(await h.prompt(sessionId, 'plan and write a file'), 'end_turn');
    assert.equal(await h.prompt(sessionId, 'run a command'), 'end_turn');

    // Prompt 3 is a slow stream the recorded client cancelled after three updates.
    const before = h.updates().length;
    const slow = h.prompt(sessionId, 'stream slowly');
    await h.until(() => h.updates().length === before + 3, 'the updates recorded before the cancel');
    await h.connection.agent.notify('session/cancel', { sessionId });
    assert.equal(await slow, 'cancelled');

    assert.equal(await h.prompt(sessionId, 'another command'), 'end_turn');

    // Prompt 5: cancelled while its permission request is open.
    h.onPermission = async () => {
      await h.connection.agent.notify('session/cancel', { sessionId });
      return { outcome: { outcome: 'cancelled' } };
    };
    assert.equal(await h.prompt(sessionId, 'cancel during permission'), 'cancelled');
    assert.deepEqual(h.raw, agentSide(entries), 'the client received exactly the recorded agent messages');
    await h.stop();
  });

  test("load: picked from several recordings by the requests; history replayed under the client's session id", async () => {
    const h = spawnAgent([], { replay: true });
    await initialize(h);
    const list = await h.connection.agent.request('session/list', {});
    assert.equal(list.sessions[0]?.sessionId, SESSION);
    await h.connection.agent.request('session/load', {
      sessionId: 'my-own-id',
      cwd: '/home/dev/project',
      mcpServers: [],
    });
    const replayed = h.updates();
    const expected = recorded('load').filter(
      (e) => e.seq > 5 && e.seq < 40 && e.msg.method === 'session/update',
    );
    assert.equal(replayed.length, expected.length);
    assert.ok(
      h.raw.filter((m) => m.method === 'session/update').every((m) => m.params?.sessionId === 'my-own-id'),
    );
    assert.equal(await h.prompt('my-own-id', 'one more'), 'end_turn');
    await h.stop();
  });

  test('resume: no replay, then a prompt; an unrecorded request gets an error', async () => {
    const h = spawnAgent([], { replay: true });
    await initialize(h);
    await h.connection.agent.request('session/list', {});
    await h.connection.agent.request('session/resume', { sessionId: SESSION, cwd: '/home/dev/project' });
    assert.equal(h.updates().filter((u) => u.sessionUpdate !== 'available_commands_update').length, 0);
    assert.equal(await h.prompt(SESSION, 'resume me'), 'end_turn');
    await assert.rejects(
      h.connection.agent.request('session/close', { sessionId: SESSION }),
      /replay has no recorded session\/close/,
    );
    await h.stop();
  });
});
