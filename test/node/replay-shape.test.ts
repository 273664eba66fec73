// Replays shaped differently from live: the reference agent's shapes (agent/replay-shape.ts) and how
// Silo reads them as live (worker/replay-shape.ts), with written-out updates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CLAUDE_MODEL_MARKUP,
  commandExpansion,
  GEMINI_SESSION_CONTEXT,
  INTERRUPT_MARKER,
  INTERRUPT_TOOL_MARKER,
  OPEN_TURN,
  shapeReplay,
} from '../../agent/replay-shape.ts';
import { MessageIdSynthesizer, normalizeShaped } from '../../worker/normalize.ts';
import { agent, type Raw, user } from '../support/raw-updates.ts';

const history: Raw[] = [
  user('story', 'u1'),
  agent('Once upon', 'm1'),
  user('list it', 'u2'),
  { sessionUpdate: 'plan', entries: [{ content: 'List', priority: 'high', status: 'in_progress' }] },
  { sessionUpdate: 'tool_call', toolCallId: 'call-ls', title: 'ls', kind: 'execute', status: 'pending' },
  { sessionUpdate: 'tool_call_update', toolCallId: 'call-ls', status: 'completed', rawOutput: 'a.txt' },
  { sessionUpdate: 'tool_call', toolCallId: 'call-read', title: 'Read a.txt', kind: 'read' },
  agent('Listed.', 'm2'),
];
const marks = [
  { at: 0, stopReason: 'cancelled' },
  { at: 2, stopReason: 'end_turn' },
];

test('reference agent, codex shape: final tool calls, exec_command without kind, update_plan, no cancelled text, no ids', () => {
  assert.deepEqual(shapeReplay(history, marks, 'codex'), [
    user('story'),
    user('list it'),
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'update_plan-1',
      title: 'update_plan',
      status: 'completed',
      rawInput: { plan: [{ step: 'List', status: 'in_progress' }] },
    },
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call-ls',
      title: 'exec_command',
      status: 'completed',
      rawOutput: 'a.txt',
    },
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call-read',
      title: 'Read a.txt',
      kind: 'read',
      status: 'completed',
    },
    agent('Listed.'),
  ]);
});

test('reference agent, gemini shape: hidden context, function markers, tool calls grouped at the end, cancelled turns omitted', () => {
  assert.deepEqual(shapeReplay(history, marks, 'gemini'), [
    user(GEMINI_SESSION_CONTEXT),
    user('list it'),
    agent('\n[Function Call: ls]'),
    user('[Function Response: ls]'),
    agent('\n[Function Call: Read a.txt]'),
    user('[Function Response: Read a.txt]'),
    agent('Listed.'),
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call-ls',
      title: 'ls',
      kind: 'execute',
      status: 'completed',
      rawOutput: 'a.txt',
    },
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call-read',
      title: 'Read a.txt',
      kind: 'read',
      status: 'completed',
    },
  ]);
});

/** Normalizes and shapes `raws` in order, as the worker journals them. */
function journaled(raws: Raw[], replaying: boolean, inTurn = false) {
  const ids = new MessageIdSynthesizer();
  ids.replaying = replaying;
  return raws.map((raw, seq) => normalizeShaped(raw, seq, ids, inTurn));
}

test('reference agent, claude shape: one chunk per message (ids kept), each tool call announced then patched once, the interrupt marker after a cancelled turn', () => {
  const streamed: Raw[] = [
    user('story', 'u1'),
    agent('Once ', 'm1'),
    agent('upon', 'm1'),
    user('list it', 'u2'),
    ...history.slice(3, 7),
    agent('Listed.', 'm2'),
  ];
  const streamedMarks = [
    { at: 0, stopReason: 'cancelled' },
    { at: 3, stopReason: 'end_turn' },
  ];
  const got = shapeReplay(streamed, streamedMarks, 'claude');
  const marker = got[2]!;
  assert.equal(typeof marker.messageId, 'string');
  assert.deepEqual({ ...marker, messageId: 'x' }, user(INTERRUPT_MARKER, 'x'));
  assert.deepEqual(
    got.filter((u) => u !== marker),
    [
      user('story', 'u1'),
      agent('Once upon', 'm1'),
      user('list it', 'u2'),
      history[3],
      history[4],
      { sessionUpdate: 'tool_call_update', toolCallId: 'call-ls', status: 'completed', rawOutput: 'a.txt' },
      history[6],
      agent('Listed.', 'm2'),
    ],
  );
  // 0.23.1: no ids, and Claude Code's /model markup first.
  const old = shapeReplay(streamed, streamedMarks, 'claude-0.23');
  assert.deepEqual(
    old.slice(0, 2),
    CLAUDE_MODEL_MARKUP.map((t) => user(t)),
  );
  assert.ok(old.every((u) => u.messageId === undefined));
});

test('reference agent, qwen and copilot shapes: the history as kept, without message ids', () => {
  const kept = history.map(({ messageId: _, ...u }) => u);
  assert.deepEqual(shapeReplay(history, marks, 'qwen'), kept);
  assert.deepEqual(shapeReplay(history, marks, 'copilot'), kept);
});

test('Silo hides the /model command markup claude-agent-acp 0.23 replays; live, the same text is the user’s', () => {
  const raws = CLAUDE_MODEL_MARKUP.map((t) => user(t));
  assert.deepEqual(
    journaled(raws, true).map((u) => u.kind),
    ['agent_context', 'agent_context'],
  );
  assert.deepEqual(
    journaled(raws, false).map((u) => u.kind),
    ['user_message_chunk', 'user_message_chunk'],
  );
});

