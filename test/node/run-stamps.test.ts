// The arrival times the worker stamps on live runs (worker/run-stamps.ts), with written-out updates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { RunStamps } from '../../worker/run-stamps.ts';

const chunk = (kind: string, messageId: string): AgentSessionUpdate => ({
  kind,
  messageId,
  text: 'x',
  raw: { sessionUpdate: kind },
});

test('the first update of each live run is stamped; the rest of the run and a replay are not', () => {
  const stamps = new RunStamps();
  assert.ok(stamps.stamp(chunk('agent_thought_chunk', 'm1'), false).timestamp);
  assert.equal(stamps.stamp(chunk('agent_thought_chunk', 'm1'), false).timestamp, undefined);
  assert.ok(stamps.stamp(chunk('agent_message_chunk', 'm2'), false).timestamp);
  assert.equal(stamps.stamp(chunk('agent_message_chunk', 'm3'), true).timestamp, undefined);
});

test("the agent's user chunk gets no time: a timestamped user chunk is Silo's own prompt", () => {
  const stamps = new RunStamps();
  assert.equal(stamps.stamp(chunk('user_message_chunk', 'u1'), false).timestamp, undefined);
  // It still ends the run before it: the agent's next message is a run of its own.
  assert.ok(stamps.stamp(chunk('agent_message_chunk', 'm1'), false).timestamp);
  assert.equal(stamps.stamp(chunk('user_message_chunk', 'u2'), false).timestamp, undefined);
  assert.ok(stamps.stamp(chunk('agent_message_chunk', 'm1'), false).timestamp);
});
