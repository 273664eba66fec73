// Ids the reference agent gives, as real agents do: JSON-RPC request ids that start at 0 in every
// process, tool-call ids unique within a session (unless --reuse-tool-call-ids), and the prompt echo
// (--echo-prompt).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { FULL_CAPABILITIES, type StdioHarness, spawnAgent } from '../support/acp-harness.ts';

describe('reference agent ids', { timeout: 120000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'silo-agent-ids-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Opens an existing session in a new process with session/resume. */
  async function resumed(h: StdioHarness, sessionId: string): Promise<void> {
    await h.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: FULL_CAPABILITIES,
    });
    await h.connection.agent.request('session/resume', { sessionId, cwd: '/work/ids', mcpServers: [] });
  }
  const requestIds = (h: StdioHarness, method: string) =>
    h.raw.filter((m) => m.method === method).map((m) => m.id);
  const toolCallIds = (h: StdioHarness, sessionId: string) =>
    h
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call')
      .map((u) => u.toolCallId);

  test('JSON-RPC request ids start at 0 in every process, so two processes give one session the same ids', async () => {
    const first = spawnAgent([], { sessionsDir: dir });
    const sessionId = await first.start('/work/ids');
    await first.prompt(sessionId, '/scenario permission a.txt');
    await first.prompt(sessionId, '/scenario elicit-form');
    await first.stop();
    const second = spawnAgent([], { sessionsDir: dir });
    await resumed(second, sessionId);
    await second.prompt(sessionId, '/scenario permission b.txt');
    await second.prompt(sessionId, '/scenario elicit-form');
    await second.stop();
    assert.deepEqual(requestIds(first, 'session/request_permission'), [0]);
    assert.deepEqual(requestIds(second, 'session/request_permission'), [0]);
    assert.deepEqual(requestIds(first, 'elicitation/create'), [1]);
    assert.deepEqual(requestIds(second, 'elicitation/create'), [1]);
    const titles = [first, second].map(
      (h) =>
        (h.raw.find((m) => m.method === 'session/request_permission')!.params!.toolCall as { title: string })
          .title,
    );
    assert.deepEqual(titles, ['Write a.txt', 'Write b.txt']);
  });

  test('tool-call ids stay unique within a session when a scenario runs twice, across processes', async () => {
    const first = spawnAgent([], { sessionsDir: dir });
    const sessionId = await first.start('/work/ids');
    await first.prompt(sessionId, '/scenario tools');
    await first.prompt(sessionId, '/scenario tools');
    await first.prompt(sessionId, '/scenario permission');
    await first.stop();
    const second = spawnAgent([], { sessionsDir: dir });
    await resumed(second, sessionId);
    await second.prompt(sessionId, '/scenario permission');
    await second.stop();
    assert.deepEqual(toolCallIds(first, sessionId), [
      'call-read',
      'call-new',
      'call-edit',
      'call-check',
      'call-read.2',
      'call-new.2',
      'call-edit.2',
      'call-check.2',
      'call-permission',
    ]);
    assert.deepEqual(toolCallIds(second, sessionId), ['call-permission.2']);
    const asked = second.raw.find((m) => m.method === 'session/request_permission')!.params!.toolCall;
    assert.equal((asked as { toolCallId: string }).toolCallId, 'call-permission.2');
  });

  test('--reuse-tool-call-ids: a scenario run twice reuses its tool-call ids', async () => {
    const h = spawnAgent(['--reuse-tool-call-ids'], { sessionsDir: dir });
    const sessionId = await h.start('/work/ids');
    await h.prompt(sessionId, '/scenario permission');
    await h.prompt(sessionId, '/scenario permission');
    await h.stop();
    assert.deepEqual(toolCallIds(h, sessionId), ['call-permission', 'call-permission']);
  });

  test('--echo-prompt: the prompt comes back as user_message_chunks before the answer', async () => {
    for (const [args, withId] of [
      [['--echo-prompt'], true],
      [['--echo-prompt', '--no-message-id'], false],
      [[], undefined],
    ] as const) {
      const h = spawnAgent([...args], { sessionsDir: dir });
      const sessionId = await h.start('/work/ids');
      await h.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: '/scenario stop end_turn' },
          { type: 'text', text: 'second block' },
        ],
      });
      await h.stop();
      const updates = h.updates(sessionId).filter((u) => u.sessionUpdate !== 'available_commands_update');
      const echoed = updates.filter((u) => u.sessionUpdate === 'user_message_chunk');
      if (withId === undefined) {
        assert.deepEqual(echoed, [], 'no echo without the flag');
        continue;
      }
      assert.deepEqual(
        echoed.map((u) => u.content),
        [
          { type: 'text', text: '/scenario stop end_turn' },
          { type: 'text', text: 'second block' },
        ],
      );
      assert.deepEqual(updates.slice(0, 2), echoed, 'the echo comes first');
      assert.equal(new Set(echoed.map((u) => u.messageId)).size, 1);
      assert.equal(typeof echoed[0]!.messageId === 'string', withId);
    }
  });
});
