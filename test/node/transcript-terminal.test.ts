// Terminal output as claude-agent-acp 0.101 and codex-acp 2.6 send it once a client advertises
// `_meta.terminal_output` and `terminal_output_delta` (the shapes of their dist code, tool-calls/renderer.js
// and background-work.js; AcpToolCallRenderer and CommandReporter): normalized per update, folded per
// terminal id by the transcript model (replace vs append, the exit), and written by the Markdown export.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonl, toJsonl, toMarkdown } from '../../src/export.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { ToolCallRow } from '../../src/transcript/rows.ts';
import { normalizeAll } from '../../worker/normalize.ts';

const ESC = '\u001b';

/** claude-agent-acp: a foreground Bash call, its output once (as a delta), then its exit. */
const claude = [
  {
    _meta: { claudeCode: { toolName: 'Bash' }, terminal_info: { terminal_id: 'toolu_1' } },
    toolCallId: 'toolu_1',
    sessionUpdate: 'tool_call',
    name: 'Bash',
    rawInput: { command: 'npm test' },
    status: 'pending',
    title: 'npm test',
    kind: 'execute',
    content: [{ type: 'terminal', terminalId: 'toolu_1' }],
  },
  {
    _meta: { terminal_output_delta: { terminal_id: 'toolu_1', data: `${ESC}[31mFAIL${ESC}[0m greet\n` } },
    toolCallId: 'toolu_1',
    sessionUpdate: 'tool_call_update',
  },
  {
    _meta: {
      claudeCode: { toolName: 'Bash' },
      terminal_exit: { terminal_id: 'toolu_1', exit_code: 1, signal: null },
    },
    toolCallId: 'toolu_1',
    sessionUpdate: 'tool_call_update',
    status: 'failed',
    content: [{ type: 'terminal', terminalId: 'toolu_1' }],
  },
];

/** claude-agent-acp: a background command's output: the first replaces the placeholder, then appends. */
const claudeBackground = [
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'toolu_1',
    _meta: { terminal_output: { terminal_id: 'toolu_1', data: 'tick 1\n' } },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'toolu_1',
    _meta: { terminal_output_delta: { terminal_id: 'toolu_1', data: 'tick 2\n' } },
  },
];

/** codex-acp: a shell command streaming deltas, then its exit on the completion. */
const codex = [
  {
    sessionUpdate: 'tool_call',
    toolCallId: 'call_9',
    kind: 'execute',
    title: 'make',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 'call_9' }],
    rawInput: { command: 'make', cwd: '/w' },
    _meta: { terminal_info: { cwd: '/w', terminal_id: 'call_9' } },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_9',
    _meta: { terminal_output_delta: { data: 'cc a.c\n', terminal_id: 'call_9' } },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_9',
    _meta: { terminal_output_delta: { data: 'cc b.c\n', terminal_id: 'call_9' } },
  },
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_9',
    status: 'completed',
    _meta: { terminal_exit: { exit_code: 0, signal: null, terminal_id: 'call_9' } },
  },
];

const fold = (raws: unknown[]) => {
  const model = new TranscriptModel();
  const updates = normalizeAll(raws);
  model.applyAll(updates);
  return { model, updates };
};
const terminalOf = (model: TranscriptModel, id: string) =>
  (model.get(`t:${id}`) as ToolCallRow).toolCall.terminals;

test('an update says what it reported: the terminal it opened, output to replace or to append, the exit', () => {
  const [open, delta, exit] = normalizeAll(claude);
  assert.deepEqual(open!.toolCall!.terminal, { id: 'toolu_1' });
  assert.deepEqual(delta!.toolCall!.terminal, {
    id: 'toolu_1',
    output: `${ESC}[31mFAIL${ESC}[0m greet\n`,
    append: true,
  });
  assert.deepEqual(exit!.toolCall!.terminal, { id: 'toolu_1', exited: true, exitCode: 1, signal: null });
  const [replace] = normalizeAll(claudeBackground);
  assert.deepEqual(replace!.toolCall!.terminal, { id: 'toolu_1', output: 'tick 1\n' });
  assert.deepEqual(normalizeAll(codex)[0]!.toolCall!.terminal, { id: 'call_9', cwd: '/w' });
});

test('Claude: the output and the exit code fold into the card, with the terminal content kept', () => {
  const { model } = fold(claude);
  const row = model.get('t:toolu_1') as ToolCallRow;
  assert.deepEqual(row.toolCall.terminals, [
    { id: 'toolu_1', output: `${ESC}[31mFAIL${ESC}[0m greet\n`, exited: true, exitCode: 1, signal: null },
  ]);
  assert.equal(row.toolCall.status, 'failed');
  assert.deepEqual(row.toolCall.content, [{ type: 'terminal', terminalId: 'toolu_1' }]);
});

test('terminal_output replaces the output so far; terminal_output_delta appends to it', () => {
  const { model } = fold([...claude.slice(0, 2), ...claudeBackground]);
  assert.equal(terminalOf(model, 'toolu_1')![0]!.output, 'tick 1\ntick 2\n');
  assert.equal(terminalOf(model, 'toolu_1')![0]!.exited, false);
});

test('Codex: deltas append in order, the exit comes with the completion; a delta for another terminal id stays apart', () => {
  const { model } = fold(codex);
  assert.deepEqual(terminalOf(model, 'call_9'), [
    { id: 'call_9', output: 'cc a.c\ncc b.c\n', exited: true, exitCode: 0, signal: null, cwd: '/w' },
  ]);
  const other = fold([
    ...codex.slice(0, 2),
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_9',
      _meta: { terminal_output_delta: { data: 'x', terminal_id: 'b' } },
    },
  ]);
  assert.deepEqual(
    terminalOf(other.model, 'call_9')!.map((t) => [t.id, t.output]),
    [
      ['call_9', 'cc a.c\n'],
      ['b', 'x'],
    ],
  );
});

test('a JSONL export folds back to the same terminal, and the Markdown export shows its output and exit code', () => {
  const { model, updates } = fold(codex);
  const again = new TranscriptModel();
  again.applyAll(parseJsonl(toJsonl(updates)));
  assert.deepEqual(terminalOf(again, 'call_9'), terminalOf(model, 'call_9'));
  const md = toMarkdown(normalizeAll(claude));
  assert.match(md, /```console\nFAIL greet\n```/);
  assert.match(md, /Exit code 1/);
});
