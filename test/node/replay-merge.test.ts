// The replay merge (worker/replay-merge.ts) against the replays real agents sent after a page died
// with a permission or question open, and after a turn that was one of their commands
// (test:agents' reload-open check; docs/agents.md): the same history, whatever the shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeReplay } from '../../worker/replay-merge.ts';
import { agent, type Raw, user } from '../support/raw-updates.ts';

/** A journal entry as Silo writes it. */
type Entry = { kind: string; raw: Raw; messageId?: string };
let seq = 0;
const prompt = (t: string): Entry => {
  const messageId = `silo-u${seq++}`;
  return {
    kind: 'user_message_chunk',
    messageId,
    raw: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: t }, messageId },
  };
};
const wire = (raw: Raw): Entry => ({ kind: String(raw.sessionUpdate), raw });
const said = (t: string): Entry => ({ ...wire(agent(t)), messageId: `silo-m${seq++}` });
const ended = (stopReason: string): Entry => ({ kind: 'turn_end', raw: { stopReason } });
const tool = (toolCallId: string, status = 'pending'): Raw => ({
  sessionUpdate: 'tool_call',
  toolCallId,
  title: toolCallId,
  status,
});
const patch = (toolCallId: string, status: string): Raw => ({
  sessionUpdate: 'tool_call_update',
  toolCallId,
  status,
});
const commands = (...names: string[]): Entry =>
  wire({ sessionUpdate: 'available_commands_update', availableCommands: names.map((name) => ({ name })) });
const permission = (toolCallId: string): Entry => ({
  kind: 'permission',
  raw: { toolCall: { toolCallId }, options: [] },
});

/**
 * The conversation test:agents has before its reload-open check: a turn, a cancelled turn whose
 * call was running, one of the agent's commands, then a turn whose permission is open as the page
 * dies (no turn end yet: Silo journals `interrupted` once the restore is done).
 */
function journalWith(command: string): Entry[] {
  return [
    commands('context', 'status', 'init'),
    prompt('write it'),
    wire(tool('call-1')),
    wire(patch('call-1', 'completed')),
    said('Written.'),
    ended('end_turn'),
    prompt('run slowly'),
    wire(tool('call-2')),
    wire(patch('call-2', 'in_progress')),
    ended('cancelled'),
    prompt(`${command} `),
    said('Context: 2k tokens.'),
    ended('end_turn'),
    prompt('draft it'),
    wire(tool('call-3')),
    permission('call-3'),
  ];
}

/** The replay of the first two turns as every agent here sends it. */
const start = [user('write it'), tool('call-1', 'completed'), agent('Written.'), user('run slowly')];

test('claude-agent-acp: its /context turn is not in its replay, a cancelled call is followed by "[Request interrupted by user for tool use]"; the same history', () => {
  const journal = journalWith('/context');
  const claude = [
    ...start,
    tool('call-2'),
    patch('call-2', 'failed'),
    user('[Request interrupted by user for tool use]'),
    user('draft it'),
    tool('call-3'),
  ];
  assert.deepEqual(mergeReplay(journal, claude), { verdict: 'merged', append: [] });
  // After another device went on: exactly its turn is appended.
  const more = [user('and then'), agent('Then.')];
  assert.deepEqual(mergeReplay(journal, [...claude, ...more]), { verdict: 'merged', append: more });
});

test('Codex: no /status turn, a cancelled turn without its unfinished call, the turn its page died in as its prompt alone; the same history', () => {
  const journal = journalWith('/status');
  const codex = [...start, user('draft it')];
  assert.deepEqual(mergeReplay(journal, codex), { verdict: 'merged', append: [] });
  // What the agent has of that turn after its prompt is appended.
  assert.deepEqual(mergeReplay(journal, [...codex, agent('Drafted.')]), {
    verdict: 'merged',
    append: [agent('Drafted.')],
  });
});

test('Copilot CLI: no /context turn, the open turn’s call replayed failed: the same history, the call’s end appended', () => {
  const journal = journalWith('/context');
  const copilot = [...start, tool('call-2'), user('draft it'), tool('call-3'), patch('call-3', 'failed')];
  assert.deepEqual(mergeReplay(journal, copilot), {
    verdict: 'merged',
    append: [patch('call-3', 'failed')],
  });
});

test('OpenCode: /init replayed as the instructions it stands for, its answer kept; the same history', () => {
  const journal = journalWith('/init');
  const opencode = [
    ...start,
    tool('call-2'),
    patch('call-2', 'completed'),
    user('Create or update AGENTS.md for this repository.'),
    agent('Context: 2k tokens.'),
    user('draft it'),
    tool('call-3'),
    patch('call-3', 'in_progress'),
  ];
  assert.deepEqual(mergeReplay(journal, opencode), {
    verdict: 'merged',
    append: [patch('call-3', 'in_progress')],
  });
  // Another prompt in its place whose answer differs is another history.
  const other = opencode.map((u) => (u === opencode[7] ? agent('Something else.') : u));
  assert.equal(mergeReplay(journal, other).verdict, 'cannot-merge');
});

test('a command that ends the journal, left out of the replay, and a turn the agent has after it: that turn is appended', () => {
  const journal = journalWith('/context').slice(0, 13);
  const replay = [...start, tool('call-2'), user('from another device'), agent('Hello there.')];
  assert.deepEqual(mergeReplay(journal, replay), {
    verdict: 'merged',
    append: [user('from another device'), agent('Hello there.')],
  });
});

test('what is not left out still differs: a prompt that is no command, a finished turn without its call or with another, a command the agent never announced', () => {
  const journal = journalWith('/context');
  // The finished first turn's call is missing.
  const noCall = [user('write it'), agent('Written.'), user('run slowly'), user('draft it')];
  assert.equal(mergeReplay(journal, noCall).verdict, 'cannot-merge');
  // A prompt the journal holds that is no command is missing.
  const noWrite = [user('run slowly'), user('draft it')];
  assert.equal(mergeReplay(journal, noWrite).verdict, 'cannot-merge');
  // "/context" is no command when the agent never announced it.
  const unannounced = journal.slice(1);
  assert.equal(mergeReplay(unannounced, [...start, user('draft it')]).verdict, 'cannot-merge');
  // A call in a finished turn that the journal does not hold.
  const extra = [...start.slice(0, 2), tool('call-9'), ...start.slice(2), user('draft it')];
  assert.equal(mergeReplay(journal, extra).verdict, 'cannot-merge');
  // The turn the page died in went on at the agent's (its permission refused, another call): the
  // rest of it is appended.
  assert.deepEqual(mergeReplay(journal, [...start, user('draft it'), tool('call-9'), agent('Done.')]), {
    verdict: 'merged',
    append: [tool('call-9'), agent('Done.')],
  });
});
