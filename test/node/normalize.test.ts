import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MessageIdSynthesizer, normalizeAll, normalizeUpdate } from '../../worker/normalize.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/claude-agent-acp/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          dir: string;
          msg: { method?: string; params?: { update?: Record<string, unknown> } };
        },
    );

const chunk = (kind: string, text: string, messageId?: string) => ({
  sessionUpdate: kind,
  content: { type: 'text', text },
  ...(messageId ? { messageId } : {}),
});

test('tool calls get the defaults the SDK does not apply; updates carry only what changed', () => {
  const ids = new MessageIdSynthesizer();
  const created = normalizeUpdate(
    { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'teleport' },
    0,
    ids,
  );
  assert.deepEqual(created.toolCall, {
    toolCallId: 't1',
    title: 'Read',
    kind: 'other',
    status: 'pending',
    content: [],
    locations: [],
  });
  const patched = normalizeUpdate(
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'completed',
      title: null,
      content: [{ type: 'diff', path: '/a', oldText: null, newText: 'x' }, { type: 'bogus' }],
    },
    1,
    ids,
  );
  assert.deepEqual(patched.toolCall, {
    toolCallId: 't1',
    status: 'completed',
    content: [{ type: 'diff', path: '/a', oldText: null, newText: 'x' }],
  });
});

test('unknown kinds, vendor _meta and malformed input keep raw and never throw', () => {
  const ids = new MessageIdSynthesizer();
  const raw = { sessionUpdate: '_vendor_thing', x: 1, _meta: { vendor: { deep: [1, 2] } } };
  // Compared with a copy taken before: a normalizer that changed its input would change both sides.
  const sent = structuredClone(raw);
  assert.deepEqual(normalizeUpdate(raw, 0, ids), { kind: '_vendor_thing', raw: sent, seq: 0 });
  assert.deepEqual(raw, sent, 'the input is left as it was');
  assert.equal(normalizeUpdate(null, 1, ids).kind, 'invalid');
  assert.equal(normalizeUpdate({ sessionUpdate: 'plan', entries: 'nope' }, 2, ids).plan, undefined);
  const weird = normalizeUpdate(
    { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'urgent', status: 'pending' }, 7] },
    3,
    ids,
  );
  assert.deepEqual(weird.plan, [{ content: 'a', priority: 'urgent', status: 'pending' }]);
  const hostile = new Proxy(
    {},
    {
      get: () => {
        throw new Error('boom');
      },
    },
  );
  assert.equal(normalizeUpdate(hostile, 4, ids).kind, 'invalid');
});

test('the input is never changed, and raw is exactly what the agent sent', () => {
  const raws: Record<string, unknown>[] = [
    chunk('agent_message_chunk', 'no id'),
    chunk('user_message_chunk', 'prompt', 'u1'),
    { sessionUpdate: 'agent_thought_chunk', content: { type: 'text' } },
    { sessionUpdate: 'tool_call', toolCallId: 't1' },
    { sessionUpdate: 'tool_call', toolCallId: 't2', kind: 'teleport', status: 'weird', locations: [{}] },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      title: null,
      content: [{ type: 'diff', path: '/a', newText: 'x' }, { type: 'bogus' }],
      rawInput: null,
    },
    { sessionUpdate: 'plan', entries: [{ content: 'a' }, 7] },
    { sessionUpdate: 'usage_update', used: 1, size: 2, cost: { amount: 1 } },
    { sessionUpdate: 'session_info_update', title: 'x', _meta: { v: [1] } },
    { sessionUpdate: 42 },
  ];
  const sent = structuredClone(raws);
  const updates = normalizeAll(raws);
  assert.deepEqual(raws, sent, 'the input is left as it was');
  assert.deepEqual(
    updates.map((u) => u.raw),
    sent,
  );
});

test('messageId synthesis: same-kind runs share an id; a new kind or other content starts a new one', () => {
  const out = normalizeAll([
    chunk('agent_message_chunk', 'a'),
    chunk('agent_message_chunk', 'b'),
    chunk('agent_thought_chunk', 'c'),
    chunk('agent_message_chunk', 'd'),
    { sessionUpdate: 'tool_call', toolCallId: 't' },
    chunk('agent_message_chunk', 'e'),
    chunk('agent_message_chunk', 'f', 'agent-id'),
    chunk('agent_message_chunk', 'g'),
    { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'h' }, messageId: 42 },
  ]);
  assert.deepEqual(
    out.map((u) => u.messageId),
    ['silo-m0', 'silo-m0', 'silo-m2', 'silo-m3', undefined, 'silo-m5', 'agent-id', 'silo-m7', 'silo-m7'],
  );
  assert.deepEqual(
    normalizeAll(out.map((u) => u.raw)),
    out,
    'replaying the same raws yields identical updates',
  );
});

test('messageId synthesis: metadata-only updates in the middle of an id-less thought do not split it (Codex)', () => {
  const out = normalizeAll([
    chunk('agent_thought_chunk', '\n\n'),
    chunk('agent_thought_chunk', 'I look'),
    { sessionUpdate: 'usage_update', used: 1, size: 2 },
    chunk('agent_thought_chunk', ' at'),
    { sessionUpdate: 'available_commands_update', availableCommands: [] },
    { sessionUpdate: 'config_option_update', configOptions: [] },
    { sessionUpdate: 'session_info_update', title: 'x' },
    { sessionUpdate: 'current_mode_update', currentModeId: 'code' },
    chunk('agent_thought_chunk', ' it'),
    { sessionUpdate: 'plan', entries: [] },
    chunk('agent_thought_chunk', 'new'),
  ]);
  assert.deepEqual(
    out.filter((u) => u.kind === 'agent_thought_chunk').map((u) => u.messageId),
    ['silo-m0', 'silo-m0', 'silo-m0', 'silo-m0', 'silo-m10'],
  );
});

test('the recorded real traffic normalizes without loss and keeps the agent’s message ids', () => {
  for (const name of ['main', 'load', 'resume']) {
    const raws = fixture(name)
      .filter((r) => r.dir === 'agent->client' && r.msg.method === 'session/update')
      .map((r) => r.msg.params!.update!);
    // What the agent sent, copied before normalizing: `raw` must equal it, and the input must not change.
    const sent = structuredClone(raws);
    const updates = normalizeAll(raws);
    assert.deepEqual(raws, sent, `${name}: the normalizer left its input as it was`);
    assert.equal(updates.length, raws.length);
    updates.forEach((u, i) => {
      const raw = sent[i]!;
      assert.equal(u.kind, raw.sessionUpdate);
      assert.deepEqual(u.raw, raw);
      if (typeof raw.messageId === 'string') assert.equal(u.messageId, raw.messageId);
      if (u.kind === 'tool_call' || u.kind === 'tool_call_update')
        assert.equal(u.toolCall?.toolCallId, raw.toolCallId);
      if (u.kind === 'usage_update') assert.equal(u.usage?.used, raw.used);
      if (u.kind === 'plan') assert.equal(u.plan?.length, (raw.entries as unknown[]).length);
    });
  }
});
