// Subagents as claude-agent-acp 0.101 sends them (acp-agent.js stampParentToolUseId, native-subagents.js):
// in the session, every update of a subagent stamped `_meta.claudeCode.parentToolUseId` with its Task
// call's id; or as an ACP child session (subagent_update, session_message, the child's own updates
// journaled with subagentSessionId). The transcript model draws each inside its Task card.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonl, toJsonl, toMarkdown } from '../../src/export.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { MessageRow, ToolCallRow, TranscriptRow } from '../../src/transcript/rows.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { MessageIdSynthesizer, normalizeAll, normalizeUpdate } from '../../worker/normalize.ts';

const stamp = (toolName?: string) => ({
  claudeCode: { ...(toolName ? { toolName } : {}), parentToolUseId: 'toolu_task' },
});
const text = (kind: string, t: string, meta?: object) => ({
  sessionUpdate: kind,
  messageId: `m-${t.length}-${kind}`,
  content: { type: 'text', text: t },
  ...(meta ? { _meta: meta } : {}),
});

/** The flattened form: the Agent call, its subagent's stamped updates, its result, the parent's answer. */
const flattened = [
  text('user_message_chunk', 'find greet'),
  {
    _meta: { claudeCode: { toolName: 'Agent' } },
    toolCallId: 'toolu_task',
    sessionUpdate: 'tool_call',
    name: 'Agent',
    rawInput: { description: 'Explore the repo', prompt: 'Find greet', subagent_type: 'Explore' },
    status: 'pending',
    title: 'Explore the repo',
    kind: 'think',
    content: [{ type: 'content', content: { type: 'text', text: 'Find greet' } }],
  },
  // A progress beat of the Task itself names no parent but itself.
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'toolu_task',
    status: 'in_progress',
    _meta: { claudeCode: { toolName: 'Agent', parentToolUseId: 'toolu_task' } },
  },
  text('agent_thought_chunk', 'I search.', stamp()),
  {
    _meta: stamp('Grep'),
    toolCallId: 'toolu_grep',
    sessionUpdate: 'tool_call',
    name: 'Grep',
    status: 'pending',
    title: 'grep greet',
    kind: 'search',
    content: [],
  },
  { _meta: stamp('Grep'), toolCallId: 'toolu_grep', sessionUpdate: 'tool_call_update', status: 'completed' },
  text('agent_message_chunk', 'In src/greet.ts.', stamp()),
  // A later update of a subagent's call that lost its parent id stays in the Task card.
  { toolCallId: 'toolu_grep', sessionUpdate: 'tool_call_update', title: 'grep "greet"' },
  {
    _meta: { claudeCode: { toolName: 'Agent' } },
    toolCallId: 'toolu_task',
    sessionUpdate: 'tool_call_update',
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: 'greet is in src/greet.ts' } }],
  },
  text('agent_message_chunk', 'Found it.'),
];

const top = (rows: readonly TranscriptRow[]) =>
  rows.map((r) =>
    r.type === 'message'
      ? `${r.role}:${r.text}`
      : r.type === 'tool'
        ? `tool:${r.toolCall.toolCallId}`
        : r.type,
  );

test('in the session: the subagent’s thoughts, text and tool calls go into its Task card, in order; the conversation keeps its own', () => {
  const model = new TranscriptModel();
  model.applyAll(normalizeAll(flattened));
  assert.deepEqual(top(model.rows), ['user:find greet', 'tool:toolu_task', 'agent:Found it.']);
  const card = model.get('t:toolu_task') as ToolCallRow;
  assert.equal(card.toolCall.status, 'completed');
  assert.deepEqual(top(card.subagent!.rows), [
    'thought:I search.',
    'tool:toolu_grep',
    'agent:In src/greet.ts.',
  ]);
  const grep = card.subagent!.rows[1] as ToolCallRow;
  assert.equal(grep.toolCall.title, 'grep "greet"');
  assert.equal(grep.toolCall.status, 'completed');
});

