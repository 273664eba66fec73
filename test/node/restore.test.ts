// The restore decisions as pure functions, called with written-out journals and replays.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageIdSynthesizer, normalizeUpdate } from '../../worker/normalize.ts';
import { mergeReplay } from '../../worker/replay-merge.ts';
import { journalHolding, restoreMethods } from '../../worker/restore.ts';
import { agent, type Raw, user } from '../support/raw-updates.ts';

const tool = (toolCallId: string): Raw => ({ sessionUpdate: 'tool_call', toolCallId, title: toolCallId });
const done = (toolCallId: string): Raw => ({
  sessionUpdate: 'tool_call_update',
  toolCallId,
  status: 'completed',
});
/** A journal as Silo writes it: its prompts under `silo-u<seq>`, each turn ended by a turn_end. */
type Entry = { kind: string; raw: Raw; messageId?: string };
const prompt = (t: string, seq: number): Entry => ({
  kind: 'user_message_chunk',
  messageId: `silo-u${seq}`,
  raw: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: t }, messageId: `silo-u${seq}` },
});
const wire = (raw: Raw, messageId?: string): Entry => ({
  kind: String(raw.sessionUpdate),
  raw,
  ...(messageId ? { messageId } : {}),
});
const end: Entry = { kind: 'turn_end', raw: { stopReason: 'end_turn' } };

test('journalHolding: empty, a prompt without its turn end, complete', () => {
  assert.equal(journalHolding([]), 'empty');
  assert.equal(journalHolding([prompt('hi', 0), wire(agent('hel'), 'silo-m1')]), 'open-turn');
  assert.equal(journalHolding([prompt('hi', 0), wire(agent('hello'), 'silo-m1'), end]), 'complete');
  // A journal filled by a replay holds no prompt of Silo's: complete.
  assert.equal(journalHolding([wire(user('hi'), 'silo-m0'), wire(agent('hello'), 'silo-m1')]), 'complete');
});

test('restoreMethods: load first unless the journal is complete; via wins; only what the agent has', () => {
  const both = { resume: true, load: true };
  assert.deepEqual(restoreMethods(both, 'empty'), ['session/load', 'session/resume']);
  assert.deepEqual(restoreMethods(both, 'open-turn'), ['session/load', 'session/resume']);
  assert.deepEqual(restoreMethods(both, 'complete'), ['session/resume', 'session/load']);
  assert.deepEqual(restoreMethods(both, 'complete', 'load'), ['session/load', 'session/resume']);
  assert.deepEqual(restoreMethods(both, 'empty', 'resume'), ['session/resume', 'session/load']);
  assert.deepEqual(restoreMethods({ resume: true, load: false }, 'empty'), ['session/resume']);
  assert.deepEqual(restoreMethods({ resume: false, load: false }, 'empty', 'load'), []);
});

test('mergeReplay without message ids: only the turns the journal lacks are appended', () => {
  const journal = [
    prompt('read it', 0),
    wire(tool('call-1')),
    wire(done('call-1')),
    wire(agent('It says hi.'), 'silo-m3'),
    end,
    prompt('thanks', 5),
    wire(agent('You are welcome.'), 'silo-m6'),
    end,
  ];
  const replay = [
    user('read it'),
    tool('call-1'),
    done('call-1'),
    agent('It says '),
    agent('hi.'),
    user('thanks'),
    agent('You are welcome.'),
    user('and now?'),
    tool('call-2'),
    agent('Done.'),
  ];
  assert.deepEqual(mergeReplay(journal, replay), {
    verdict: 'merged',
    append: [user('and now?'), tool('call-2'), agent('Done.')],
  });
});

test('mergeReplay: a complete journal gets nothing, even with other message ids', () => {
  const journal = [prompt('hi', 0), wire(agent('Hello there', 'm-1'), 'm-1'), end];
  const replay = [user('hi', 'u-9'), agent('Hello ', 'm-1-r'), agent('there', 'm-1-r')];
  assert.deepEqual(mergeReplay(journal, replay), { verdict: 'merged', append: [] });
});