test('Silo reads a Gemini replay as live: hidden context and responses are agent_context, call markers cut; raw kept', () => {
  const raws = [
    user('<session_context>\nThis is the Gemini CLI.\n</session_context>'),
    user('list it'),
    agent('Looking.\n[Function Call: ls]'),
    user('[Function Response: ls]'),
  ];
  const got = journaled(raws, true);
  assert.deepEqual(
    got.map((u) => [u.kind, u.text]),
    [
      ['agent_context', undefined],
      ['user_message_chunk', 'list it'],
      ['agent_message_chunk', 'Looking.'],
      ['agent_context', undefined],
    ],
  );
  assert.deepEqual(got[0]!.raw, raws[0]);
  assert.deepEqual(got[2]!.raw, raws[2]);
  // Live, the same text is the user's or the agent's own.
  assert.deepEqual(
    journaled(raws, false).map((u) => u.kind),
    ['user_message_chunk', 'user_message_chunk', 'agent_message_chunk', 'user_message_chunk'],
  );
});

test('Silo reads a Codex replay as live: exec_command is an execute call, update_plan a plan', () => {
  const updatePlan = {
    sessionUpdate: 'tool_call',
    toolCallId: 'update_plan-1',
    title: 'update_plan',
    status: 'completed',
    rawInput: { plan: [{ step: 'List', status: 'in_progress' }, { step: 'Read' }] },
  };
  const exec = { sessionUpdate: 'tool_call', toolCallId: 'c', title: 'exec_command', status: 'completed' };
  const [plan, shell] = journaled([updatePlan, exec], true);
  assert.deepEqual(plan, {
    kind: 'plan',
    raw: updatePlan,
    seq: 0,
    plan: [
      { content: 'List', priority: 'medium', status: 'in_progress' },
      { content: 'Read', priority: 'medium', status: 'pending' },
    ],
  });
  assert.equal(shell!.kind, 'tool_call');
  assert.deepEqual([shell!.toolCall?.kind, shell!.toolCall?.status], ['execute', 'completed']);
  // An exec_command that names its kind keeps it.
  assert.equal(journaled([{ ...exec, kind: 'read' }], true)[0]!.toolCall?.kind, 'read');
});

test('[MODE_UPDATE] <modeId> outside a turn is a current_mode_update; inside a turn it is text', () => {
  const marker = agent('[MODE_UPDATE] autoEdit');
  assert.equal(journaled([marker], false)[0]!.kind, 'current_mode_update');
  assert.equal(journaled([marker], false, true)[0]!.kind, 'agent_message_chunk');
  assert.equal(journaled([agent('[MODE_UPDATE] a b')], false)[0]!.kind, 'agent_message_chunk');
});

test('Silo’s own prompt ends a load’s replay: what follows is read as live', () => {
  const ids = new MessageIdSynthesizer();
  ids.replaying = true;
  const context = user('<session_context>\nx\n</session_context>');
  assert.equal(normalizeShaped(context, 0, ids, false).kind, 'agent_context');
  ids.next('user_message_chunk', 'silo-u1', 1);
  assert.equal(ids.replaying, false);
  assert.equal(normalizeShaped(context, 2, ids, true).kind, 'user_message_chunk');
});

// A session as test:agents' reload-open leaves it: a cancelled turn whose call ran, one of the
// agent's commands, then a turn its process died in while its call waited for the client.
const cut: Raw[] = [
  user('run it', 'u1'),
  { sessionUpdate: 'tool_call', toolCallId: 'call-run', title: 'run.sh', status: 'pending' },
  { sessionUpdate: 'tool_call_update', toolCallId: 'call-run', rawInput: {} },
  user('/review', 'u2'),
  agent('Reviewed.', 'm1'),
  user('draft it', 'u3'),
  { sessionUpdate: 'tool_call', toolCallId: 'call-draft', title: 'Write draft.txt', status: 'pending' },
];
const cutMarks = [
  { at: 0, stopReason: 'cancelled' },
  { at: 3, stopReason: 'end_turn' },
  { at: 5, stopReason: OPEN_TURN },
];

test('reference agent, after a turn its process died in: claude marks the cancelled call "for tool use", codex keeps the cut turns’ prompts alone, copilot fails the open call, opencode expands the command; claude, codex and copilot leave the command out', () => {
  const claude = shapeReplay(cut, cutMarks, 'claude');
  assert.deepEqual(
    claude
      .filter((u) => u.sessionUpdate === 'user_message_chunk')
      .map((u) => (u.content as { text: string }).text),
    ['run it', INTERRUPT_TOOL_MARKER, 'draft it'],
  );
  assert.deepEqual(shapeReplay(cut, cutMarks, 'codex'), [user('run it'), user('draft it')]);
  assert.deepEqual(shapeReplay(cut, cutMarks, 'copilot'), [
    ...[cut[0]!, cut[1]!, cut[2]!, cut[5]!, cut[6]!].map(({ messageId: _, ...u }) => u),
    { sessionUpdate: 'tool_call_update', toolCallId: 'call-draft', status: 'failed' },
  ]);
  const opencode = shapeReplay(cut, cutMarks, 'opencode');
  assert.deepEqual(opencode[3], {
    ...cut[3],
    content: { type: 'text', text: commandExpansion('review', '') },
  });
  assert.deepEqual(
    opencode.filter((_, i) => i !== 3),
    cut.filter((_, i) => i !== 3),
  );
});
