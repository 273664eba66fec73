import { expect } from 'chai';
import { TranscriptModel } from '../../../src/transcript/model.ts';
import type {
  CompactionRow,
  ElicitationRow,
  MessageRow,
  PermissionRow,
  PlanRow,
  ToolCallRow,
  TurnEndRow,
} from '../../../src/transcript/rows.ts';
import { COLLIDING_JOURNAL } from '../fixtures/journal-0.1.0.ts';
import {
  chunk,
  journalFromTraffic,
  longConversation,
  raw,
  recordedTraffic,
  tool,
  turnEnd,
  userPrompt,
} from '../fixtures/transcript-data.ts';

function fold(...updates: Parameters<TranscriptModel['apply']>[0][]): TranscriptModel {
  const m = new TranscriptModel();
  m.applyAll(updates);
  return m;
}

describe('transcript model', () => {
  it('groups chunks into one bubble per messageId and role, interleaved ids included', () => {
    const m = fold(
      userPrompt('hi', 'u1'),
      chunk('A1 ', 'A'),
      chunk('B1 ', 'B'),
      chunk('A2', 'A'),
      chunk('thinking', 'A', 'agent_thought_chunk'),
      chunk('B2', 'B'),
    );
    const msgs = m.rows as MessageRow[];
    expect(msgs.map((r) => [r.role, r.text])).to.deep.equal([
      ['user', 'hi'],
      ['agent', 'A1 A2'],
      ['agent', 'B1 B2'],
      ['thought', 'thinking'],
    ]);
  });

  it('groups id-less chunks of one kind until something else intervenes', () => {
    const m = fold(
      chunk('a', undefined),
      chunk('b', undefined),
      chunk('t', undefined, 'agent_thought_chunk'),
      chunk('c', undefined),
      tool({ toolCallId: 'x', title: 'X' }, true),
      chunk('d', undefined),
    );
    expect(m.rows.map((r) => (r.type === 'message' ? r.text : r.type))).to.deep.equal([
      'ab',
      't',
      'c',
      'tool',
      'd',
    ]);
  });

  it('keeps non-text blocks of a message as parts', () => {
    const m = fold(
      chunk('look: ', 'm'),
      raw({
        sessionUpdate: 'agent_message_chunk',
        messageId: 'm',
        content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      }),
      chunk('done', 'm'),
    );
    const row = m.rows[0] as MessageRow;
    expect(row.parts.map((p) => p.type)).to.deep.equal(['text', 'block', 'text']);
    expect(row.text).to.equal('look: done');
  });

  it('patches one tool row per toolCallId: null/omitted unchanged, content and locations replaced', () => {
    const m = fold(
      tool({ toolCallId: 't1', title: 'Preparing…', kind: 'edit', content: [] }, true),
      tool({ toolCallId: 't1', title: 'Write a.txt', locations: [{ path: '/a.txt' }] }),
      tool({
        toolCallId: 't1',
        title: null,
        content: [{ type: 'diff', path: '/a.txt', oldText: null, newText: 'x\n' }],
      }),
      tool({ toolCallId: 't1', status: 'completed', locations: [{ path: '/b.txt', line: 3 }] }),
      tool({ toolCallId: 't1', title: 'Write a.txt', kind: 'edit' }, true),
    );
    expect(m.rows).to.have.length(1);
    const call = (m.rows[0] as ToolCallRow).toolCall;
    expect(call.title).to.equal('Write a.txt');
    expect(call.kind).to.equal('edit');
    expect(call.status).to.equal('completed');
    expect(call.locations).to.deep.equal([{ path: '/b.txt', line: 3 }]);
    expect(call.content).to.have.length(1);
    const cleared = fold(
      tool({ toolCallId: 't', content: [{ type: 'content', content: { type: 'text', text: 'x' } }] }),
      tool({ toolCallId: 't', content: [] }),
    );
    expect((cleared.rows[0] as ToolCallRow).toolCall.content).to.deep.equal([]);
  });

  it('creates a tool row for an update with an unseen id, to be filled later', () => {
    const m = fold(tool({ toolCallId: 'late', status: 'in_progress' }));
    const call = (m.rows[0] as ToolCallRow).toolCall;
    expect(call).to.include({ toolCallId: 'late', status: 'in_progress', kind: 'other' });
    expect(call.title).to.equal(undefined);
  });

  it('replaces the plan whole, one plan row per turn', () => {
    const m = fold(
      userPrompt('go'),
      raw({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] }),
      chunk('x', 'm'),
      raw({
        sessionUpdate: 'plan',
        entries: [
          { content: 'a', priority: 'high', status: 'completed' },
          { content: 'b', priority: 'low', status: 'in_progress' },
        ],
      }),
    );
    const plans = m.rows.filter((r): r is PlanRow => r.type === 'plan');
    expect(plans).to.have.length(1);
    expect(m.rows.indexOf(plans[0]!)).to.equal(1);
    expect(plans[0]!.entries.map((e) => e.status)).to.deep.equal(['completed', 'in_progress']);
    expect(m.current.plan).to.have.length(2);
  });

  it('keeps usage, title and commands as state, not rows', () => {
    const m = fold(
      raw({ sessionUpdate: 'usage_update', used: 10, size: 100 }),
      raw({ sessionUpdate: 'usage_update', used: 40, size: 100, cost: { amount: 0.5, currency: 'EUR' } }),
      raw({ sessionUpdate: 'session_info_update', title: 'Greeting' }),
      raw({
        sessionUpdate: 'available_commands_update',
        availableCommands: [{ name: 'review', description: 'Review code', input: { hint: 'path' } }],
      }),
    );
    expect(m.rows).to.have.length(0);
    expect(m.current.usage).to.deep.equal({ used: 40, size: 100, cost: { amount: 0.5, currency: 'EUR' } });
    expect(m.current.title).to.equal('Greeting');
    expect(m.current.commands).to.deep.equal([{ name: 'review', description: 'Review code', hint: 'path' }]);
    m.apply(raw({ sessionUpdate: 'session_info_update', title: null }));
    expect(m.current.title).to.equal(undefined);
  });

  it('fixes a compaction at its first position, chunk before update included, and patches it', () => {
    const m = fold(
      raw({
        sessionUpdate: 'compaction_summary_chunk',
        compactionId: 'c1',
        content: { type: 'text', text: 'part 1' },
      }),
      chunk('later', 'm'),
      raw({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }),
      raw({
        sessionUpdate: 'compaction_summary_chunk',
        compactionId: 'c1',
        content: { type: 'text', text: 'part 2' },
      }),
    );
    const c = m.rows[0] as CompactionRow;
    expect(c.type).to.equal('compaction');
    expect(c.status).to.equal('completed');
    expect(c.summary).to.have.length(2);
    m.apply(
      raw({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [] }),
    );
    expect((m.rows[0] as CompactionRow).summary).to.deep.equal([]);
    m.apply(raw({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'failed', error: 'boom' }));
    expect(m.rows[0]).to.include({ status: 'failed', error: 'boom' });
    expect(m.rows).to.have.length(2);
  });

  it('adds notices, permission and elicitation rows with their resolutions', () => {
    const m = fold(
      raw({ sessionUpdate: 'notice', severity: '_critical', title: 'Heads up' }),
      {
        kind: 'permission',
        permission: {
          id: 'p1',
          toolCall: { toolCallId: 'never-announced', title: 'rm -rf build', kind: 'execute' },
          options: [
            { optionId: 'y', name: 'Allow', kind: 'allow_once' },
            { optionId: 'n', name: 'Reject', kind: 'reject_once' },
          ],
        },
        raw: {},
      },
      {
        kind: 'permission_resolution',
        permission: { id: 'p1', resolution: 'selected', optionId: 'n' },
        raw: {},
      },
      { kind: 'elicitation', elicitation: { id: 'e1', message: 'Which?', questions: [] }, raw: {} },
      { kind: 'elicitation_resolution', elicitation: { id: 'e1', resolution: 'declined' }, raw: {} },
    );
    // The permission names a tool call: its card (drawn from the request) holds it, no row of its own.
    expect(m.rows.map((r) => r.type)).to.deep.equal(['notice', 'tool', 'elicitation']);
    expect(m.rows[0]).to.include({ severity: '_critical', title: 'Heads up' });
    const card = m.rows[1] as ToolCallRow;
    expect(card.toolCall.title).to.equal('rm -rf build');
    expect(card.permission).to.include({ type: 'permission', key: 'p:p1' });
    const p = card.permission!.record;
    expect(p).to.include({ id: 'p1', resolution: 'selected', optionId: 'n' });
    expect(p.options).to.have.length(2);
    expect(m.get('p:p1')).to.equal(card);
    expect(m.indexOf('p:p1')).to.equal(1);
    expect(m.rows[2]).to.have.nested.property('record.message', 'Which?');
    expect(m.rows[2]).to.have.nested.property('record.resolution', 'declined');
  });

  it('a url question’s completion patches its row', () => {
    const m = fold(
      {
        kind: 'elicitation',
        elicitation: { id: 'u1', mode: 'url', message: 'Sign in', url: 'https://example.com/' },
        raw: {},
      },
      { kind: 'elicitation_resolution', elicitation: { id: 'u1', resolution: 'answered' }, raw: {} },
      { kind: 'elicitation_complete', elicitation: { id: 'u1', completed: true }, raw: {} },
    );
    expect(m.rows).to.have.length(1);
    expect(m.rows[0]).to.have.nested.property('record.resolution', 'answered');
    expect(m.rows[0]).to.have.nested.property('record.completed', true);
  });

  it('marks unfinished tool calls cancelled when the turn was cancelled, finished ones stay', () => {
    const m = fold(
      userPrompt('go'),
      tool({ toolCallId: 'a', title: 'A', status: 'in_progress' }, true),
      tool({ toolCallId: 'b', title: 'B', status: 'completed' }, true),
      tool({ toolCallId: 'c', title: 'C' }, true),
      turnEnd('cancelled'),
    );
    const statuses = m.rows.filter((r): r is ToolCallRow => r.type === 'tool').map((r) => r.toolCall.status);
    expect(statuses).to.deep.equal(['cancelled', 'completed', 'cancelled']);
    expect((m.rows.at(-1) as TurnEndRow).stopReason).to.equal('cancelled');
    expect(m.current.inTurn).to.equal(false);
  });

  it('marks unfinished tool calls cancelled whatever the stop reason, interrupted when a turn never ended before the next prompt', () => {
    const m = fold(
      userPrompt('ask first', 'u1'),
      tool({ toolCallId: 'asked', title: 'ls -la', status: 'pending' }, true),
      turnEnd('end_turn'),
      userPrompt('page died in this turn', 'u2'),
      tool({ toolCallId: 'running', title: 'Run', status: 'in_progress' }, true),
      userPrompt('next prompt', 'u3'),
    );
    const statuses = m.rows.filter((r): r is ToolCallRow => r.type === 'tool').map((r) => r.toolCall.status);
    expect(statuses).to.deep.equal(['cancelled', 'interrupted']);
  });

  it('marks a refused turn as left out of the agent context', () => {
    const m = fold(
      userPrompt('first'),
      chunk('ok', 'a1'),
      turnEnd('end_turn'),
      userPrompt('bad'),
      chunk('no', 'a2'),
    );
    m.apply(turnEnd('refusal'));
    const msgs = m.rows.filter((r): r is MessageRow => r.type === 'message');
    expect(msgs.map((r) => Boolean(r.excluded))).to.deep.equal([false, false, true, true]);
    expect(m.turnsStarted).to.equal(2);
    expect(m.turnsEnded).to.equal(2);
  });

  it('shows unknown kinds and malformed updates generically, never throwing, and continues', () => {
    const m = fold(
      raw({ sessionUpdate: '_vendor_thing', x: 1 }),
      raw({ sessionUpdate: 'tool_call' }),
      { kind: 'permission', raw: {} },
      null as never,
      { kind: 42 as never, raw: null as never },
      chunk('still here', 'm'),
    );
    expect(m.rows.map((r) => (r.type === 'unknown' ? r.kind : r.type))).to.deep.equal([
      '_vendor_thing',
      'tool_call',
      'permission',
      'invalid',
      'invalid',
      'message',
    ]);
  });

  it('touches only the row an update patches and skips already-applied seqs', () => {
    const m = new TranscriptModel();
    m.applyAll(
      [userPrompt('q'), chunk('a', 'm'), tool({ toolCallId: 't', title: 'T' }, true)].map((u, seq) => ({
        ...u,
        seq,
      })),
    );
    const before = [...m.rows];
    expect(m.apply({ ...chunk('b', 'm'), seq: 3 })).to.equal(1);
    expect(m.rows[0]).to.equal(before[0]);
    expect(m.rows[2]).to.equal(before[2]);
    expect(m.rows[1]).to.not.equal(before[1]);
    expect((m.rows[1] as MessageRow).text).to.equal('ab');
    expect(m.apply({ ...chunk('b', 'm'), seq: 3 })).to.equal(-1);
    expect((m.rows[1] as MessageRow).text).to.equal('ab');
  });

  it('folds the recorded claude-agent-acp traffic completely', async () => {
    const journal = journalFromTraffic(await recordedTraffic('main'));
    const m = fold(...journal);
    const count = (t: string) => m.rows.filter((r) => r.type === t).length;
    expect(count('unknown')).to.equal(0);
    expect(count('tool')).to.equal(5);
    // The 4 permission requests all name their tool calls: each card holds its own.
    expect(count('permission')).to.equal(0);
    expect(m.rows.filter((r) => r.type === 'tool' && r.permission).length).to.equal(4);
    expect(count('turn-end')).to.equal(5);
    expect(count('plan')).to.equal(1);
    const users = m.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'user');
    expect(users).to.have.length(5);
    const ends = m.rows.filter((r): r is TurnEndRow => r.type === 'turn-end').map((r) => r.stopReason);
    expect(ends).to.deep.equal(['end_turn', 'end_turn', 'cancelled', 'end_turn', 'cancelled']);
    const write = m.rows.find((r): r is ToolCallRow => r.type === 'tool' && r.toolCall.name === 'Write')!;
    expect(write.toolCall).to.include({ title: 'Write hello.txt', kind: 'edit', status: 'completed' });
    expect(write.toolCall.content[0]).to.include({ type: 'diff', oldText: null });
    // The agent itself failed the call whose permission was cancelled; its word stands.
    const last = m.rows.filter((r): r is ToolCallRow => r.type === 'tool').at(-1)!;
    expect(last.toolCall.status).to.equal('failed');
    expect(m.current.title).to.be.a('string').and.not.empty;
    expect(m.current.usage?.cost?.currency).to.equal('USD');
    expect(m.current.commands.length).to.be.greaterThan(0);
    for (const name of ['load', 'resume'] as const) {
      const other = fold(...journalFromTraffic(await recordedTraffic(name)));
      expect(other.rows.filter((r) => r.type === 'unknown')).to.have.length(0);
      expect(other.rows.length).to.be.greaterThan(3);
    }
  });

  it('folds 100,000 updates in linear time (a ratio against 10,000 in the same run, not a time limit)', () => {
    const foldTime = (n: number) => {
      const updates = longConversation(n);
      const t0 = performance.now();
      const m = new TranscriptModel();
      m.applyAll(updates);
      return { ms: performance.now() - t0, rows: m.rows.length };
    };
    foldTime(10_000); // warms the JIT, so the small fold is not charged for it
    const small = foldTime(10_000);
    const large = foldTime(100_000);
    expect(large.rows).to.be.greaterThan(20_000);
    // Linear is ~10×; a fold that rescans its rows on every update is ~100×. The bound leaves room for a
    // loaded machine's noise and garbage collection without letting a quadratic fold through.
    const ratio = large.ms / Math.max(small.ms, 1);
    expect(ratio, `100,000 took ${large.ms.toFixed(0)} ms, 10,000 ${small.ms.toFixed(0)} ms`).to.be.lessThan(
      25,
    );
  });
});

