// Sessions of the reference agent across processes (load, resume, list, close, delete) and the
// flags that switch optional behaviour off.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { FULL_CAPABILITIES, spawnAgent } from '../support/acp-harness.ts';

describe('reference agent sessions', { timeout: 120000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'silo-agent-sessions-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a new process loads a session: history replayed as updates before the answer', async () => {
    const first = spawnAgent([], { sessionsDir: dir });
    const sessionId = await first.start('/work/a');
    await first.prompt(sessionId, 'first question');
    await first.prompt(sessionId, '/scenario tools');
    const live = first.updates(sessionId).filter((u) => u.sessionUpdate !== 'available_commands_update');
    await first.stop();

    const second = spawnAgent([], { sessionsDir: dir });
    const init = await second.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: FULL_CAPABILITIES,
    });
    assert.equal(init.agentCapabilities?.loadSession, true);
    const loaded = await second.connection.agent.request('session/load', {
      sessionId,
      cwd: '/work/a',
      mcpServers: [],
    });
    const replayed = second.updates(sessionId);
    assert.equal(replayed[0]!.sessionUpdate, 'user_message_chunk');
    assert.deepEqual(replayed[0]!.content, { type: 'text', text: 'first question' });
    assert.deepEqual(
      replayed.filter((u) => u.sessionUpdate !== 'user_message_chunk'),
      live,
      'the replay repeats every agent update of the live turns, same ids',
    );
    assert.equal(loaded.modes?.currentModeId, 'ask');
    assert.equal(await second.prompt(sessionId, 'continue'), 'end_turn');
    await second.stop();
  });

  test('a new process resumes a session without replay, and can prompt it', async () => {
    const first = spawnAgent([], { sessionsDir: dir });
    const sessionId = await first.start('/work/b');
    await first.connection.agent.request('session/set_mode', { sessionId, modeId: 'code' });
    await first.prompt(sessionId, 'hello');
    await first.stop();

    const second = spawnAgent([], { sessionsDir: dir });
    await second.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: FULL_CAPABILITIES,
    });
    const resumed = await second.connection.agent.request('session/resume', { sessionId, cwd: '/work/b' });
    assert.equal(resumed.modes?.currentModeId, 'code', 'config survives the process');
    assert.equal(second.updates(sessionId).length, 0, 'resume replays nothing');
    assert.equal(await second.prompt(sessionId, 'again'), 'end_turn');
    await second.stop();
  });

  test('list with cwd filter and pagination; close; delete; unknown sessions', async () => {
    const h = spawnAgent(['--list-page-size', '2'], { sessionsDir: dir });
    const a = await h.start('/work/list');
    const { sessionId: b } = await h.connection.agent.request('session/new', {
      cwd: '/work/list',
      mcpServers: [],
    });
    const { sessionId: c } = await h.connection.agent.request('session/new', {
      cwd: '/work/list',
      mcpServers: [],
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await h.connection.agent.request('session/list', {
        cwd: '/work/list',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, 2);
    assert.deepEqual(seen.sort(), [a, b, c].sort());
    await assert.rejects(h.connection.agent.request('session/list', { cursor: 'bm9wZQ' }), /invalid cursor/);

    await h.connection.agent.request('session/close', { sessionId: a });
    await assert.rejects(h.prompt(a, 'closed?'), /Resource not found/);
    await h.connection.agent.request('session/delete', { sessionId: b });
    const after = await h.connection.agent.request('session/list', { cwd: '/work/list' });
    assert.ok(!after.sessions.some((s) => s.sessionId === b), 'deleted sessions are not listed');
    await h.connection.agent.request('session/delete', { sessionId: 'ses-never-existed' });
    await assert.rejects(
      h.connection.agent.request('session/load', { sessionId: b, cwd: '/work/list', mcpServers: [] }),
      (e: { code?: number }) => e.code === -32002,
    );
    await h.stop();
  });

  test('--no-load --no-resume --no-list --no-close --no-delete: not advertised, not served', async () => {
    const h = spawnAgent(['--no-load', '--no-resume', '--no-list', '--no-close', '--no-delete'], {
      sessionsDir: dir,
    });
    const init = await h.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: FULL_CAPABILITIES,
    });
    assert.equal(init.agentCapabilities?.loadSession, false);
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, {});
    for (const method of ['session/load', 'session/resume', 'session/list']) {
      await assert.rejects(
        h.connection.agent.request(method, { sessionId: 'x', cwd: '/', mcpServers: [] }),
        (e: { code?: number }) => e.code === -32601,
        method,
      );
    }
    await h.stop();
  });

  test('--no-message-id: no chunk carries a messageId', async () => {
    const h = spawnAgent(['--no-message-id'], { sessionsDir: dir });
    const sessionId = await h.start();
    await h.prompt(sessionId, '/scenario thoughts');
    await h.prompt(sessionId, '/scenario message-ids');
    const chunks = h.updates(sessionId).filter((u) => u.sessionUpdate.endsWith('_chunk'));
    assert.ok(chunks.length >= 9);
    assert.ok(chunks.every((u) => !('messageId' in u)));
    await h.stop();
  });

  test('--new-ids-on-load: the replay uses different messageIds', async () => {
    const first = spawnAgent([], { sessionsDir: dir });
    const sessionId = await first.start();
    await first.prompt(sessionId, '/scenario thoughts');
    const liveIds = new Set(
      first
        .updates(sessionId)
        .map((u) => u.messageId)
        .filter(Boolean),
    );
    await first.stop();
    const second = spawnAgent(['--new-ids-on-load'], { sessionsDir: dir });
    await second.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: FULL_CAPABILITIES,
    });
    await second.connection.agent.request('session/load', {
      sessionId,
      cwd: '/tmp/silo-test',
      mcpServers: [],
    });
    const replayIds = second
      .updates(sessionId)
      .map((u) => u.messageId)
      .filter(Boolean);
    assert.ok(replayIds.length > 0);
    assert.ok(replayIds.every((id) => !liveIds.has(id)));
    await second.stop();
  });

  test('--auth-required: session/new fails with -32000 and authMethods until authenticate', async () => {
    const h = spawnAgent(['--auth-required'], { sessionsDir: dir });
    const init = await h.connection.agent.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: FULL_CAPABILITIES,
    });
    assert.deepEqual(
      init.authMethods?.map((m) => m.id),
      ['reference-login', 'reference-key', 'reference-terminal', 'reference-device', 'reference-oauth'],
    );
    await assert.rejects(
      h.connection.agent.request('session/new', { cwd: '/tmp', mcpServers: [] }),
      (e: { code?: number }) => e.code === -32000,
    );
    await h.connection.agent.request('authenticate', { methodId: 'reference-login' });
    const { sessionId } = await h.connection.agent.request('session/new', { cwd: '/tmp', mcpServers: [] });
    assert.ok(sessionId);
    await h.stop();
  });

  test('--sent-log numbers every scenario update and logs exactly the ones written, per session', async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'silo-agent-sent-'));
    try {
      const h = spawnAgent(['--sent-log'], { sessionsDir: logDir });
      const sessionId = await h.start('/work/sent');
      assert.equal(await h.prompt(sessionId, '/scenario slow 12 1'), 'end_turn');
      const numbers = h
        .updates(sessionId)
        .map((u) => (u._meta as Record<string, unknown> | undefined)?.['silo/sent'])
        .filter((n) => n !== undefined);
      await h.stop();
      // slow 12: twelve numbered chunks, each its own update; the commands announce is not numbered.
      assert.ok(numbers.length >= 12, `numbered updates: ${numbers.length}`);
      assert.equal(new Set(numbers).size, numbers.length, 'each number once');
      const logged = readFileSync(join(logDir, 'sent.log'), 'utf8').trim().split('\n');
      assert.deepEqual(
        logged,
        numbers.map((n) => `${sessionId} ${n}`),
        'the log lists what arrived, in order',
      );
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
  });

  test('--protocol-version 2 answers initialize with version 2', async () => {
    const h = spawnAgent(['--protocol-version', '2'], { sessionsDir: dir });
    const init = await h.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    assert.equal(init.protocolVersion, 2);
    await h.stop();
  });

  test('--log-before-init sends a notification before the initialize response', async () => {
    const h = spawnAgent(['--log-before-init'], { sessionsDir: dir });
    await h.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    assert.equal(h.raw[0]!.method, '_silo/agent_log');
    assert.equal(h.raw[1]!.id, 0);
    await h.stop();
  });
});
