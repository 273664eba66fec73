// The turns Silo frames itself (worker/turns.ts), with written-out updates: a turn the agent starts
// by itself, and its end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { TurnFrames } from '../../worker/turns.ts';
import { agent, type Raw } from '../support/raw-updates.ts';

/** Frames fed as the session feeds them: every update journaled is learnt, Silo's records included. */
function frames() {
  const recorded: Omit<AgentSessionUpdate, 'seq'>[] = [];
  const f: TurnFrames = new TurnFrames((u) => {
    recorded.push(u);
    f.learn(u);
  });
  const agentSends = (raw: Raw, live = true) => {
    f.beforeUpdate(raw, live);
    f.learn({ kind: String(raw.sessionUpdate) });
    f.afterUpdate(raw, live);
  };
  return { f, recorded, agentSends };
}
const prompt = { kind: 'user_message_chunk', messageId: 'silo-u0' };
const end = { kind: 'turn_end' };
const kinds = (r: Omit<AgentSessionUpdate, 'seq'>[]) =>
  r.map((u) => `${u.kind} ${u.turnEnd?.stopReason ?? ''}`.trim());

test('agent content after a turn ended opens a turn of its own; Claude’s origin usage ends it', () => {
  const { f, recorded, agentSends } = frames();
  f.learn(prompt);
  agentSends(agent('answer'), false); // inside the prompt's turn: not live
  f.learn(end);
  agentSends(agent('the task finished'));
  assert.equal(f.open, 'agent');
  agentSends(agent(' and more'));
  agentSends({
    sessionUpdate: 'usage_update',
    used: 1,
    size: 2,
    _meta: { '_claude/origin': { kind: 'task-notification' } },
  });
  assert.deepEqual(kinds(recorded), ['turn_start', 'turn_end end_turn']);
  assert.equal(f.open, undefined);
});

test('without an end from the agent, its turn ends when the next prompt is sent', () => {
  const { f, recorded, agentSends } = frames();
  f.learn(end);
  agentSends({ sessionUpdate: 'tool_call', toolCallId: 'bg-1', title: 'check' });
  agentSends({ sessionUpdate: 'usage_update', used: 1, size: 2 }); // no origin: not its end
  f.beforePrompt();
  assert.deepEqual(kinds(recorded), ['turn_start', 'turn_end end_turn']);
});

test('no turn of its own: before any turn ended, blank text, a mode marker, a late patch, a replay', () => {
  const { f, recorded, agentSends } = frames();
  agentSends(agent('hello before the first prompt'));
  f.learn(end);
  agentSends(agent('\n\n'));
  agentSends(agent('[MODE_UPDATE] architect'));
  agentSends({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed' });
  agentSends({ sessionUpdate: 'available_commands_update', availableCommands: [] });
  agentSends(agent('replayed'), false);
  f.beforePrompt();
  assert.deepEqual(recorded, []);
});

test('a turn the journal holds open is ended interrupted with the reason', () => {
  const { f, recorded } = frames();
  f.learn(prompt);
  assert.equal(f.open, 'prompt');
  f.end('interrupted', 'The page closed before the turn ended');
  const stamp = recorded[0]?.timestamp;
  assert.ok(typeof stamp === 'string' && !Number.isNaN(Date.parse(stamp)), 'the end is timestamped');
  assert.deepEqual(recorded, [
    {
      kind: 'turn_end',
      turnEnd: {
        stopReason: 'interrupted',
        error: { code: 'interrupted', message: 'The page closed before the turn ended' },
      },
      timestamp: stamp,
      raw: {
        stopReason: 'interrupted',
        error: { code: 'interrupted', message: 'The page closed before the turn ended' },
      },
    },
  ]);
  assert.equal(f.open, undefined);
});
