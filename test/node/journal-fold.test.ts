// The journal's fold (worker/journal-fold.ts): what binding a session learns of its journal, from the
// start or from a kept fold, against what reading the whole journal update by update gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reduceSessionStates } from '../../src/session-state.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { JournalFold } from '../../worker/journal-fold.ts';
import { MessageIdSynthesizer, normalizeUpdate } from '../../worker/normalize.ts';
import { journalHolding } from '../../worker/restore.ts';
import { LiveSessionState } from '../../worker/state.ts';
import { SubagentSessions } from '../../worker/subagents.ts';
import { TurnFrames } from '../../worker/turns.ts';
import { agent, type Raw } from '../support/raw-updates.ts';

/** A journal as a session writes it: the agent's updates normalized, Silo's own rows as it records them. */
function journal(): AgentSessionUpdate[] {
  const ids = new MessageIdSynthesizer();
  const out: AgentSessionUpdate[] = [];
  const wire = (raw: Raw, subagentSessionId?: string) =>
    out.push({
      ...normalizeUpdate(raw, out.length, ids),
      ...(subagentSessionId ? { subagentSessionId } : {}),
    });
  const silo = (u: Omit<AgentSessionUpdate, 'seq'>) => out.push({ ...u, seq: out.length });
  const prompt = (t: string) =>
    silo({
      kind: 'user_message_chunk',
      messageId: `silo-u${out.length}`,
      text: t,
      timestamp: '2026-12-06T05:00:00.000Z',
      raw: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: t } },
    });
  const end = () =>
    silo({ kind: 'turn_end', turnEnd: { stopReason: 'end_turn' }, raw: { stopReason: 'end_turn' } });
  wire({
    sessionUpdate: 'available_commands_update',
    availableCommands: [{ name: 'plan', description: 'Plan' }],
  });
  prompt('/plan');
  wire(agent('planning'));
  end();
  prompt('Fix the login form');
  wire(agent('Looking'));
  wire(agent(' at it'));
  silo({ kind: 'permission', permission: { id: 'p1', options: [] }, raw: {} });
  silo({ kind: 'permission_resolution', permission: { id: 'p1', resolution: 'selected' }, raw: {} });
  wire({ sessionUpdate: 'subagent_update', sessionId: 'child-1' });
  wire(agent('child work'), 'child-1');
  wire({ sessionUpdate: 'subagent_update', sessionId: 'grandchild' }, 'child-1');
  wire({ sessionUpdate: 'usage_update', used: 100, size: 1000 });
  silo({ kind: 'elicitation', elicitation: { id: 'e1' } as AgentSessionUpdate['elicitation'], raw: {} });
  end();
  wire({ sessionUpdate: 'session_info_update', title: 'Login form' });
  silo({ kind: 'turn_start', turnStart: { origin: 'agent' }, raw: { origin: 'agent' } });
  wire(agent('a background task finished'));
  return out;
}

/** The fold of `updates` from the start. */
const foldOf = (updates: readonly AgentSessionUpdate[], from?: JournalFold) => {
  const fold = from ?? new JournalFold();
  for (const u of updates) fold.add(u);
  return fold;
};

test('the fold says what reading the whole journal update by update says', () => {
  const j = journal();
  const l = foldOf(j).snapshot();
  const own = j.filter((u) => u.subagentSessionId === undefined);
  assert.equal(l.seq, j.length);
  assert.equal(l.holding, journalHolding(j));
  assert.deepEqual(
    l.requests,
    [{ kind: 'elicitation', id: 'e1' }],
    'the answered permission is closed, the question is open',
  );
  assert.deepEqual(l.children, ['child-1', 'grandchild']);
  const frames = new TurnFrames(() => {});
  for (const u of own) frames.learn(u);
  assert.deepEqual(l.frame, { open: frames.open, ended: false });
  assert.equal(l.frame.open, 'agent');
  const live = new LiveSessionState();
  for (const u of own) live.apply(u);
  assert.deepEqual(l.state, live.current);
  assert.equal(l.state.title, 'Login form');
  assert.equal(l.titled, true);
  assert.deepEqual(l.last, { kind: 'agent_message_chunk', messageId: j.at(-1)!.messageId, raw: {} });
});

test('a fold kept at any point and carried on equals the fold from the start', () => {
  const j = journal();
  const whole = foldOf(j).snapshot();
  for (let k = 0; k <= j.length; k++) {
    // As IndexedDB keeps it: a structured clone.
    const kept = structuredClone(foldOf(j.slice(0, k)).snapshot());
    assert.deepEqual(foldOf(j.slice(k), new JournalFold(kept)).snapshot(), whole, `kept after ${k} updates`);
  }
});

test("restoring the fold's state names the session as reading the journal from the remembered title does", () => {
  const j = journal();
  const cases: [string, AgentSessionUpdate[]][] = [
    ['no title event', j.slice(0, 12)],
    ['the agent named it', j],
    [
      'the agent cleared the name',
      [...j, { kind: 'session_info_update', raw: { title: null }, seq: j.length }],
    ],
  ];
  for (const [name, updates] of cases)
    for (const title of [undefined, 'Imported title']) {
      const own = updates.filter((u) => u.subagentSessionId === undefined);
      // Before the fold: the remembered title first, then every update read back.
      const expected = reduceSessionStates(own, {
        ...new LiveSessionState().current,
        ...(title ? { title } : {}),
      });
      const l = foldOf(updates).snapshot();
      const restored = new LiveSessionState();
      restored.restore(l.state, l.titled, title ? { title } : {});
      assert.deepEqual(restored.current, expected, `${name}, remembered title ${title}`);
    }
});

test('a subagent announced by an unknown session is not learned; its work is not the session state', () => {
  const fold = foldOf([
    { kind: 'subagent_update', raw: { sessionId: 'x' }, subagentSessionId: 'stranger', seq: 0 },
    { kind: 'usage_update', raw: { used: 5, size: 10 }, subagentSessionId: 'stranger', seq: 1 },
  ]);
  const l = fold.snapshot();
  assert.deepEqual(l.children, []);
  assert.equal(l.state.usage, undefined);
  const subagents = new SubagentSessions();
  subagents.restore(l.children);
  assert.equal(subagents.has('x'), false);
});
