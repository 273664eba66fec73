// The session core through the real bridge and the real reference agent: every update arrives
// normalized, is journaled in order, and `transcript()` equals what `onUpdate` delivered.
import { expect } from 'chai';
import {
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  type SiloError,
} from '../../../src/index.ts';
import { BURST, WINDOW_MS } from '../../../worker/delivery.ts';
import {
  type TestBridge as BridgeInfo,
  killBridgeAgents as killAgents,
  startBridge,
  stopBridge,
} from '../../support/bridge.ts';
import { until } from '../../support/until.ts';

const CWD = '/tmp/silo-test';

describe('session core (real bridge, reference agent)', () => {
  let bridge: BridgeInfo;
  let service: AgentsService;
  let delivered: AgentSessionUpdate[];
  let permissions: AgentPermissionRequest[];

  /**
   * Connects, then waits for the `available_commands_update` the reference agent sends right after
   * session/new (agent/session-methods.ts): on a loaded machine it can land after the first prompt's updates, even
   * after its turn end, and the tests compare the turn's updates, and the journal with what was
   * delivered.
   */
  const connect = async (extra: Partial<Parameters<AgentsService['connect']>[0]> = {}) => {
    const from = delivered.length;
    const session = await service.connect({
      bridge,
      cwd: CWD,
      onUpdate: (u) => delivered.push(u),
      ...extra,
    });
    await until(
      () => delivered.slice(from).some((u) => u.kind === 'available_commands_update'),
      'the agent announced its commands',
    );
    return session;
  };

  async function turn(session: AgentSessionHandle, prompt: string) {
    const from = delivered.length;
    const stop = await session.prompt(prompt);
    return { stop, updates: delivered.slice(from) };
  }

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(() => {
    service = createAgentsService({ databaseName: `silo-test-${crypto.randomUUID()}` });
    delivered = [];
    permissions = [];
  });
  afterEach(async () => {
    await service.dispose();
  });

  it('runs a turn: the prompt is journaled with a timestamp, the stop reason comes after every update', async () => {
    const session = await connect();
    expect(session.resumeOutcome).to.equal('new');
    expect(session.state).to.equal('connected');
    expect(session.agentInfo.name).to.be.a('string').and.not.empty;
    const { stop, updates } = await turn(session, 'hello there');
    expect(stop).to.equal('end_turn');
    const user = updates[0]!;
    expect(user.kind).to.equal('user_message_chunk');
    expect(user.text).to.equal('hello there');
    expect(Date.parse(user.timestamp!)).to.be.closeTo(Date.now(), 60_000);
    expect(updates.at(-1)!.kind).to.equal('turn_end');
    expect(updates.at(-1)!.turnEnd?.stopReason).to.equal('end_turn');
    expect(updates.at(-1)!.turnEnd?.usage?.durationMs).to.be.a('number');
    const text = updates
      .filter((u) => u.kind === 'agent_message_chunk')
      .map((u) => u.text)
      .join('');
    expect(text).to.contain('hello there');
    expect(session.agentInfo.title).to.equal('hello there');
    expect(session.usage?.size).to.equal(200000);
    const journal = await session.transcript();
    expect(journal).to.deep.equal(delivered);
    expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
  });

  it('delivers every scenario normalized, and transcript() equals what onUpdate delivered', async () => {
    const session = await connect();
    await turn(session, '/scenario markdown');
    const tools = await turn(session, '/scenario tools');
    const calls = tools.updates.filter((u) => u.kind === 'tool_call');
    expect(calls.length).to.be.greaterThan(0);
    for (const c of calls) {
      expect(c.toolCall!.kind).to.be.a('string');
      expect(c.toolCall!.status).to.be.a('string');
    }
    const finalStatus = new Map<string, string>();
    for (const u of tools.updates)
      if (u.toolCall?.status) finalStatus.set(u.toolCall.toolCallId, u.toolCall.status);
    expect([...finalStatus.values()]).to.include.members(['completed', 'failed']);
    const diffs = tools.updates.flatMap((u) => u.toolCall?.content ?? []).filter((c) => c.type === 'diff');
    expect(diffs.some((d) => d.type === 'diff' && d.oldText === null)).to.equal(true, 'a new-file diff');
    expect(diffs.some((d) => d.type === 'diff' && typeof d.oldText === 'string')).to.equal(
      true,
      'an edit diff',
    );
    const plan = await turn(session, '/scenario plan');
    const plans = plan.updates.filter((u) => u.kind === 'plan');
    expect(plans.length).to.be.greaterThan(1);
    expect(plans.at(-1)!.plan!.every((e) => e.status === 'completed')).to.equal(true);
    const usage = await turn(session, '/scenario usage');
    const usages = usage.updates.filter((u) => u.kind === 'usage_update').map((u) => u.usage!);
    expect(usages.some((u) => u.cost === undefined)).to.equal(true);
    expect(usages.some((u) => u.cost !== undefined && typeof u.cost.currency === 'string')).to.equal(true);
    await turn(session, '/scenario commands');
    expect(session.availableCommands.length).to.be.greaterThan(0);
    expect(session.availableCommands.some((c) => c.hint)).to.equal(true);
    await turn(session, '/scenario title Renamed by the agent');
    expect(session.agentInfo.title).to.equal('Renamed by the agent');
    for (const stop of ['max_tokens', 'max_turn_requests', 'refusal']) {
      expect((await turn(session, `/scenario stop ${stop}`)).stop).to.equal(stop);
    }
    const notices = await turn(session, '/scenario notice');
    expect(notices.updates.filter((u) => u.kind === 'notice').length).to.be.greaterThan(
      0,
      'notices (advertised)',
    );
    const compaction = await turn(session, '/scenario compaction');
    expect(compaction.updates.map((u) => u.kind)).to.include.members([
      'compaction_update',
      'compaction_summary_chunk',
    ]);
    const journal = await session.transcript();
    expect(journal).to.deep.equal(delivered);
  });

  it('config options and modes: currentValue follows the agent and setConfigOption', async () => {
    const session = await connect();
    const kinds = session.configOptions.map((o) => o.type);
    expect(kinds).to.include.members(['select', 'boolean']);
    const mode = session.configOptions.find((o) => o.category === 'mode')!;
    const other = mode.options!.find((o) => o.value !== mode.currentValue)!;
    await session.setConfigOption(mode.id, other.value);
    expect(session.configOptions.find((o) => o.id === mode.id)!.currentValue).to.equal(other.value);
    const flag = session.configOptions.find((o) => o.type === 'boolean')!;
    await session.setConfigOption(flag.id, !flag.currentValue);
    expect(session.configOptions.find((o) => o.id === flag.id)!.currentValue).to.equal(!flag.currentValue);
    const before = JSON.stringify(session.configOptions);
    await turn(session, '/scenario config');
    expect(JSON.stringify(session.configOptions)).not.to.equal(before, 'the agent changed its own options');
  });

  it('keeps unknown kinds and vendor _meta in raw without disturbing later updates', async () => {
    const session = await connect();
    const { stop, updates } = await turn(session, '/scenario unknown');
    expect(stop).to.equal('end_turn');
    const vendor = updates.find((u) => u.kind === '_vendor_thing');
    expect(vendor, 'the unknown kind arrives').to.exist;
    expect(vendor!.raw.sessionUpdate).to.equal('_vendor_thing');
    const withMeta = updates.filter((u) => u.raw._meta !== undefined);
    expect(withMeta.length).to.be.greaterThan(0);
    const after = updates.slice(updates.indexOf(vendor!) + 1);
    expect(after.some((u) => u.kind === 'agent_message_chunk')).to.equal(
      true,
      'updates after it still arrive',
    );
    expect(await session.transcript()).to.deep.equal(delivered);
  });

  it('synthesizes message ids when the agent sends none, deterministically', async () => {
    const plain = await startBridge({ agentArgs: ['--no-message-id'] });
    try {
      const session = await connect({ bridge: plain });
      const { updates } = await turn(session, '/scenario thoughts');
      // agent/scenarios/content.ts `thoughts`: a thought, then the answer, both streamed in chunks.
      const chunks = updates.filter(
        (u) => u.kind === 'agent_message_chunk' || u.kind === 'agent_thought_chunk',
      );
      expect(chunks.length).to.be.greaterThan(3);
      // The rule, written out (not asked of the normalizer): a run of consecutive journal entries of
      // one chunk kind shares the id `silo-m<seq of the run's first entry>`; anything else starts a run.
      const journal = await session.transcript();
      const bySeq = new Map(journal.map((u) => [u.seq!, u]));
      for (const c of chunks) {
        let first = c.seq!;
        while (bySeq.get(first - 1)?.kind === c.kind) first--;
        expect(c.messageId, `chunk at seq ${c.seq}`).to.equal(`silo-m${first}`);
      }
      expect(new Set(chunks.map((c) => c.messageId)).size).to.equal(4, 'thought, answer, thought, answer');
      expect(journal.filter((u) => u.messageId).map((u) => u.messageId)).to.deep.equal(
        updates.filter((u) => u.messageId).map((u) => u.messageId),
        'the journal keeps the ids that were delivered',
      );
    } finally {
      await stopBridge(plain.id);
    }
  });

  it('permission: choose, cancel, no handler (fail closed)', async () => {
    const session = await connect({
      onPermission: (p) => {
        permissions.push(p);
        void p.choose(p.options.find((o) => o.kind === 'allow_once')!.optionId);
      },
    });
    const chosen = await turn(session, '/scenario permission');
    expect(permissions).to.have.length(1);
    expect(permissions[0]!.options.map((o) => o.kind)).to.have.members([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    const allowOnce = permissions[0]!.options.find((o) => o.kind === 'allow_once')!.optionId;
    const text = chosen.updates
      .filter((u) => u.kind === 'agent_message_chunk')
      .map((u) => u.text)
      .join('');
    expect(text).to.contain(allowOnce);
    const row = chosen.updates.find((u) => u.kind === 'permission')!;
    const resolution = chosen.updates.find((u) => u.kind === 'permission_resolution')!;
    expect(row.permission!.options).to.have.length(4);
    expect(resolution.permission).to.deep.include({
      id: row.permission!.id,
      resolution: 'selected',
      optionId: allowOnce,
    });
    expect(permissions[0]!.signal.aborted).to.equal(true, 'the live request ends once answered');
    expect([permissions[0]!.resolution, permissions[0]!.signal.reason]).to.deep.equal([
      'selected',
      'selected',
    ]);

    const closed = await connect(); // no onPermission
    const failClosed = await (async () => {
      const from = delivered.length;
      await closed.prompt('/scenario permission');
      return delivered.slice(from);
    })();
    expect(failClosed.find((u) => u.kind === 'permission_resolution')!.permission!.resolution).to.equal(
      'cancelled',
    );
  });

  it('a permission request and a question reach the page only after the commit that holds their rows', async () => {
    const holdsRow = (id: string) =>
      delivered.some(
        (u) =>
          (u.kind === 'permission' && u.permission?.id === id) ||
          (u.kind === 'elicitation' && u.elicitation?.id === id),
      );
    const journaled: Promise<boolean>[] = [];
    const rowFirst: string[] = [];
    let session: AgentSessionHandle | undefined;
    const asked = (kind: string, id: string) => {
      rowFirst.push(`${kind} ${holdsRow(id)}`);
      journaled.push(
        session!.transcript().then((j) => j.some((u) => (u.permission ?? u.elicitation)?.id === id)),
      );
    };
    session = await connect({
      onPermission: (p) => {
        asked('permission', p.id);
        void p.choose(p.options.find((o) => o.kind === 'allow_once')!.optionId);
      },
      onElicitation: (q) => {
        asked('question', q.id);
        void q.decline();
      },
    });
    expect(await session.prompt('/scenario permission')).to.equal('end_turn');
    await session.prompt('/scenario elicit-form');
    const inJournal = await Promise.all(journaled);
    // At the moment each request reached the page, its row had been delivered (so a transcript has it).
    expect(rowFirst).to.deep.equal(['permission true', 'question true']);
    expect(inJournal, 'and journaled').to.deep.equal([true, true]);
  });

  it('permission: the user cancels the request; the agent receives `cancelled`, not an option', async () => {
    const session = await connect({
      onPermission: (p) => {
        permissions.push(p);
        void p.cancel();
      },
    });
    const { stop, updates } = await turn(session, '/scenario permission');
    expect(permissions).to.have.length(1);
    // agent/scenarios/interactive.ts `permission` ends the turn `cancelled` on a cancelled outcome and
    // says `Permission: <optionId>` only when an option was selected.
    expect(stop).to.equal('cancelled');
    const said = updates
      .filter((u) => u.kind === 'agent_message_chunk')
      .map((u) => u.text)
      .join('');
    expect(said).not.to.contain('Permission:');
    const resolution = updates.find((u) => u.kind === 'permission_resolution')!;
    expect(resolution.permission).to.deep.equal({ id: permissions[0]!.id, resolution: 'cancelled' });
  });

  it('permission: an option the agent did not offer is refused (invalid-params) and never sent; the request stays open for a real choice', async () => {
    const session = await connect({ onPermission: (p) => permissions.push(p) });
    const from = delivered.length;
    const running = session.prompt('/scenario permission');
    const asked = await until(() => permissions[0], 'the permission shown');
    const refused = await asked.choose('not-an-offered-option').then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    expect(refused?.code).to.equal('invalid-params');
    expect(asked.signal.aborted, 'the request is still open').to.equal(false);
    const allowOnce = asked.options.find((o) => o.kind === 'allow_once')!.optionId;
    await asked.choose(allowOnce);
    expect(await running).to.equal('end_turn');
    const updates = delivered.slice(from);
    const said = updates
      .filter((u) => u.kind === 'agent_message_chunk')
      .map((u) => u.text)
      .join('');
    expect(said).to.contain(`Permission: ${allowOnce}`);
    expect(updates.filter((u) => u.kind === 'permission_resolution').map((u) => u.permission)).to.deep.equal([
      { id: asked.id, resolution: 'selected', optionId: allowOnce },
    ]);
  });

  it('permission: cancelling the turn answers every pending request cancelled; later ones are never shown', async () => {
    const session = await connect({ onPermission: (p) => permissions.push(p) });
    const running = session.prompt('/scenario permission-twice');
    await until(() => permissions.length === 2, 'two permission requests shown');
    await session.cancel();
    expect(await running).to.equal('cancelled');
    expect(permissions.every((p) => p.signal.aborted)).to.equal(true);
    const journal = await session.transcript();
    const resolutions = journal.filter((u) => u.kind === 'permission_resolution');
    expect(resolutions.map((u) => u.permission!.resolution)).to.deep.equal(['cancelled', 'cancelled']);
    expect(journal.at(-1)!.turnEnd!.stopReason).to.equal('cancelled');
  });

  it('the agent withdraws a permission request and a question ($/cancel_request): both end cancelled', async () => {
    const questions: AgentElicitationRequest[] = [];
    const session = await connect({
      onPermission: (p) => permissions.push(p),
      onElicitation: (q) => questions.push(q),
    });
    const { stop, updates } = await turn(session, '/scenario withdraw 500');
    expect(stop).to.equal('end_turn');
    const text = updates
      .filter((u) => u.kind === 'agent_message_chunk')
      .map((u) => u.text)
      .join('');
    expect(text).to.equal('Withdrawn: permission cancelled, question cancel');
    await until(() => permissions.length === 1 && questions.length === 1, 'both requests reached the page');
    expect(permissions[0]!.signal.aborted && questions[0]!.signal.aborted).to.equal(
      true,
      'both live requests ended',
    );
    expect([permissions[0]!.resolution, questions[0]!.resolution]).to.deep.equal(['cancelled', 'cancelled']);
    expect(updates.find((u) => u.kind === 'permission_resolution')!.permission!.resolution).to.equal(
      'cancelled',
    );
    expect(updates.find((u) => u.kind === 'elicitation_resolution')!.elicitation!.resolution).to.equal(
      'cancelled',
    );
  });

  it('cancel mid-stream ends the turn cancelled and keeps what streamed', async () => {
    const session = await connect();
    const running = session.prompt('/scenario slow 200 20');
    await until(() => delivered.some((u) => u.kind === 'agent_message_chunk'), 'streaming started');
    await session.cancel();
    expect(await running).to.equal('cancelled');
    const journal = await session.transcript();
    expect(journal.filter((u) => u.kind === 'agent_message_chunk').length).to.be.greaterThan(0);
    expect(journal.at(-1)!.turnEnd?.stopReason).to.equal('cancelled');
  });

  it('agent crash mid-turn: the prompt rejects with a coded error and the journal keeps what arrived', async () => {
    const session = await connect();
    const error = await session.prompt('/scenario crash').then(
      () => undefined,
      (e: SiloError) => e,
    );
    expect(error?.code).to.equal('interrupted');
    expect(error?.message).to.match(/code 3/);
    const journal = await session.transcript();
    expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
    expect(journal.some((u) => u.kind === 'agent_message_chunk')).to.equal(true);
    expect(journal.some((u) => u.kind === 'tool_call')).to.equal(true);
    expect(journal.at(-1)!.turnEnd!.stopReason).to.equal('interrupted');
  });

  it('a dead bridge or a wrong token is a coded error, and no promise is left pending', async () => {
    const wrong = await service.connect({ bridge: { url: bridge.url, token: 'wrong' }, cwd: CWD }).then(
      () => undefined,
      (e: SiloError) => e,
    );
    expect(wrong?.code).to.equal('unreachable');
    const session = await connect();
    const running = session.prompt('/scenario hang');
    await until(() => delivered.some((u) => u.kind === 'agent_message_chunk'), 'the hang scenario started');
    await killAgents(bridge.id);
    const error = await running.then(
      () => undefined,
      (e: SiloError) => e,
    );
    expect(error?.code).to.equal('interrupted');
  });

  // Sign-in (auth-required, its methods, terminal ones never usable): test/browser/session/sign-in.test.ts.
  it('a protocol version mismatch is a coded error', async () => {
    const other = await startBridge({ agentArgs: ['--protocol-version', '2'] });
    try {
      const version = await service.connect({ bridge: other, cwd: CWD }).then(
        () => undefined,
        (e: SiloError) => e,
      );
      expect(version?.code).to.equal('protocol-version');
    } finally {
      await stopBridge(other.id);
    }
  });

  it('lists every session the agent knows, following nextCursor past the first page', async () => {
    const paged = await startBridge({ agentArgs: ['--list-page-size', '2'] });
    const elsewhere = createAgentsService({ databaseName: `silo-test-${crypto.randomUUID()}` });
    try {
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await connect({ bridge: paged })).sessionId);
      // A service with an empty journal knows these sessions only from session/list: 3 pages of 2.
      const listed = await elsewhere.sessions({ bridge: paged });
      expect(listed.map((s) => s.sessionId)).to.have.members(created);
      expect(listed).to.have.length(5);
    } finally {
      await elsewhere.dispose();
      await stopBridge(paged.id);
    }
  });

  it('a flood arrives batched: far fewer deliveries than updates, nothing lost, in order', async () => {
    const batches: number[] = [];
    const session = await connect();
    session.subscribe((b) => {
      if (b.length) batches.push(b.length);
    });
    const started = performance.now();
    const { stop } = await turn(session, '/scenario flood 5000');
    const span = performance.now() - started;
    expect(stop).to.equal('end_turn');
    const chunks = delivered.filter((u) => u.kind === 'agent_message_chunk');
    expect(chunks.length).to.equal(5000);
    // At most BURST messages in any WINDOW_MS (worker/delivery.ts), whatever the machine's pace: every
    // delivery was sent within `span`. One message per update would need a 27 s flood to pass.
    const bound = BURST * (Math.ceil(span / WINDOW_MS) + 1);
    expect(batches.length, `deliveries in ${Math.round(span)} ms`).to.be.at.most(bound);
    const journal = await session.transcript();
    expect(journal.length).to.equal(delivered.length);
    expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
  });
});
