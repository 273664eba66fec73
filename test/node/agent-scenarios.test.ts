// Every scenario of the reference agent, driven over stdio by the SDK client with a raw tap (this is
// also where the SDK's agent() and client() are seen to talk: through Silo's own agent, asserting
// what it sends).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseAgentArgs } from '../../agent/options.ts';
import { USER_NOTE } from '../../agent/scenarios/content.ts';
import { SCENARIOS } from '../../agent/scenarios/index.ts';
import { FORM_SCHEMA, PERMISSION_OPTIONS } from '../../agent/scenarios/interactive.ts';
import { pickScenario } from '../../agent/scenarios.ts';
import { type RawUpdate, type StdioHarness, spawnAgent } from '../support/acp-harness.ts';

const kinds = (updates: RawUpdate[]) => updates.map((u) => u.sessionUpdate);
const chunkTexts = (updates: RawUpdate[], kind = 'agent_message_chunk') =>
  updates.filter((u) => u.sessionUpdate === kind).map((u) => (u.content as { text: string }).text);

describe('reference agent scenarios over stdio', { timeout: 180000 }, () => {
  let dir: string;
  let h: StdioHarness;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'silo-agent-'));
    h = spawnAgent([], { sessionsDir: dir });
    await h.start();
  });
  after(async () => {
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one prompt in a fresh session and returns its stop reason and raw updates of the turn. */
  async function play(text: string): Promise<{ sessionId: string; stop: string; updates: RawUpdate[] }> {
    const sessionId = await newSession();
    const from = h.updates(sessionId).length;
    const stop = await h.prompt(sessionId, text);
    return { sessionId, stop, updates: h.updates(sessionId).slice(from) };
  }
  async function newSession(): Promise<string> {
    const { sessionId } = await h.connection.agent.request('session/new', {
      cwd: '/tmp/silo-test',
      mcpServers: [],
    });
    // session/new is followed by available_commands_update; wait for it so turns start clean.
    await h.until(() => h.updates(sessionId).length > 0, 'available_commands_update after session/new');
    return sessionId;
  }

  test('the registry names each scenario once, and a prompt picks one by name', () => {
    const names = SCENARIOS.map((s) => s.name);
    assert.deepEqual([...new Set(names)], names);
    assert.deepEqual(pickScenario('/scenario flood 200'), { name: 'flood', args: ['200'], text: '' });
    assert.deepEqual(pickScenario('hello'), { name: 'default', args: [], text: 'hello' });
    assert.equal(pickScenario('/scenario').name, 'list');
  });

  test('default: a thought, an echo in markdown, a title and usage', async () => {
    const { stop, updates } = await play('What is Silo?');
    assert.equal(stop, 'end_turn');
    assert.deepEqual(
      [...new Set(kinds(updates))],
      ['session_info_update', 'agent_thought_chunk', 'agent_message_chunk', 'usage_update'],
    );
    assert.match(chunkTexts(updates).join(''), /\*\*Echo:\*\* What is Silo\?/);
    assert.equal(updates[0]!.title, 'What is Silo?');
  });

  test('list: names every scenario', async () => {
    const { updates } = await play('/scenario list');
    const text = chunkTexts(updates).join('');
    for (const s of SCENARIOS) assert.ok(text.includes(`/scenario ${s.name}`), s.name);
  });

  test('markdown: chunks share one messageId; markdown-no-id has none', async () => {
    const withIds = (await play('/scenario markdown')).updates;
    assert.ok(withIds.length > 10);
    assert.equal(new Set(withIds.map((u) => u.messageId)).size, 1);
    assert.equal(typeof withIds[0]!.messageId, 'string');
    assert.match(chunkTexts(withIds).join(''), /```ts[\s\S]*\| column \| value \|/);
    const noIds = (await play('/scenario markdown-no-id')).updates;
    assert.ok(noIds.every((u) => !('messageId' in u)));
    assert.equal(chunkTexts(noIds).join(''), chunkTexts(withIds).join(''));
  });

  test('message-ids: a new id starts a new message, interleaved ids A B A', async () => {
    const { updates } = await play('/scenario message-ids');
    assert.deepEqual(
      updates.map((u) => u.messageId),
      ['msg-first', 'msg-second', 'msg-a', 'msg-b', 'msg-a'],
    );
  });

  test('thoughts: thought chunks interleave with message chunks', async () => {
    const { updates } = await play('/scenario thoughts');
    assert.deepEqual(kinds(updates), [
      'agent_thought_chunk',
      'agent_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
    ]);
  });

  test('user-note: the turn opens with a user message that is not the prompt (a note, or the prompt rewritten)', async () => {
    const note = (await play('/scenario user-note')).updates;
    assert.deepEqual(kinds(note), ['user_message_chunk', 'agent_message_chunk']);
    assert.deepEqual(chunkTexts(note, 'user_message_chunk'), [USER_NOTE]);
    const rewrite = (await play('/scenario user-note rewrite')).updates;
    assert.deepEqual(chunkTexts(rewrite, 'user_message_chunk'), ['/scenario user-note rewrite (rewritten)']);
    assert.deepEqual(chunkTexts(rewrite), ['Noted.']);
  });

  test('tools: pending → completed/failed with content, diffs and locations; plan re-sent whole', async () => {
    const { updates } = await play('/scenario tools');
    const byId = (id: string) => updates.filter((u) => u.toolCallId === id);
    const read = byId('call-read');
    assert.deepEqual(
      read.map((u) => [u.sessionUpdate, u.status]),
      [
        ['tool_call', 'pending'],
        ['tool_call_update', 'in_progress'],
        ['tool_call_update', 'completed'],
      ],
    );
    assert.ok(Array.isArray(read[1]!.locations));
    assert.equal((read[2]!.content as { type: string }[])[0]!.type, 'content');
    const created = byId('call-new').at(-1)!.content as { type: string; oldText: unknown }[];
    assert.equal(created[0]!.type, 'diff');
    assert.equal(created[0]!.oldText, null, 'new file diff');
    const edited = byId('call-edit').at(-1)!.content as { type: string; oldText: unknown }[];
    assert.equal(typeof edited[0]!.oldText, 'string', 'edit diff');
    assert.equal(byId('call-check').at(-1)!.status, 'failed');
    const plans = updates.filter((u) => u.sessionUpdate === 'plan');
    assert.ok(plans.length >= 3);
    assert.ok(
      plans.every((p) => (p.entries as unknown[]).length === 3),
      'every plan is complete',
    );
  });

  test('plan: re-sent whole as entries progress', async () => {
    const { updates } = await play('/scenario plan');
    const plans = updates
      .filter((u) => u.sessionUpdate === 'plan')
      .map((p) => (p.entries as { status: string }[]).map((e) => e.status));
    assert.deepEqual(plans.at(0), ['pending', 'pending', 'pending']);
    assert.deepEqual(plans.at(-1), ['completed', 'completed', 'completed']);
    assert.equal(plans.length, 5);
  });

  test('usage: without cost, then with cost', async () => {
    const usage = (await play('/scenario usage')).updates.filter((u) => u.sessionUpdate === 'usage_update');
    assert.equal(usage.length, 2);
    assert.ok(!('cost' in usage[0]!));
    assert.deepEqual(usage[1]!.cost, { amount: 0.0123, currency: 'USD' });
  });

  test('title: session_info_update with the given title', async () => {
    const { updates } = await play('/scenario title My project');
    assert.equal(updates[0]!.sessionUpdate, 'session_info_update');
    assert.equal(updates[0]!.title, 'My project');
  });

  test('commands: available_commands_update, one command with an input hint', async () => {
    const u = (await play('/scenario commands')).updates.find(
      (x) => x.sessionUpdate === 'available_commands_update',
    )!;
    const cmds = u.availableCommands as { name: string; input?: { hint: string } }[];
    assert.ok(cmds.some((c) => c.input?.hint));
  });

  test('config: the agent changes its mode and model; set_mode and set_config_option answer', async () => {
    const { sessionId, updates } = await play('/scenario config');
    assert.deepEqual(kinds(updates).slice(0, 2), ['current_mode_update', 'config_option_update']);
    assert.equal(updates[0]!.currentModeId, 'architect');
    const r = await h.connection.agent.request('session/set_config_option', {
      sessionId,
      configId: 'model',
      value: 'huge',
    });
    assert.equal(r.configOptions.find((o) => o.id === 'model')?.currentValue, 'huge');
    const b = await h.connection.agent.request('session/set_config_option', {
      sessionId,
      configId: 'thinking',
      type: 'boolean',
      value: true,
    });
    assert.equal(b.configOptions.find((o) => o.id === 'thinking')?.currentValue, true);
    await h.connection.agent.request('session/set_mode', { sessionId, modeId: 'code' });
    await h.until(
      () =>
        h
          .updates(sessionId)
          .some(
            (u) =>
              u.sessionUpdate === 'config_option_update' &&
              JSON.stringify(u).includes('"currentValue":"code"'),
          ),
      'config_option_update after set_mode',
    );
    await assert.rejects(
      h.connection.agent.request('session/set_mode', { sessionId, modeId: 'nope' }),
      /unknown mode/,
    );
  });

  test('notice: three severities, not kept in history', async () => {
    const { updates } = await play('/scenario notice');
    assert.deepEqual(
      updates.filter((u) => u.sessionUpdate === 'notice').map((u) => u.severity),
      ['info', 'warning', 'error'],
    );
  });

  test('compaction: in_progress, summary chunks, completed', async () => {
    const { updates } = await play('/scenario compaction');
    assert.deepEqual(kinds(updates).slice(0, 4), [
      'compaction_update',
      'compaction_summary_chunk',
      'compaction_summary_chunk',
      'compaction_update',
    ]);
    assert.deepEqual([updates[0]!.status, updates[3]!.status], ['in_progress', 'completed']);
  });

  test('permission: every option kind; the answer decides the tool call', async () => {
    let seen: string[] = [];
    h.onPermission = (p) => {
      seen = p.options.map((o) => o.kind);
      return { outcome: { outcome: 'selected', optionId: 'reject-once' } };
    };
    const { stop, updates } = await play('/scenario permission');
    assert.equal(stop, 'end_turn');
    assert.deepEqual(
      seen,
      PERMISSION_OPTIONS.map((o) => o.kind),
    );
    assert.equal(updates.find((u) => u.sessionUpdate === 'tool_call_update')?.status, 'failed');
    assert.match(chunkTexts(updates).join(''), /Permission: reject-once/);
  });

  test('permission: answered cancelled after session/cancel → stopReason cancelled', async () => {
    const sessionId = await newSession();
    let release!: () => void;
    const asked = new Promise<void>((r) => {
      release = r;
    });
    let answer!: (v: { outcome: { outcome: 'cancelled' } }) => void;
    h.onPermission = () =>
      new Promise((resolve) => {
        answer = resolve;
        release();
      });
    const turn = h.prompt(sessionId, '/scenario permission');
    await asked;
    await h.connection.agent.notify('session/cancel', { sessionId });
    answer({ outcome: { outcome: 'cancelled' } });
    assert.equal(await turn, 'cancelled');
  });

  test('permission-twice: two requests open at once', async () => {
    const open: string[] = [];
    let bothOpen!: () => void;
    const both = new Promise<void>((r) => {
      bothOpen = r;
    });
    const answers: (() => void)[] = [];
    h.onPermission = (p) =>
      new Promise((resolve) => {
        open.push(p.toolCall.toolCallId);
        answers.push(() => resolve({ outcome: { outcome: 'selected', optionId: 'allow-once' } }));
        if (open.length === 2) bothOpen();
      });
    const sessionId = await newSession();
    const turn = h.prompt(sessionId, '/scenario permission-twice');
    await both;
    for (const a of answers) a();
    assert.equal(await turn, 'end_turn');
    assert.deepEqual(open.sort(), ['call-permission-1', 'call-permission-2']);
  });

  test('withdraw: the agent withdraws a permission request and a question with $/cancel_request', async () => {
    const withdrawn: string[] = [];
    const until = (kind: string, value: unknown) => (_: unknown, signal: AbortSignal) =>
      new Promise<never>((resolve) => {
        signal.addEventListener('abort', () => {
          withdrawn.push(kind);
          resolve(value as never);
        });
      });
    h.onPermission = until('permission', { outcome: { outcome: 'cancelled' } });
    h.onElicitation = until('question', { action: 'cancel' });
    const { updates } = await play('/scenario withdraw 50');
    assert.deepEqual(withdrawn.sort(), ['permission', 'question']);
    assert.equal(chunkTexts(updates).join(''), 'Withdrawn: permission cancelled, question cancel');
  });

  test('elicit-form: every property type; the agent echoes what it received', async () => {
    let schema: unknown;
    const content = {
      name: 'Grace',
      color: 'blue',
      count: 7,
      ratio: 0.25,
      agree: true,
      tags: ['fast'],
      features: ['lint', 'docs'],
      size: 's',
    };
    h.onElicitation = (p) => {
      schema = (p as { requestedSchema?: unknown }).requestedSchema;
      return { action: 'accept', content };
    };
    const { updates } = await play('/scenario elicit-form');
    const props = (schema as typeof FORM_SCHEMA).properties;
    assert.deepEqual(Object.keys(props).sort(), Object.keys(FORM_SCHEMA.properties).sort());
    assert.deepEqual(
      props.size.oneOf.map((o) => o.const),
      ['s', 'm', 'l'],
    );
    assert.deepEqual(
      (props.features.items as { anyOf: { const: string }[] }).anyOf.map((o) => o.const),
      ['lint', 'test', 'docs'],
    );
    assert.equal(
      chunkTexts(updates).join(''),
      `You answered: ${JSON.stringify({ action: 'accept', content })}`,
    );
  });

  test('elicit-custom: an unknown property type _slider reaches the client', async () => {
    let schema: { properties: Record<string, { type: string }> } | undefined;
    h.onElicitation = (p) => {
      schema = (p as unknown as { requestedSchema: typeof schema }).requestedSchema;
      return { action: 'decline' };
    };
    const { updates } = await play('/scenario elicit-custom');
    assert.equal(schema?.properties.volume?.type, '_slider');
    assert.match(chunkTexts(updates).join(''), /You answered: \{"action":"decline"\}/);
  });

  test('elicit-url: accept, then elicitation/complete; elicit-url-pending never completes', async () => {
    let asked: { mode?: string; elicitationId?: string; url?: string } = {};
    h.onElicitation = (p) => {
      asked = p as typeof asked;
      return { action: 'accept' };
    };
    const before = h.raw.length;
    await play('/scenario elicit-url');
    assert.equal(asked.mode, 'url');
    assert.match(asked.url ?? '', /^https:\/\//);
    const completes = h.raw.slice(before).filter((m) => m.method === 'elicitation/complete');
    assert.deepEqual(
      completes.map((m) => m.params?.elicitationId),
      [asked.elicitationId],
    );
    const mark = h.raw.length;
    const { updates } = await play('/scenario elicit-url-pending');
    assert.equal(h.raw.slice(mark).filter((m) => m.method === 'elicitation/complete').length, 0);
    assert.match(chunkTexts(updates).join(''), /never complete/);
  });

  test('every stopReason: end_turn, max_tokens, max_turn_requests, refusal, and an unknown string', async () => {
    assert.equal((await play('/scenario stop end_turn')).stop, 'end_turn');
    assert.equal((await play('/scenario max-tokens')).stop, 'max_tokens');
    assert.equal((await play('/scenario max-turn-requests')).stop, 'max_turn_requests');
    assert.equal((await play('/scenario refusal')).stop, 'refusal');
    assert.equal((await play('/scenario stop _vendor_stop')).stop, '_vendor_stop');
  });

  test('slow: session/cancel mid-stream ends the turn promptly with cancelled', async () => {
    const sessionId = await newSession();
    const turn = h.prompt(sessionId, '/scenario slow 1000 50');
    await h.until(
      () => h.updates(sessionId).filter((u) => u.sessionUpdate === 'agent_message_chunk').length >= 3,
      'three chunks',
    );
    const cancelledAt = Date.now();
    await h.connection.agent.notify('session/cancel', { sessionId });
    assert.equal(await turn, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 2000, 'cancel is honoured promptly');
    assert.ok(h.updates(sessionId).filter((u) => u.sessionUpdate === 'agent_message_chunk').length < 100);
  });

  test('cancel-error: a cancel makes the prompt fail with an error instead', async () => {
    const sessionId = await newSession();
    const turn = h.prompt(sessionId, '/scenario cancel-error');
    await h.until(
      () => h.updates(sessionId).some((u) => u.sessionUpdate === 'agent_message_chunk'),
      'a chunk',
    );
    await h.connection.agent.notify('session/cancel', { sessionId });
    await assert.rejects(turn, /aborted while streaming/);
  });

  test('unknown: unknown kind, vendor _meta, unknown fields, unknown block, _vendor/ping — in order', async () => {
    const before = h.raw.length;
    const { updates } = await play('/scenario unknown');
    assert.deepEqual(kinds(updates).slice(0, 5), [
      '_vendor_thing',
      'agent_message_chunk',
      'subagent_update',
      'agent_message_chunk',
      'tool_call',
    ]);
    assert.deepEqual(updates[0]!._meta, { 'vendor.example/kind': 'thing' });
    assert.equal(updates[1]!.x, 'unknown field');
    assert.equal((updates[1]!.content as { vendorExtra?: boolean }).vendorExtra, true);
    assert.equal((updates[3]!.content as { type: string }).type, 'video');
    assert.equal(updates[4]!.kind, 'teleport');
    assert.ok(h.raw.slice(before).some((m) => m.method === '_vendor/ping'));
    assert.match(chunkTexts(updates).join(''), /Still here/);
  });

  test('malformed: a bad line, then the turn continues', async () => {
    const { stop, updates } = await play('/scenario malformed');
    assert.equal(stop, 'end_turn');
    assert.deepEqual(
      updates.map((u) => u.messageId),
      ['msg-before', 'msg-after'],
    );
  });

  test('big: a 10 MB chunk arrives whole', async () => {
    const { updates } = await play('/scenario big');
    assert.equal(chunkTexts(updates)[0]!.length, 10 * 1024 * 1024);
  });

  test('flood: n chunks, in order', async () => {
    const { stop, updates } = await play('/scenario flood 2000');
    assert.equal(stop, 'end_turn');
    const texts = chunkTexts(updates);
    assert.equal(texts.length, 2000);
    assert.equal(texts[1999], '1999 ');
  });

  test('paced: rate and count, each stamped with _meta silo/sentAt', async () => {
    const started = Date.now();
    const { updates } = await play('/scenario paced 200 40');
    assert.equal(updates.length, 40);
    const stamps = updates.map((u) => (u._meta as Record<string, number>)['silo/sentAt']!);
    assert.ok(stamps.every((t, i) => t >= started && (i === 0 || t >= stamps[i - 1]!)));
    assert.ok(stamps.at(-1)! - stamps[0]! >= 150, 'paced at about 200/s (39 intervals ≥ 150 ms)');
  });

  test('demo: title, thoughts, plan, tools, markdown and usage with cost', async () => {
    const { updates } = await play('/scenario demo');
    for (const k of [
      'session_info_update',
      'agent_thought_chunk',
      'plan',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
      'usage_update',
    ]) {
      assert.ok(kinds(updates).includes(k), k);
    }
  });

  test('an unknown scenario name says so', async () => {
    const { updates } = await play('/scenario nope');
    assert.match(chunkTexts(updates).join(''), /Unknown scenario "nope"/);
  });
});

describe('reference agent scenarios that end the process or the connection', { timeout: 60000 }, () => {
  test('crash: exits with code 3 mid-turn after a pending tool call', async () => {
    const h = spawnAgent([]);
    const sessionId = await h.start();
    const turn = h.prompt(sessionId, '/scenario crash').catch((e: Error) => e);
    assert.deepEqual(await h.exited, { code: 3, signal: null });
    assert.ok((await turn) instanceof Error);
    assert.equal(h.updates(sessionId).at(-1)?.sessionUpdate, 'tool_call');
    await h.stop();
  });

  test('crash 7: exits with the given code', async () => {
    const h = spawnAgent([]);
    const sessionId = await h.start();
    void h.prompt(sessionId, '/scenario crash 7').catch(() => {});
    assert.equal((await h.exited).code, 7);
    await h.stop();
  });

  test('hang: one chunk, then no answer even to cancel; the process ends when stdin closes', async () => {
    const h = spawnAgent([]);
    const sessionId = await h.start();
    let settled = false;
    void h.prompt(sessionId, '/scenario hang').then(
      () => {
        settled = true;
      },
      () => {},
    );
    await h.until(() => h.text(sessionId).length > 0, 'the one chunk');
    await h.connection.agent.notify('session/cancel', { sessionId });
    // A later request is still answered, so the agent processed the cancel and kept the turn open.
    await h.connection.agent.request('session/list', {});
    assert.equal(settled, false);
    await h.stop();
    assert.equal((await h.exited).code, 0);
  });

  test('huge-line: one 40 MB line kills a default (32 MiB) ndjson connection', async () => {
    const h = spawnAgent([]);
    const sessionId = await h.start();
    const turn = h.prompt(sessionId, '/scenario huge-line');
    await assert.rejects(turn, /exceeds/);
    await h.stop();
  });
});

describe('reference agent --prompt-capabilities', { timeout: 60000 }, () => {
  const PIXEL = { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } as const;
  const caps = (h: StdioHarness) =>
    (
      h.raw.find((m) => (m as { result?: { agentCapabilities?: unknown } }).result?.agentCapabilities) as {
        result: { agentCapabilities: { promptCapabilities: unknown } };
      }
    ).result.agentCapabilities.promptCapabilities;

  test('default: image and embeddedContext; prompt-blocks answers with the blocks received', async () => {
    const h = spawnAgent([]);
    const sessionId = await h.start();
    assert.deepEqual(caps(h), { image: true, audio: false, embeddedContext: true });
    const prompt = [{ type: 'text', text: '/scenario prompt-blocks' }, PIXEL];
    const stop = await h.connection.agent.request('session/prompt', { sessionId, prompt: prompt as never });
    assert.equal(stop.stopReason, 'end_turn');
    const json = /^```json\n(.*)\n```\n$/s.exec(h.text(sessionId))?.[1];
    assert.deepEqual(JSON.parse(json ?? 'null'), prompt);
    await h.stop();
  });

  test('none: announces nothing and refuses an image or a resource with -32602; text and links pass', async () => {
    const h = spawnAgent(['--prompt-capabilities', 'none']);
    const sessionId = await h.start();
    assert.deepEqual(caps(h), { image: false, audio: false, embeddedContext: false });
    const send = (block: Record<string, unknown>) =>
      h.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }, block] as never,
      });
    await assert.rejects(send(PIXEL), (e: { code?: number }) => e.code === -32602);
    await assert.rejects(
      send({ type: 'resource', resource: { uri: 'attachment:///a.txt', text: 'a' } }),
      (e: { code?: number }) => e.code === -32602,
    );
    assert.equal((await send({ type: 'resource_link', uri: 'file:///a', name: 'a' })).stopReason, 'end_turn');
    await h.stop();
  });

  test('an unknown capability is a usage error', () => {
    assert.throws(
      () => parseAgentArgs(['--prompt-capabilities', 'image,video'], {}),
      /unknown capability video/,
    );
  });
});