test('mergeReplay: a message cut short is completed under the journal’s id, then the rest follows', () => {
  const journal = [prompt('hi', 0), wire(agent('Hello th', 'm-1'), 'm-1')];
  const replay = [
    user('hi', 'u-1'),
    agent('Hello ', 'm-1'),
    agent('there, ', 'm-1'),
    agent('friend', 'm-1'),
    { sessionUpdate: 'usage_update', used: 5, size: 100 },
    user('bye', 'u-2'),
  ];
  assert.deepEqual(mergeReplay(journal, replay), {
    verdict: 'merged',
    append: [
      agent('ere, ', 'm-1'),
      agent('friend', 'm-1'),
      { sessionUpdate: 'usage_update', used: 5, size: 100 },
      user('bye', 'u-2'),
    ],
  });
});

test('mergeReplay: a cut message the agent replays under another id is completed under the journal’s id (one bubble, not two)', () => {
  const journal = [prompt('hi', 0), wire(agent('Hello th', 'silo-m1'), 'silo-m1')];
  const replay = [
    user('hi', 'u-1'),
    agent('Hello ', 'r-7'),
    agent('there, ', 'r-7'),
    agent('friend', 'r-7'),
    user('bye', 'u-2'),
  ];
  assert.deepEqual(mergeReplay(journal, replay), {
    verdict: 'merged',
    append: [agent('ere, ', 'silo-m1'), agent('friend', 'silo-m1'), user('bye', 'u-2')],
  });
});

test('mergeReplay: updates the journal already ends with are not repeated', () => {
  const journal = [prompt('go', 0), wire(tool('call-1')), wire(done('call-1')), end];
  const replay = [user('go'), tool('call-1'), done('call-1'), user('again'), tool('call-2')];
  assert.deepEqual(mergeReplay(journal, replay), {
    verdict: 'merged',
    append: [user('again'), tool('call-2')],
  });
});

test('mergeReplay cannot tell: a replay whose turns differ, or a longer prompt', () => {
  const journal = [
    prompt('slow story', 0),
    wire(agent('Once upon'), 'silo-m1'),
    { kind: 'turn_end', raw: { stopReason: 'cancelled' } },
    prompt('run it', 3),
    wire(tool('call-1')),
    wire(agent('Ran.'), 'silo-m5'),
    end,
  ];
  // Silo journals a prompt whole: a replayed prompt that only starts like it is another prompt.
  assert.equal(mergeReplay([prompt('run', 0)], [user('run it'), agent('Ran.')]).verdict, 'cannot-merge');
  assert.equal(mergeReplay(journal, [user('slow story'), agent('Twice upon')]).verdict, 'cannot-merge');
  // Another prompt, another tool call, or text both sides have that differs.
  const replay = (second: string, call: string, said: string) => [
    user('slow story'),
    agent('Once upon'),
    user(second),
    tool(call),
    agent(said),
  ];
  assert.deepEqual(mergeReplay(journal, replay('run it', 'call-1', 'Ran.')), {
    verdict: 'merged',
    append: [],
  });
  assert.equal(mergeReplay(journal, replay('run that', 'call-1', 'Ran.')).verdict, 'cannot-merge');
  assert.equal(mergeReplay(journal, replay('run it', 'call-2', 'Ran.')).verdict, 'cannot-merge');
  assert.equal(mergeReplay(journal, replay('run it', 'call-1', 'Walked.')).verdict, 'cannot-merge');
  // A turn the replay has in the middle that the journal lacks is no turn at its end.
  assert.equal(
    mergeReplay(journal, [
      user('slow story'),
      agent('Once upon'),
      user('other'),
      ...replay('run it', 'call-1', 'Ran.').slice(2),
    ]).verdict,
    'cannot-merge',
  );
});

test('mergeReplay: a replay that is the start of the journal (the agent lost a turn’s end) adds nothing', () => {
  const journal = [prompt('slow story', 0), wire(agent('Once upon a time'), 'silo-m1')];
  assert.deepEqual(mergeReplay(journal, [user('slow story')]), { verdict: 'merged', append: [] });
  assert.deepEqual(mergeReplay(journal, [user('slow story'), agent('Once upon')]), {
    verdict: 'merged',
    append: [],
  });
  assert.equal(mergeReplay(journal, [user('slow tale')]).verdict, 'cannot-merge');
});

