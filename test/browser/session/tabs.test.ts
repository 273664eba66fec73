// One writer per session across tabs (docs/restore.md), through the page API: two services of one
// origin are two workers, as two tabs are (each holds its own socket and its side of the Web Lock and
// the BroadcastChannel). A follower mirrors the driving tab, takes over on request (the other tab then
// follows), answers permission requests and questions that reach the agent through the driving tab
// (the first answer wins), stops the driving tab's turn, and keeps following when the driving tab
// closes, until it takes over or a new tab drives the session; one page that reopens a session it is
// closing drives it (a handle, another service of the page, or a <silo-chat>). Real bridge, reference agent.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import {
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  type AgentSessionConnectOptions,
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  SiloError,
} from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { connected, part, sendAndWait, state } from '../fixtures/chat.ts';
import { mount } from '../fixtures/dom.ts';

const CWD = '/tmp/silo-tabs';

/** One tab: its service, handle, the updates it was delivered, and the live requests it was shown. */
interface Tab {
  service: AgentsService;
  session: AgentSessionHandle;
  delivered: AgentSessionUpdate[];
  permissions: AgentPermissionRequest[];
  questions: AgentElicitationRequest[];
  /** For each live request as it reached the page: whether its journaled row had been delivered before. */
  rowFirst: boolean[];
}

/** Whether `updates` hold the journaled row of request `id`. */
const holdsRow = (updates: readonly AgentSessionUpdate[], id: string) =>
  updates.some(
    (u) =>
      (u.kind === 'permission' && u.permission?.id === id) ||
      (u.kind === 'elicitation' && u.elicitation?.id === id),
  );

const prompts = (us: readonly AgentSessionUpdate[]) =>
  us.filter((u) => u.kind === 'user_message_chunk').map((u) => u.text);
const stops = (us: readonly AgentSessionUpdate[]) =>
  us.filter((u) => u.kind === 'turn_end').map((u) => u.turnEnd!.stopReason);
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => SiloError.from(e).code,
  );