describe('transcript model: request ids that collide in a 0.1.0 journal', () => {
  it('renders every request as its own row with its own tool and answer', () => {
    const m = fold(...COLLIDING_JOURNAL);
    // Each permission is held by the card of its own tool call.
    const permissions = m.rows.flatMap((r) => (r.type === 'tool' && r.permission ? [r.permission] : []));
    expect(
      permissions.map((r) => [r.record.id, r.record.toolCall?.title, r.record.resolution, r.record.optionId]),
    ).to.deep.equal([
      ['p1-0', 'Write a.txt', 'selected', 'allow-once'],
      ['p1-0', 'Write b.txt', 'selected', 'reject-once'],
    ]);
    const questions = m.rows.filter((r): r is ElicitationRow => r.type === 'elicitation');
    expect(questions.map((r) => [r.record.message, r.record.resolution, r.record.answers])).to.deep.equal([
      ['First question', 'answered', { color: 'red' }],
      ['Second question', 'declined', undefined],
    ]);
    expect(new Set(m.rows.map((r) => r.key)).size).to.equal(m.rows.length, 'row keys are unique');
    expect(m.rows.map((r) => r.type)).to.deep.equal([
      'message',
      'tool',
      'elicitation',
      'turn-end',
      'message',
      'tool',
      'elicitation',
      'turn-end',
    ]);
    expect(permissions[0]!.key).to.equal('p:p1-0');
    expect(permissions[1]!.key).to.match(/^p:p1-0#\d+$/);
  });

  it('a card holds the first permission of its call; a second one, or one naming no call, is a row', () => {
    const ask = (id: string, toolCallId?: string) => ({
      kind: 'permission' as const,
      permission: {
        id,
        ...(toolCallId ? { toolCall: { toolCallId, title: `call ${toolCallId}` } } : {}),
        options: [],
      },
      raw: {},
    });
    const m = fold(
      tool({ toolCallId: 'c1', title: 'Write a.txt', kind: 'edit', status: 'pending' }, true),
      ask('p1', 'c1'),
      { kind: 'permission_resolution', permission: { id: 'p1', resolution: 'cancelled' }, raw: {} },
      ask('p2', 'c1'),
      ask('p3'),
      {
        kind: 'permission_resolution',
        permission: { id: 'p2', resolution: 'selected', optionId: 'y' },
        raw: {},
      },
    );
    expect(m.rows.map((r) => [r.type, r.key])).to.deep.equal([
      ['tool', 't:c1'],
      ['permission', 'p:p2'],
      ['permission', 'p:p3'],
    ]);
    expect((m.rows[0] as ToolCallRow).permission!.record).to.include({ id: 'p1', resolution: 'cancelled' });
    expect((m.rows[1] as PermissionRow).record).to.include({
      id: 'p2',
      resolution: 'selected',
      optionId: 'y',
    });
    expect((m.rows[2] as PermissionRow).record.resolution).to.equal(undefined);
  });

  it('an answer lands on the request still open, not on an older answered one with its id', () => {
    const m = fold(
      { seq: 0, kind: 'permission', permission: { id: 'p1-0', options: [] }, raw: {} },
      { seq: 1, kind: 'permission', permission: { id: 'p1-0', options: [] }, raw: {} },
      { seq: 2, kind: 'permission_resolution', permission: { id: 'p1-0', resolution: 'cancelled' }, raw: {} },
      {
        seq: 3,
        kind: 'permission_resolution',
        permission: { id: 'p1-0', resolution: 'unanswerable' },
        raw: {},
      },
    );
    expect(m.rows.map((r) => (r as PermissionRow).record.resolution)).to.deep.equal([
      'unanswerable',
      'cancelled',
    ]);
  });
});

describe('transcript model: an agent that reuses a tool-call id in a later turn', () => {
  it('keeps the finished turn’s card intact and gives the new call its own card', () => {
    const m = fold(
      userPrompt('first', 'ru1'),
      tool({ toolCallId: 'call-1', title: 'Write a.txt', kind: 'edit', status: 'pending' }, true),
      tool({ toolCallId: 'call-1', status: 'completed' }),
      turnEnd('end_turn'),
      userPrompt('second', 'ru2'),
      tool({ toolCallId: 'call-1', title: 'Write b.txt', kind: 'edit', status: 'pending' }, true),
      // Within one turn a repeated tool_call still upserts its card.
      tool({ toolCallId: 'call-1', title: 'Write b.txt (again)' }, true),
      tool({ toolCallId: 'call-1', status: 'failed' }),
      turnEnd('end_turn'),
    );
    const cards = m.rows.filter((r): r is ToolCallRow => r.type === 'tool');
    expect(cards.map((r) => [r.turn, r.toolCall.title, r.toolCall.status])).to.deep.equal([
      [1, 'Write a.txt', 'completed'],
      [2, 'Write b.txt (again)', 'failed'],
    ]);
    expect(cards[0]!.key).to.not.equal(cards[1]!.key);
  });

  it('an update arriving after the next prompt still patches the earlier turn’s card', () => {
    const m = fold(
      userPrompt('first', 'lu1'),
      tool({ toolCallId: 'late', title: 'Slow', status: 'in_progress' }, true),
      turnEnd('end_turn'),
      userPrompt('second', 'lu2'),
      tool({ toolCallId: 'late', status: 'completed' }),
    );
    const cards = m.rows.filter((r): r is ToolCallRow => r.type === 'tool');
    expect(cards.map((r) => [r.turn, r.toolCall.status])).to.deep.equal([[1, 'completed']]);
  });
});