test('mergeReplay: a replay that holds fewer turns than the journal (the agent lost its last turn) adds nothing', () => {
  // The journal's first turn was cut short as its page died (interrupted), then a second turn ran
  // whole; the agent kept only the first, whole. Its rest belongs before the second turn, not after
  // it: nothing is appended, and the turn stays as it was journaled.
  const cut = [
    prompt('slow story', 0),
    wire(agent('Once upon', 'silo-m1'), 'silo-m1'),
    { kind: 'turn_end', raw: { stopReason: 'interrupted' } },
    prompt('next', 3),
    wire(agent('Done.', 'silo-m4'), 'silo-m4'),
    end,
  ];
  assert.deepEqual(mergeReplay(cut, [user('slow story'), agent('Once upon a time', 'r-1')]), {
    verdict: 'merged',
    append: [],
  });
  // A turn that ended, followed by another: what the replay sends after its last turn (usage, a
  // tool call's patch) is not the journal's end either.
  const whole = [
    prompt('go', 0),
    wire(tool('call-1')),
    wire(done('call-1')),
    end,
    prompt('again', 4),
    wire(agent('Again.', 'silo-m5'), 'silo-m5'),
    end,
  ];
  const replay = [
    user('go'),
    tool('call-1'),
    done('call-1'),
    { sessionUpdate: 'usage_update', used: 9, size: 100 },
  ];
  assert.deepEqual(mergeReplay(whole, replay), { verdict: 'merged', append: [] });
});

test('mergeReplay into a journal with no conversation yet: the whole replay', () => {
  const journal = [wire({ sessionUpdate: 'available_commands_update', availableCommands: [] })];
  const replay = [user('hi'), agent('Hello')];
  assert.deepEqual(mergeReplay(journal, replay), { verdict: 'merged', append: replay });
});

test('ids in a replay: consecutive user texts are separate prompts, agent chunks stay one message', () => {
  const ids = new MessageIdSynthesizer();
  ids.replaying = true;
  const replay = [
    user('slow story'),
    agent('Once '),
    agent('upon'),
    user('[Request interrupted by user]'),
    user('run it'),
    { sessionUpdate: 'user_message_chunk', content: { type: 'resource_link', name: 'a', uri: 'file:///a' } },
    agent('Ran.'),
  ];
  const got = replay.map((raw, seq) => normalizeUpdate(raw, seq, ids).messageId);
  assert.deepEqual(got, ['silo-m0', 'silo-m1', 'silo-m1', 'silo-m3', 'silo-m4', 'silo-m4', 'silo-m6']);
  // Live (not a replay), consecutive id-less chunks of one kind keep sharing an id.
  const live = new MessageIdSynthesizer();
  assert.deepEqual(
    [user('a'), user('b')].map((raw, seq) => normalizeUpdate(raw, seq, live).messageId),
    ['silo-m0', 'silo-m0'],
  );
});

test('ids continue a journal’s id-less message after it is read back', () => {
  const ids = new MessageIdSynthesizer();
  ids.continueFrom({ kind: 'agent_message_chunk', messageId: 'silo-m7', raw: agent('Hel') });
  assert.equal(normalizeUpdate(agent('lo'), 9, ids).messageId, 'silo-m7');
  ids.continueFrom({ kind: 'agent_message_chunk', messageId: 'm-1', raw: agent('Hel', 'm-1') });
  assert.equal(normalizeUpdate(agent('lo'), 9, ids).messageId, 'silo-m9');
});

test('mergeReplay: a replay shaped as codex-acp replays (final tool calls, exec_command, update_plan, no cancelled text) is the same history', () => {
  const plan = (status: string): Raw => ({
    sessionUpdate: 'plan',
    entries: [{ content: 'List', priority: 'medium', status }],
  });
  const journal = [
    prompt('slow story', 0),
    wire(agent('Once upon'), 'silo-m1'),
    { kind: 'turn_end', raw: { stopReason: 'cancelled' } },
    prompt('list it', 3),
    wire(plan('in_progress')),
    wire({
      sessionUpdate: 'tool_call',
      toolCallId: 'call-ls',
      title: 'ls',
      kind: 'execute',
      status: 'pending',
    }),
    wire(done('call-ls')),
    wire(plan('completed')),
    wire(agent('Listed.'), 'silo-m8'),
    end,
  ];
  const codex = [
    user('slow story'),
    user('list it'),
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'update_plan-1',
      title: 'update_plan',
      status: 'completed',
      rawInput: { plan: [{ step: 'List', status: 'in_progress' }] },
    },
    { sessionUpdate: 'tool_call', toolCallId: 'call-ls', title: 'exec_command', status: 'completed' },
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'update_plan-2',
      title: 'update_plan',
      status: 'completed',
      rawInput: { plan: [{ step: 'List', status: 'completed' }] },
    },
    agent('Listed.'),
  ];
  assert.deepEqual(mergeReplay(journal, codex), { verdict: 'merged', append: [] });
  // A turn the journal lacks is appended as the agent sent it.
  assert.deepEqual(mergeReplay(journal, [...codex, user('again'), agent('Again.')]), {
    verdict: 'merged',
    append: [user('again'), agent('Again.')],
  });
  // Text the journal does not hold is still another history.
  assert.equal(
    mergeReplay(journal, [user('slow story'), user('list it'), agent('Other.')]).verdict,
    'cannot-merge',
  );
});