describe('tabs: one writer per session, a follower that can take over (real bridge, reference agent)', function () {
  this.timeout(90_000);
  let bridge: TestBridge;
  let databaseName: string;
  const tabs: Tab[] = [];

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(() => {
    databaseName = `silo-tabs-${crypto.randomUUID()}`;
  });
  afterEach(async () => {
    for (const t of tabs.splice(0)) await t.service.dispose();
  });

  /** Opens a tab on the session `sessionId` (a new session without one). */
  async function open(sessionId?: string, extra: Partial<AgentSessionConnectOptions> = {}): Promise<Tab> {
    const service = createAgentsService({ databaseName });
    const tab = { service, delivered: [], permissions: [], questions: [], rowFirst: [] } as unknown as Tab;
    tabs.push(tab);
    tab.session = await service.connect({
      bridge,
      cwd: CWD,
      ...(sessionId ? { resume: { sessionId } } : {}),
      onUpdate: (u) => tab.delivered.push(u),
      onPermission: (r) => {
        tab.rowFirst.push(holdsRow(tab.delivered, r.id));
        tab.permissions.push(r);
      },
      onElicitation: (r) => {
        tab.rowFirst.push(holdsRow(tab.delivered, r.id));
        tab.questions.push(r);
      },
      ...extra,
    });
    return tab;
  }

  /** Waits until `tab` was delivered the end of turn number `n` (1-based). */
  const turnEnded = (tab: Tab, n: number) =>
    until(() => stops(tab.delivered).length >= n, `turn ${n} delivered`);

  it('a second tab follows: calm, live, read-only; takeOver swaps the roles and its prompt is sent', async () => {
    const a = await open();
    await a.session.prompt('from the first tab');
    const b = await open(a.session.sessionId);
    expect(b.session.role).to.equal('follower');
    expect(b.session.state).to.equal('following');
    expect(b.session.snapshot.driverPresent).to.equal(true);
    expect(a.session.role).to.equal('driver');
    expect(await codeOf(b.session.prompt('too early'))).to.equal('not-owner');

    await a.session.prompt('live from the first tab');
    await turnEnded(b, 1);
    expect(prompts(b.delivered)).to.deep.equal(['live from the first tab'], 'what the first tab sends, live');

    await b.session.takeOver();
    expect(b.session.role).to.equal('driver');
    expect(b.session.state).to.equal('connected');
    await until(() => a.session.role === 'follower', 'the first tab follows');
    expect(a.session.state).to.equal('following');
    await until(() => a.session.snapshot.driverPresent === true, 'the first tab sees the new driver');
    expect(await codeOf(a.session.prompt('no longer mine'))).to.equal('not-owner');

    expect(await b.session.prompt('from the second tab')).to.equal('end_turn');
    await turnEnded(a, 3);
    const journal = await b.session.transcript();
    expect(prompts(journal)).to.deep.equal([
      'from the first tab',
      'live from the first tab',
      'from the second tab',
    ]);
    expect(journal.map((u) => u.seq)).to.deep.equal(
      journal.map((_, i) => i),
      'one writer: no gap, no twice',
    );
    // Each tab was delivered every update once, in journal order.
    expect(a.delivered.map((u) => u.seq)).to.deep.equal(journal.map((u) => u.seq));
  });

  it('taking over while the driving tab runs a turn stops that turn (cancelled) first', async () => {
    const a = await open();
    const follower = await open(a.session.sessionId);
    const running = a.session.prompt('/scenario slow 200 50');
    await until(() => follower.session.snapshot.busy, 'the follower sees the turn running');
    await follower.session.takeOver();
    expect(await running).to.equal('cancelled');
    expect(stops(await follower.session.transcript())).to.deep.equal(['cancelled']);
    expect(await follower.session.prompt('after the take-over')).to.equal('end_turn');
  });

  it('Stop in the following tab stops the driving tab’s turn', async () => {
    const a = await open();
    const b = await open(a.session.sessionId);
    const running = a.session.prompt('/scenario slow 200 50');
    await until(() => b.session.snapshot.busy, 'the follower sees the turn running');
    await b.session.cancel();
    expect(await running).to.equal('cancelled');
  });

  it('a permission is shown in both tabs; the follower’s answer reaches the agent, the first answer wins', async () => {
    const a = await open();
    const b = await open(a.session.sessionId);
    const turn = a.session.prompt('/scenario permission tabs.txt');
    const [mine, theirs] = await Promise.all([
      until(() => a.permissions[0], 'the driving tab is asked'),
      until(() => b.permissions[0], 'the following tab is asked'),
    ]);
    expect(theirs.id).to.equal(mine.id);
    expect(theirs.options.map((o) => o.optionId)).to.deep.equal(mine.options.map((o) => o.optionId));
    // Each tab is shown the request only after its journaled row: the row was delivered first.
    expect([a.rowFirst, b.rowFirst], 'the row before the request, in both tabs').to.deep.equal([
      [true],
      [true],
    ]);
    const allow = mine.options.find((o) => o.kind === 'allow_once')!.optionId;
    await theirs.choose(allow);
    expect(await turn).to.equal('end_turn');
    await until(() => mine.signal.aborted && theirs.signal.aborted, 'both tabs see the request end');
    expect(mine.resolution).to.equal('selected');
    expect(theirs.resolution).to.equal('selected');
    // The second answer, from the driving tab, comes too late.
    expect(await codeOf(mine.choose(allow))).to.equal('closed');
    const resolution = (await a.session.transcript()).find((u) => u.kind === 'permission_resolution');
    expect(resolution?.permission).to.deep.equal({ id: mine.id, resolution: 'selected', optionId: allow });
  });

  it('a tab that starts following while a question is open is shown it, and can answer it', async () => {
    const a = await open();
    const turn = a.session.prompt('/scenario elicit-form');
    const asked = await until(() => a.questions[0], 'the driving tab is asked');
    expect(a.rowFirst, 'the question’s row before the question').to.deep.equal([true]);
    const b = await open(a.session.sessionId);
    // Nothing streams while the question waits: the driving tab's state comes with its answer to
    // the follower's announcement (a turn running, its config options).
    await until(() => b.session.snapshot.busy, 'the late follower knows the turn runs');
    expect(b.session.configOptions.map((o) => [o.id, o.currentValue])).to.deep.equal(
      a.session.configOptions.map((o) => [o.id, o.currentValue]),
    );
    expect(b.session.configOptions.length).to.be.greaterThan(0);
    const shown = await until(() => b.questions[0], 'the late follower is shown the open question');
    expect(shown.id).to.equal(asked.id);
    await shown.decline();
    await turn;
    await until(() => asked.signal.aborted && shown.signal.aborted, 'both tabs see the question end');
    expect([asked.resolution, shown.resolution]).to.deep.equal(['declined', 'declined']);
  });

  it('the driving tab closes: the follower keeps following, says nobody drives, and can take over', async () => {
    const a = await open();
    await a.session.prompt('before closing');
    const b = await open(a.session.sessionId);
    await a.session.close();
    await until(() => b.session.snapshot.driverPresent === false, 'the follower knows nobody drives');
    expect(b.session.role).to.equal('follower');
    expect(b.session.state).to.equal('following');
    expect(await codeOf(b.session.prompt('nobody to send it'))).to.equal('not-owner');
    await b.session.takeOver();
    expect(b.session.state).to.equal('connected');
    expect(await b.session.prompt('after the take-over')).to.equal('end_turn');
    expect(prompts(await b.session.transcript())).to.deep.equal(['before closing', 'after the take-over']);
  });

  it('the driving tab comes back (a reload): the follower follows it again instead of taking over', async () => {
    const a = await open();
    await a.session.prompt('before the reload');
    const sessionId = a.session.sessionId;
    const b = await open(sessionId);
    // A reload: the page's worker dies with its lock, and the reloaded page restores the session.
    await a.service.dispose();
    tabs.splice(tabs.indexOf(a), 1);
    const again = await open(sessionId);
    await until(
      () => again.session.role === 'driver' && again.session.state === 'connected',
      'the reloaded tab drives',
    );
    await until(() => b.session.snapshot.driverPresent === true, 'the follower follows the reloaded tab');
    expect(b.session.role).to.equal('follower');
    await again.session.prompt('after the reload');
    await until(
      () => prompts(b.delivered).includes('after the reload'),
      'the follower mirrors the reloaded tab',
    );
  });

  it('one page reopens a session: open, the second handle follows; still closing, it drives it', async () => {
    const a = await open();
    await a.session.prompt('before closing');
    const sessionId = a.session.sessionId;
    // Opened again while this page still drives it (two views of one conversation): the second follows.
    const twin = await a.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(twin.role).to.equal('follower');
    expect(twin.snapshot.driverPresent).to.equal(true);
    await twin.close();
    // Not awaited: session/close is still on its way when the page connects again.
    const closing = a.session.close();
    const again = await a.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(again.role).to.equal('driver');
    expect(again.state).to.equal('connected');
    expect(again.snapshot.error).to.equal(undefined, 'no not-owner');
    await closing;
    expect(await again.prompt('after reopening')).to.equal('end_turn');
    expect(prompts(await again.transcript())).to.deep.equal(['before closing', 'after reopening']);
  });

  it('another service of the page reopens a session the first still closes: it drives it (a component remounted)', async () => {
    // The agent answers session/close 1.5 s late, so the first service's worker holds the session's
    // lock (and answers the second's worker as its owner) while the second connects.
    const slow = await startBridge({ agentArgs: ['--close-delay-ms', '1500'] });
    try {
      const a = await open(undefined, { bridge: slow });
      await a.session.prompt('before the remount');
      const sessionId = a.session.sessionId;
      // Not awaited, as a component's disconnect does; the remounted one starts a service of its own.
      const closing = a.session.close();
      const b = await open(sessionId, { bridge: slow });
      expect(b.session.role).to.equal('driver');
      expect(b.session.state).to.equal('connected');
      expect(b.session.snapshot.error).to.equal(undefined, 'no not-owner');
      await closing;
      expect(await b.session.prompt('after the remount')).to.equal('end_turn');
      expect(prompts(await b.session.transcript())).to.deep.equal([
        'before the remount',
        'after the remount',
      ]);
    } finally {
      await stopBridge(slow.id);
    }
  });

  it('a <silo-chat> removed and added again at once drives its session: no “another tab” notice', async () => {
    const service = createAgentsService({ databaseName });
    tabs.push({ service } as Tab);
    const key = `silo-tabs-chat-${crypto.randomUUID()}`;
    const make = () => {
      const chat = document.createElement('silo-chat') as SiloChat;
      chat.setAttribute('storage-key', key);
      chat.service = service;
      chat.setAttribute('bridge-url', bridge.url);
      chat.setAttribute('bridge-token', bridge.token);
      chat.setAttribute('cwd', CWD);
      return chat;
    };
    const first = make();
    const cleanupFirst = mount(first, 600);
    await connected(first);
    await sendAndWait(first, 'before the remount');
    const sessionId = first.session!.sessionId;
    cleanupFirst();
    const chat = make();
    const cleanup = mount(chat, 600);
    try {
      await until(() => state(chat) === 'connected' || state(chat) === 'following', 'the chat opened');
      expect(state(chat)).to.equal('connected');
      expect(chat.session!.sessionId).to.equal(sessionId);
      expect(chat.session!.role).to.equal('driver');
      expect(part(chat, 'banner')?.textContent ?? '').not.to.include('another tab');
    } finally {
      cleanup();
    }
  });
});