test('a JSONL export folds back to the same Task card; the Markdown export quotes the subagent’s work in it', () => {
  const updates = normalizeAll(flattened);
  const again = new TranscriptModel();
  again.applyAll(parseJsonl(toJsonl(updates)));
  const card = again.get('t:toolu_task') as ToolCallRow;
  assert.deepEqual(top(card.subagent!.rows), [
    'thought:I search.',
    'tool:toolu_grep',
    'agent:In src/greet.ts.',
  ]);
  const md = toMarkdown(updates);
  assert.match(md, /> \*\*Subagent\*\*/);
  assert.match(md, /> \*\*Agent:\*\*\n> \n> In src\/greet\.ts\./);
});

test('as an ACP child session: announced, given its task, its work in its own card, its state and its answer', () => {
  const P = 'ses-parent';
  const C = 'agent-1';
  const parent = (raw: object, seq: number, ids: MessageIdSynthesizer) => normalizeUpdate(raw, seq, ids);
  const ids = new MessageIdSynthesizer();
  const childIds = new MessageIdSynthesizer();
  const child = (raw: object, seq: number): AgentSessionUpdate => ({
    ...normalizeUpdate(raw, seq, childIds),
    subagentSessionId: C,
  });
  const message = {
    sessionUpdate: 'session_message',
    messageId: 'toolu_task',
    senderSessionId: P,
    recipientSessionId: C,
    content: [{ type: 'text', text: 'Find greet' }],
  };
  const updates = [
    parent(text('user_message_chunk', 'find greet'), 0, ids),
    parent(
      {
        sessionUpdate: 'subagent_update',
        sessionId: C,
        title: 'Explore the repo',
        description: 'Explore',
        capabilities: { cancel: {} },
        state: { state: 'running' },
      },
      1,
      ids,
    ),
    parent({ ...message, recipientMessageId: 'toolu_task' }, 2, ids),
    child({ ...message, senderMessageId: 'toolu_task' }, 3),
    child(text('agent_thought_chunk', 'I search.', stamp()), 4),
    parent(text('agent_message_chunk', 'Waiting.'), 5, ids),
    child(
      {
        _meta: stamp('Grep'),
        toolCallId: 'toolu_grep',
        sessionUpdate: 'tool_call',
        status: 'pending',
        title: 'grep greet',
        kind: 'search',
      },
      6,
    ),
    child(
      {
        sessionUpdate: 'config_option_update',
        configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'haiku', options: [] }],
      },
      7,
    ),
    parent(
      { sessionUpdate: 'subagent_update', sessionId: C, state: { state: 'idle', stopReason: 'end_turn' } },
      8,
      ids,
    ),
    parent(
      {
        sessionUpdate: 'session_message',
        messageId: 'toolu_task:reply',
        senderSessionId: C,
        recipientSessionId: P,
        content: [{ type: 'text', text: 'In src/greet.ts' }],
      },
      9,
      ids,
    ),
  ];
  const model = new TranscriptModel();
  model.applyAll(updates);
  assert.deepEqual(top(model.rows), ['user:find greet', `tool:subagent:${C}`, 'agent:Waiting.']);
  const card = model.get(`t:subagent:${C}`) as ToolCallRow;
  assert.equal(card.toolCall.title, 'Explore the repo');
  assert.equal(card.toolCall.status, 'completed');
  assert.deepEqual(
    { ...card.subagent, rows: top(card.subagent!.rows) },
    {
      sessionId: C,
      title: 'Explore the repo',
      description: 'Explore',
      state: 'idle',
      stopReason: 'end_turn',
      prompt: 'Find greet',
      reply: 'In src/greet.ts',
      rows: ['thought:I search.', 'tool:toolu_grep'],
    },
  );
  // The child's own state stays its own.
  assert.equal(model.current.commands.length, 0);
  assert.equal((model.rows[0] as MessageRow).text, 'find greet');
});