test('mergeReplay: a replay shaped as Gemini CLI replays (hidden context, function markers) is the same history', () => {
  const journal = [prompt('hi', 0), wire(agent('Hello.'), 'silo-m1'), end];
  const gemini = [
    user('<session_context>\nThis is the Gemini CLI.\n</session_context>'),
    user('hi'),
    agent('Hello.'),
  ];
  assert.deepEqual(mergeReplay(journal, gemini), { verdict: 'merged', append: [] });
  const more = [
    ...gemini,
    user('list it'),
    agent('\n[Function Call: ls]'),
    user('[Function Response: ls]'),
    agent('Listed.'),
  ];
  assert.deepEqual(mergeReplay(journal, more), { verdict: 'merged', append: more.slice(3) });
});

test('mergeReplay: a Gemini CLI replay of the same history, its tool calls grouped after the last turn and its cancelled turn omitted, adds nothing', () => {
  const journal = [
    prompt('slow story', 0),
    wire(agent('Once upon'), 'silo-m1'),
    { kind: 'turn_end', raw: { stopReason: 'cancelled' } },
    prompt('read and edit', 3),
    wire(agent('Reading.'), 'silo-m4'),
    wire(tool('call-read')),
    wire(done('call-read')),
    wire(tool('call-edit')),
    wire(done('call-edit')),
    wire(agent('Edited.'), 'silo-m9'),
    end,
  ];
  const context = user('<session_context>\nThis is the Gemini CLI.\n</session_context>');
  const marker = (name: string) => [
    agent(`\n[Function Call: ${name}]`),
    user(`[Function Response: ${name}]`),
  ];
  const gemini = [
    context,
    user('read and edit'),
    agent('Reading.'),
    ...marker('call-read'),
    ...marker('call-edit'),
    agent('Edited.'),
    { ...tool('call-read'), status: 'completed' },
    { ...tool('call-edit'), status: 'completed' },
  ];
  assert.deepEqual(mergeReplay(journal, gemini), { verdict: 'merged', append: [] });
  // A tool call the journal does not hold, or other text: where it belongs cannot be told.
  assert.equal(mergeReplay(journal, [...gemini, tool('call-other')]).verdict, 'cannot-merge');
  const otherText = gemini.map((u) => (u === gemini[7] ? agent('Edited it.') : u));
  assert.equal(mergeReplay(journal, otherText).verdict, 'cannot-merge');
  // A turn the journal lacks is not appended this way either (its tool calls cannot be placed).
  assert.equal(
    mergeReplay(journal, [...gemini.slice(0, 8), user('more'), ...gemini.slice(8)]).verdict,
    'cannot-merge',
  );
});

/** A cancelled turn and one after it, as Silo journals them (streamed chunks, agent message ids). */
const afterCancel = [
  prompt('slow story', 0),
  wire(agent('Once ', 'm-1'), 'm-1'),
  wire(agent('upon', 'm-1'), 'm-1'),
  { kind: 'turn_end', raw: { stopReason: 'cancelled' } },
  prompt('run it', 4),
  wire(agent('Let me ', 'm-2'), 'm-2'),
  wire(agent('run it.', 'm-2'), 'm-2'),
  wire(tool('call-1')),
  wire(done('call-1')),
  wire(agent('It ran.', 'm-3'), 'm-3'),
  end,
];

