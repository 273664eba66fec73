// One session-state reducer for the worker's snapshot and the transcript model: one list of updates,
// fed to both, gives the same title, usage and commands (and the worker its config options and mode).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mapModels, mapModes } from '../../src/config-options.ts';
import { promptTitle } from '../../src/prompt-title.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { MessageIdSynthesizer, normalizeUpdate } from '../../worker/normalize.ts';
import { LiveSessionState } from '../../worker/state.ts';

/** Raw updates as an agent sends them, normalized as the worker journals them. */
function journal(raws: Record<string, unknown>[]): AgentSessionUpdate[] {
  const ids = new MessageIdSynthesizer();
  return raws.map((raw, seq) => normalizeUpdate(raw, seq, ids));
}

const MODES = {
  currentModeId: 'ask',
  availableModes: [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code', description: 'Writes code' },
  ],
};

const UPDATES = journal([
  { sessionUpdate: 'session_info_update', title: 'First title' },
  { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'hi' } },
  { sessionUpdate: 'usage_update', used: 10, size: 1000 },
  { sessionUpdate: 'usage_update', used: 'lots', size: 1000 },
  { sessionUpdate: 'usage_update', used: 25, size: 1000, cost: { amount: 0.25, currency: 'EUR' } },
  {
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'review', description: 'Review code', input: { hint: 'path' } },
      { description: 'no name: dropped' },
      { name: 'plain' },
    ],
  },
  { sessionUpdate: 'session_info_update', title: null },
  { sessionUpdate: 'session_info_update', title: 'Final title' },
  { sessionUpdate: 'session_info_update', title: 42 },
  { sessionUpdate: 'current_mode_update', currentModeId: 'code' },
  {
    sessionUpdate: 'config_option_update',
    configOptions: [
      { id: 'model', name: 'Model', type: 'select', currentValue: 'fast', options: [{ value: 'fast' }] },
      { id: 'weird', type: '_slider', currentValue: 3 },
    ],
  },
]);

describe('session-state reducer: the worker snapshot and the transcript model agree', () => {
  test('one update list, fed to both, gives the same title, usage and commands', () => {
    const worker = new LiveSessionState();
    worker.applyResponse({ modes: MODES });
    for (const u of UPDATES) worker.apply(u);
    const model = new TranscriptModel();
    model.applyAll(UPDATES);

    const expected = {
      title: 'Final title',
      usage: { used: 25, size: 1000, cost: { amount: 0.25, currency: 'EUR' } },
      commands: [
        { name: 'review', description: 'Review code', hint: 'path' },
        { name: 'plain', description: '' },
      ],
    };
    const { title, usage, commands } = worker.current;
    assert.deepEqual({ title, usage, commands }, expected, 'worker');
    assert.deepEqual(
      { title: model.current.title, usage: model.current.usage, commands: model.current.commands },
      expected,
      'transcript model',
    );
    assert.deepEqual(worker.options, [
      {
        id: 'model',
        name: 'Model',
        source: 'config',
        type: 'select',
        currentValue: 'fast',
        options: [{ value: 'fast', name: 'fast' }],
      },
      {
        id: 'mode',
        name: 'Mode',
        category: 'mode',
        type: 'select',
        currentValue: 'code',
        options: [
          { value: 'ask', name: 'Ask' },
          { value: 'code', name: 'Code', description: 'Writes code' },
        ],
        source: 'mode',
      },
    ]);
  });

  test('a title cleared with null is gone for both; only a new title is reported for remembering', () => {
    const cleared = journal([
      { sessionUpdate: 'session_info_update', title: 'Kept?' },
      { sessionUpdate: 'session_info_update', title: null },
    ]);
    const worker = new LiveSessionState();
    assert.deepEqual(
      cleared.map((u) => worker.apply(u)),
      ['Kept?', undefined],
    );
    assert.equal(worker.current.title, undefined);
    const model = new TranscriptModel();
    model.applyAll(cleared);
    assert.equal(model.current.title, undefined);
    assert.deepEqual(UPDATES.map((u) => new LiveSessionState().apply(u)).filter(Boolean), [
      'First title',
      'Final title',
    ]);
  });

  test('title precedence: an agent title sent before the first prompt wins over the prompt’s text', () => {
    const prompt = (text: string, id: string) => ({
      sessionUpdate: 'user_message_chunk',
      messageId: id,
      content: { type: 'text', text },
    });
    const named = journal([
      { sessionUpdate: 'session_info_update', title: 'Named by the agent' },
      prompt('\n  Fix the build\nplease', 'silo-u1'),
      prompt('A second prompt', 'silo-u2'),
    ]);
    const worker = new LiveSessionState();
    assert.deepEqual(
      named.map((u) => worker.apply(u)),
      ['Named by the agent', undefined, undefined],
      'only the agent’s title is reported for remembering',
    );
    assert.equal(worker.current.title, 'Named by the agent', 'worker');
    const model = new TranscriptModel();
    model.applyAll(named);
    assert.equal(model.current.title, 'Named by the agent', 'transcript model');
    // A title remembered with a restored session wins over the next prompt the same way.
    const restored = new LiveSessionState();
    restored.remember({ title: 'Remembered' });
    restored.apply(named[1]!);
    assert.equal(restored.current.title, 'Remembered');
    // With no agent title, the first non-blank line of the first prompt names the session, a later
    // prompt does not rename it, and the agent's title then replaces it.
    const unnamed = journal([
      prompt('\n  Fix the build\nplease', 'silo-u1'),
      prompt('A second prompt', 'silo-u2'),
      { sessionUpdate: 'session_info_update', title: 'Later agent title' },
    ]);
    const titles = new LiveSessionState();
    assert.deepEqual(
      unnamed.map((u) => titles.apply(u)),
      ['Fix the build', undefined, 'Later agent title'],
    );
    const m = new TranscriptModel();
    m.applyAll(unnamed.slice(0, 2));
    assert.equal(m.current.title, 'Fix the build');
  });
});