test('mergeReplay: claude-agent-acp’s replay (whole messages, "[Request interrupted by user]" after a cancelled turn) is the same history; a turn it has at its end is appended', () => {
  const claude = [
    user('slow story', 'u-1'),
    agent('Once upon', 'm-1'),
    user('[Request interrupted by user]', 'u-2'),
    user('run it', 'u-3'),
    agent('Let me run it.', 'm-2'),
    tool('call-1'),
    done('call-1'),
    agent('It ran.', 'm-3'),
  ];
  assert.deepEqual(mergeReplay(afterCancel, claude), { verdict: 'merged', append: [] });
  const more = [user('and again', 'u-4'), agent('Again.', 'm-4')];
  assert.deepEqual(mergeReplay(afterCancel, [...claude, ...more]), { verdict: 'merged', append: more });
});

test('mergeReplay: claude-agent-acp 0.23’s replay, starting with /model command markup the client never sent and without ids, is the same history', () => {
  const markup = [
    user(
      '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>',
    ),
    user('<local-command-stdout>Set model to sonnet</local-command-stdout>'),
  ];
  const replay = [
    ...markup,
    user('slow story'),
    agent('Once upon'),
    user('[Request interrupted by user]'),
    user('run it'),
    agent('Let me run it.'),
    tool('call-1'),
    agent('It ran.'),
  ];
  assert.deepEqual(mergeReplay(afterCancel, replay), { verdict: 'merged', append: [] });
  assert.deepEqual(mergeReplay(afterCancel, [...replay, user('next')]), {
    verdict: 'merged',
    append: [user('next')],
  });
});

test('mergeReplay: a tool call first seen through its permission request (Qwen Code) is a tool call; the replay’s tool_call for it matches', () => {
  const permission: Entry = {
    kind: 'permission',
    raw: { toolCall: { toolCallId: 'call-w', title: 'Write a.txt', kind: 'edit' }, options: [] },
  };
  const journal = [
    prompt('write it', 0),
    wire(agent('I will write it.'), 'silo-m1'),
    permission,
    { kind: 'permission_resolution', raw: {} },
    wire({ sessionUpdate: 'tool_call_update', toolCallId: 'call-w', status: 'in_progress' }),
    wire(done('call-w')),
    wire(agent('Written.'), 'silo-m6'),
    end,
  ];
  const qwen = [
    user('write it'),
    agent('I will write it.'),
    { ...tool('call-w'), status: 'completed' },
    agent('Written.'),
  ];
  assert.deepEqual(mergeReplay(journal, qwen), { verdict: 'merged', append: [] });
  // A refused call the agent keeps no trace of is no difference either.
  const refused = [journal[0]!, journal[1]!, permission, wire(agent('Not written.'), 'silo-m3'), end];
  assert.deepEqual(
    mergeReplay(refused, [user('write it'), agent('I will write it.'), agent('Not written.')]),
    {
      verdict: 'merged',
      append: [],
    },
  );
});

test('mergeReplay: live text the replay leaves out (Copilot CLI’s "Info: <path>" after a write) is no difference', () => {
  const journal = [
    prompt('write it', 0),
    wire(tool('call-w')),
    wire(done('call-w')),
    wire(agent('Info: /tmp/a.txt'), 'silo-m3'),
    wire(agent('Done.', 'm-9'), 'm-9'),
    end,
  ];
  const copilot = [user('write it'), { ...tool('call-w'), status: 'completed' }, agent('Done.')];
  assert.deepEqual(mergeReplay(journal, copilot), { verdict: 'merged', append: [] });
  assert.deepEqual(mergeReplay(journal, [...copilot, user('more'), agent('More.')]), {
    verdict: 'merged',
    append: [user('more'), agent('More.')],
  });
});

test('mergeReplay: a tool call patched before it is announced (Cline) is one tool call on both sides', () => {
  const journal = [
    prompt('list', 0),
    wire({ sessionUpdate: 'tool_call_update', toolCallId: 'call-ls', status: 'in_progress' }),
    wire(tool('call-ls')),
    wire(done('call-ls')),
    wire(agent('Listed.'), 'silo-m4'),
    end,
  ];
  const inOrder = [user('list'), tool('call-ls'), done('call-ls'), agent('Listed.')];
  assert.deepEqual(mergeReplay(journal, inOrder), { verdict: 'merged', append: [] });
  const asLive = [user('list'), ...journal.slice(1, 5).map((u) => u.raw)];
  assert.deepEqual(mergeReplay(journal, asLive), { verdict: 'merged', append: [] });
});