describe('a title from the first prompt, without protocol noise (issue 28 §4)', () => {
  const user = (text: string): AgentSessionUpdate => ({ kind: 'user_message_chunk', text, raw: {} });
  const titleOf = (...prompts: string[]) => {
    const model = new TranscriptModel();
    model.applyAll(prompts.map(user));
    return model.current.title;
  };

  test('promptTitle: tagged context and fenced files dropped, a slash command without its slash', () => {
    assert.deepEqual(promptTitle('/scenario tools'), { title: 'scenario tools', command: true });
    assert.deepEqual(promptTitle('<system-reminder>be brief</system-reminder>\n\n  Fix the bug  \nmore'), {
      title: 'Fix the bug',
      command: false,
    });
    assert.deepEqual(promptTitle('```\n# Project\n```\nnotes.txt'), { title: 'notes.txt', command: false });
    assert.equal(promptTitle('<session_context>x</session_context>\n  \n'), undefined);
    assert.equal(promptTitle('x'.repeat(100))?.title.length, 80);
  });

  test('a slash command names the session until a prompt of words; then only the agent renames it', () => {
    assert.equal(titleOf('/scenario tools'), 'scenario tools');
    assert.equal(titleOf('/scenario tools', '/review'), 'scenario tools');
    assert.equal(titleOf('/scenario tools', 'Fix the login bug', 'Other'), 'Fix the login bug');
    const model = new TranscriptModel();
    model.applyAll([user('Fix it'), ...journal([{ sessionUpdate: 'session_info_update', title: 'Agent' }])]);
    model.apply(user('ignored'));
    assert.equal(model.current.title, 'Agent');
  });
});

describe('the legacy pickers (`modes`, the unstable `models`) as one select option each', () => {
  test('each maps its current value and list, names falling back to ids; a malformed one maps to none', () => {
    assert.deepEqual(
      mapModels({
        currentModelId: 'opus',
        availableModels: [
          { modelId: 'opus', name: 'Opus', description: 'big' },
          { modelId: 'haiku' },
          { id: 'x' },
        ],
      }),
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: 'opus',
        options: [
          { value: 'opus', name: 'Opus', description: 'big' },
          { value: 'haiku', name: 'haiku' },
        ],
        source: 'model',
      },
    );
    assert.deepEqual(mapModes({ currentModeId: 'ask', availableModes: [{ id: 'ask' }, { modelId: 'x' }] }), {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: 'ask',
      options: [{ value: 'ask', name: 'ask' }],
      source: 'mode',
    });
    assert.equal(mapModels({ currentModelId: 1, availableModels: [] }), undefined);
    assert.equal(mapModes({ currentModeId: 'ask' }), undefined);
  });
});
