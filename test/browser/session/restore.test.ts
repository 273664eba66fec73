// Session resurrection through the real bridge and reference agent: each restore outcome, history,
// offline transcripts, Clear, automatic reconnect, and one writer per session.
import { expect } from 'chai';
import { toJsonl } from '../../../src/export.ts';
import {
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  type SiloError,
  TranscriptModel,
} from '../../../src/index.ts';
import type { TabMessage } from '../../../worker/tab-channel.ts';
import {
  killBridgeAgents,
  restartBridge,
  startBridge,
  stopBridge,
  type TestBridge,
} from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { mount } from '../fixtures/dom.ts';
import { conversationAdded } from '../fixtures/pages.ts';

const CWD = '/tmp/silo-restore';
const texts = (us: AgentSessionUpdate[], kind: string) =>
  us
    .filter((u) => u.kind === kind)
    .map((u) => u.text ?? '')
    .join('');

/** What a reader sees: one line per message bubble (role: text) and per tool card. */
function bubbles(journal: AgentSessionUpdate[]): string[] {
  const model = new TranscriptModel();
  model.applyAll(journal);
  return model.rows.flatMap((r) =>
    r.type === 'message'
      ? [`${r.role}: ${r.text}`]
      : r.type === 'tool'
        ? [`tool ${r.toolCall.toolCallId}`]
        : [],
  );
}
/** The bubbles of the reference agent's default answer to `prompt`. */
const answer = (prompt: string) => [
  `user: ${prompt}`,
  `thought: The user wrote ${prompt.length} characters; I will echo them.`,
  `agent: **Echo:** ${prompt}\n\nI am Silo's reference agent. Send \`/scenario list\` to see what else I can do.`,
];

describe('session restore (real bridge, reference agent)', () => {
  let service: AgentsService;
  let databaseName: string;
  const bridges: TestBridge[] = [];
  const bridge = async (agentArgs: string[] = [], sessionsDir?: string) => {
    const b = await startBridge({ agentArgs, ...(sessionsDir ? { sessionsDir } : {}) });
    bridges.push(b);
    return b;
  };
  /** A first conversation of two turns, closed; returns its id and journal. */
  async function converse(b: TestBridge) {
    const s = await service.connect({ bridge: b, cwd: CWD });
    await s.prompt('first question');
    await s.prompt('second question');
    const journal = await s.transcript();
    await s.close();
    return { sessionId: s.sessionId, journal };
  }

  beforeEach(() => {
    databaseName = `silo-restore-${crypto.randomUUID()}`;
    service = createAgentsService({ databaseName });
  });
  afterEach(async () => {
    await service.dispose();
    for (const b of bridges.splice(0)) await stopBridge(b.id);
  });

  it('reload, then resumed: session/resume, the transcript from the journal exactly, the next turn appends', async () => {
    const b = await bridge();
    const { sessionId, journal } = await converse(b);
    await service.dispose(); // the page goes away; a new one opens the same journal
    service = createAgentsService({ databaseName });
    const s = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(s.resumeOutcome).to.equal('resumed');
    expect(s.sessionId).to.equal(sessionId);
    expect(await s.transcript()).to.deep.equal(journal);
    expect(await s.prompt('third question')).to.equal('end_turn');
    const after = await s.transcript();
    expect(after.slice(0, journal.length)).to.deep.equal(journal);
    expect(texts(after.slice(journal.length), 'agent_message_chunk')).to.contain('third question');
  });

  it('loaded: session/load on a journal that holds the session adds no duplicates', async () => {
    const b = await bridge(['--no-resume']);
    const { sessionId, journal } = await converse(b);
    const s = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(s.resumeOutcome).to.equal('loaded');
    // The title and usage the replay repeats are journaled as they come; the conversation is not.
    expect(
      conversationAdded(journal, await s.transcript()),
      'nothing of the conversation twice',
    ).to.deep.equal([]);
  });

  it('loaded with different message ids on replay: still no duplicates', async () => {
    const b = await bridge(['--no-resume', '--new-ids-on-load']);
    const { sessionId, journal } = await converse(b);
    const s = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(s.resumeOutcome).to.equal('loaded');
    // The title and usage the replay repeats are journaled as they come; the conversation is not.
    expect(
      conversationAdded(journal, await s.transcript()),
      'nothing of the conversation twice',
    ).to.deep.equal([]);
  });

  it('loaded, when the journal holds only the start of the last message: the replay completes it', async () => {
    const b = await bridge(['--no-resume']);
    const { sessionId, journal } = await converse(b);
    // A connection that dropped mid-message leaves the journal cut inside the agent's last message.
    const lastMessageId = journal.findLast((u) => u.kind === 'agent_message_chunk')!.messageId;
    const chunks = journal.filter((u) => u.messageId === lastMessageId);
    expect(chunks.length, 'the reference agent streams the answer in several chunks').to.be.at.least(3);
    const cut = journal.slice(0, journal.indexOf(chunks[1]!));
    const other = createAgentsService({ databaseName: `${databaseName}-cut` });
    try {
      await other.importJsonl(toJsonl(cut), sessionId);
      const s = await other.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
      expect(s.resumeOutcome).to.equal('loaded');
      const merged = await s.transcript();
      expect(merged.slice(0, cut.length), 'the journal is kept as it was').to.deep.equal(cut);
      const completed = merged.filter((u) => u.messageId === lastMessageId);
      expect(completed.map((u) => u.text).join(''), 'the message is whole').to.equal(
        chunks.map((u) => u.text).join(''),
      );
      expect(texts(merged, 'user_message_chunk'), 'no prompt replayed twice').to.equal(
        texts(journal, 'user_message_chunk'),
      );
      expect(merged.map((u) => u.seq)).to.deep.equal(merged.map((_, i) => i));
    } finally {
      await other.dispose();
    }
  });

  it('loaded into an empty journal (another browser): the replay becomes the journal', async () => {
    const b = await bridge(['--no-resume']);
    const { sessionId } = await converse(b);
    const other = createAgentsService({ databaseName: `${databaseName}-other` });
    try {
      const s = await other.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
      expect(s.resumeOutcome).to.equal('loaded');
      const replayed = await s.transcript();
      expect(texts(replayed, 'user_message_chunk'))
        .to.contain('first question')
        .and.contain('second question');
      expect(texts(replayed, 'agent_message_chunk')).to.contain('second question');
      expect(replayed.map((u) => u.seq)).to.deep.equal(replayed.map((_, i) => i));
    } finally {
      await other.dispose();
    }
  });

  it('another browser, agent with resume and load: the id the journal lacks is loaded with its history', async () => {
    const b = await bridge();
    const { sessionId } = await converse(b);
    const other = createAgentsService({ databaseName: `${databaseName}-other` });
    try {
      const s = await other.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
      expect(s.resumeOutcome).to.equal('loaded');
      expect(s.restoreNote).to.equal(undefined);
      expect(bubbles(await s.transcript())).to.deep.equal([
        ...answer('first question'),
        ...answer('second question'),
      ]);
    } finally {
      await other.dispose();
    }
  });

  it('only session/resume and an empty journal: resumed, and the outcome says the history is in the agent', async () => {
    const b = await bridge(['--no-load']);
    const { sessionId } = await converse(b);
    const other = createAgentsService({ databaseName: `${databaseName}-other` });
    try {
      const s = await other.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
      expect(s.resumeOutcome).to.equal('resumed');
      expect(s.restoreNote).to.equal('history-in-agent');
      expect(bubbles(await s.transcript())).to.deep.equal([]);
    } finally {
      await other.dispose();
    }
    const here = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(here.resumeOutcome).to.equal('resumed');
    expect(here.restoreNote, 'the journal here holds the session').to.equal(undefined);
  });

  it('via load, no message ids: a journal missing the turns another device added gets exactly those', async () => {
    const b = await bridge(['--no-message-id']);
    const s = await service.connect({ bridge: b, cwd: CWD });
    await s.prompt('/scenario tools');
    await s.prompt('second question');
    const { sessionId } = s;
    const journal = await s.transcript();
    await s.close();
    const device = createAgentsService({ databaseName: `${databaseName}-device` });
    try {
      const there = await device.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
      expect(there.resumeOutcome).to.equal('loaded');
      expect(await there.prompt('third question')).to.equal('end_turn');
      await there.close();
    } finally {
      await device.dispose();
    }
    // By default a complete journal is resumed: Silo cannot know another device went on.
    const resumed = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(resumed.resumeOutcome).to.equal('resumed');
    await resumed.close();
    const loaded = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId, via: 'load' } });
    expect(loaded.resumeOutcome).to.equal('loaded');
    expect(loaded.restoreNote).to.equal(undefined);
    const merged = await loaded.transcript();
    expect(merged.slice(0, journal.length), 'the journal is kept as it was').to.deep.equal(journal);
    expect(bubbles(merged)).to.deep.equal([
      'user: /scenario tools',
      'tool call-read',
      'tool call-new',
      'tool call-edit',
      'tool call-check',
      'agent: Done: one read, a new file, an edit, and a failed check.',
      ...answer('second question'),
      ...answer('third question'),
    ]);
    expect(merged.map((u) => u.seq)).to.deep.equal(merged.map((_, i) => i));
  });

  it('a replay without message ids: separate prompts are separate bubbles, a streamed answer is one', async () => {
    const b = await bridge(['--no-message-id', '--interrupt-marker']);
    const s = await service.connect({ bridge: b, cwd: CWD });
    const delivered: AgentSessionUpdate[] = [];
    s.subscribe((batch) => delivered.push(...batch));
    const running = s.prompt('/scenario slow 50 100');
    await until(
      () => delivered.filter((u) => u.kind === 'agent_message_chunk').length >= 2,
      'two chunks streamed',
    );
    await s.cancel();
    expect(await running).to.equal('cancelled');
    await s.prompt('after the cancel');
    const { sessionId } = s;
    const journal = await s.transcript();
    await s.close();
    const other = createAgentsService({ databaseName: `${databaseName}-other` });
    try {
      const loaded = await other.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
      expect(loaded.resumeOutcome).to.equal('loaded');
      const seen = bubbles(await loaded.transcript());
      expect(seen[1], 'every streamed chunk in one bubble').to.match(
        /^agent: chunk 0 chunk 1 (chunk \d+ )*$/,
      );
      expect([seen[0], ...seen.slice(2)]).to.deep.equal([
        'user: /scenario slow 50 100',
        'user: [Request interrupted by user]',
        ...answer('after the cancel'),
      ]);
    } finally {
      await other.dispose();
    }
    // Here the journal lacks the agent's marker, which is no prompt: the same history, nothing added.
    const here = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId, via: 'load' } });
    expect(here.resumeOutcome).to.equal('loaded');
    expect(here.restoreNote).to.equal(undefined);
    expect(conversationAdded(journal, await here.transcript()), 'nothing added').to.deep.equal([]);
  });

  it('<silo-chat> opens a loadable session with its history; resume-only says the history is in the agent', async () => {
    const b = await bridge();
    const { sessionId } = await converse(b);
    const other = createAgentsService({ databaseName: `${databaseName}-chat` });
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.service = other;
    chat.setAttribute('storage-key', `silo-restore-${crypto.randomUUID()}`);
    chat.setAttribute('bridge-url', b.url);
    chat.setAttribute('bridge-token', b.token);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const listed = await other.sessions({ bridge: b });
      expect(listed.find((x) => x.sessionId === sessionId)).to.include({ loadable: true });
      const outcomes: string[] = [];
      chat.addEventListener('silo-session', (e) => outcomes.push((e as CustomEvent).detail.resumeOutcome));
      await chat.connect({ sessionId });
      expect(outcomes.at(-1)).to.equal('loaded');
      const view = () => chat.shadowRoot!.querySelector('silo-transcript') as SiloTranscript;
      await until(
        () =>
          view()
            .model.rows.filter((r) => r.type === 'message' && r.role === 'user')
            .map((r) => (r.type === 'message' ? r.text : ''))
            .join('|') === 'first question|second question',
        'the history is shown',
      );
      const resumeOnly = await bridge(['--no-load']);
      chat.setAttribute('bridge-url', resumeOnly.url);
      chat.setAttribute('bridge-token', resumeOnly.token);
      const elsewhere = await converse(resumeOnly);
      await chat.connect({ sessionId: elsewhere.sessionId });
      expect(outcomes.at(-1)).to.equal('resumed');
      await until(
        () =>
          !!chat
            .shadowRoot!.querySelector('[part="banner"]')
            ?.textContent?.includes('kept only by the agent'),
        'the banner says where the history is',
      );
    } finally {
      unmount();
      await other.dispose();
    }
  });

  it('journal-only: read-only transcript, prompt fails with a coded error, continue in a new session carries it', async () => {
    const b = await bridge(['--no-resume', '--no-load']);
    const { sessionId, journal } = await converse(b);
    const ro = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(ro.resumeOutcome).to.equal('journal-only');
    expect(ro.state).to.equal('read-only');
    expect(await ro.transcript()).to.deep.equal(journal);
    const error = await ro.prompt('hello?').then(
      () => undefined,
      (e: SiloError) => e,
    );
    expect(error?.code).to.equal('journal-only');
    expect(error?.message).to.match(/new session/);
    await ro.close();

    const fresh = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId, startFresh: true } });
    expect(fresh.resumeOutcome).to.equal('new');
    expect(fresh.sessionId).not.to.equal(sessionId);
    const carried = await fresh.transcript();
    expect(carried.slice(0, journal.length)).to.deep.equal(
      journal,
      'the journal moved under the new id, in order',
    );
    await fresh.prompt('continuing');
    const newId = fresh.sessionId;
    await fresh.close();
    // Restoring the old id leads to the new one instead of retrying an id the agent never resumes.
    const again = await service.connect({ bridge: b, cwd: CWD, resume: { sessionId } });
    expect(again.sessionId).to.equal(newId);
    expect(texts(await again.transcript(), 'user_message_chunk')).to.contain('continuing');
    const history = await service.sessions();
    expect(history.map((h) => h.sessionId))
      .to.include(newId)
      .and.not.include(sessionId);
  });

  it('startFresh with discard (Clear): the old journal is deleted, the new session starts empty', async () => {
    const b = await bridge();
    const { sessionId } = await converse(b);
    const fresh = await service.connect({
      bridge: b,
      cwd: CWD,
      resume: { sessionId, startFresh: true, transcript: 'discard' },
    });
    expect(fresh.resumeOutcome).to.equal('new');
    const kinds = (await fresh.transcript()).map((u) => u.kind);
    expect(kinds.filter((k) => k.endsWith('message_chunk') || k === 'turn_end')).to.deep.equal(
      [],
      'nothing carried',
    );
    expect(await service.transcript(sessionId)).to.deep.equal([]);
    expect((await service.sessions()).map((h) => h.sessionId)).not.to.include(sessionId);
  });

  it('history and transcripts are readable offline; Clear deletes exactly one journal', async () => {
    const b = await bridge();
    const one = await converse(b);
    const two = await converse(b);
    await stopBridge(b.id);
    bridges.splice(0);
    const history = await service.sessions();
    expect(history.map((h) => h.sessionId)).to.have.members([one.sessionId, two.sessionId]);
    const entry = history.find((h) => h.sessionId === one.sessionId)!;
    expect(entry).to.include({ title: 'first question', cwd: CWD, lastOutcome: 'new' });
    expect(entry.updateCount).to.equal(one.journal.length);
    expect(Date.parse(entry.createdAt!)).to.be.at.most(Date.parse(entry.updatedAt!));
    expect(await service.transcript(one.sessionId)).to.deep.equal(one.journal);
    await service.clear(one.sessionId);
    expect(await service.transcript(one.sessionId)).to.deep.equal([]);
    expect(await service.transcript(two.sessionId)).to.deep.equal(two.journal);
  });

  it('lists the agent’s sessions the journal does not hold as loadable', async () => {
    const b = await bridge();
    const { sessionId } = await converse(b);
    const elsewhere = createAgentsService({ databaseName: `${databaseName}-elsewhere` });
    try {
      const listed = await elsewhere.sessions({ bridge: b });
      const entry = listed.find((s) => s.sessionId === sessionId);
      expect(entry).to.include({ loadable: true });
    } finally {
      await elsewhere.dispose();
    }
  });

  it('reconnects by itself when the agent dies mid-turn; the interrupted turn is recorded; the next prompt works', async () => {
    const b = await bridge();
    const states: string[] = [];
    const s = await service.connect({
      bridge: b,
      cwd: CWD,
      onStateChange: (snap) => states.push(snap.state),
    });
    const running = s.prompt('/scenario slow 400 20');
    const outcome = running.then(
      () => undefined,
      (e: SiloError) => e,
    );
    await until(() => s.snapshot.busy, 'the turn started');
    const delivered: AgentSessionUpdate[] = [];
    s.subscribe((batch) => delivered.push(...batch));
    await until(() => delivered.some((u) => u.kind === 'agent_message_chunk'), 'the slow stream started');
    await killBridgeAgents(b.id);
    const error = await outcome;
    expect(error?.code).to.equal('interrupted');
    await until(() => s.state === 'connected' && states.includes('reconnecting'), 'reconnected');
    expect(s.resumeOutcome).to.equal('resumed');
    expect(await s.prompt('after the crash')).to.equal('end_turn');
    const journal = await s.transcript();
    const ends = journal.filter((u) => u.kind === 'turn_end').map((u) => u.turnEnd!.stopReason);
    expect(ends).to.deep.equal(['interrupted', 'end_turn']);
    expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
  });

  it('a permission pending when the agent dies is recorded as no longer answerable', async () => {
    const b = await bridge();
    const asked: string[] = [];
    const s = await service.connect({ bridge: b, cwd: CWD, onPermission: (p) => asked.push(p.id) });
    const outcome = s.prompt('/scenario permission').then(
      () => undefined,
      (e: SiloError) => e,
    );
    await until(() => asked.length === 1, 'the permission request is shown');
    await killBridgeAgents(b.id);
    expect((await outcome)?.code).to.equal('interrupted');
    const journal = await s.transcript();
    const resolution = journal.find((u) => u.kind === 'permission_resolution');
    expect(resolution?.permission).to.deep.equal({ id: asked[0], resolution: 'unanswerable' });
  });

  it('reconnects after the bridge is killed and restarted mid-turn', async () => {
    const b = await bridge();
    const s = await service.connect({ bridge: b, cwd: CWD });
    const running = s.prompt('/scenario slow 400 20');
    const outcome = running.then(
      () => undefined,
      (e: SiloError) => e,
    );
    await until(() => s.snapshot.busy, 'the turn started');
    await stopBridge(b.id, true);
    expect((await outcome)?.code).to.equal('interrupted');
    await until(() => s.state === 'reconnecting', 'reconnecting while the bridge is down');
    await restartBridge(b.id);
    await until(() => s.state === 'connected', 'reconnected after the restart', 30_000);
    expect(await s.prompt('after the restart')).to.equal('end_turn');
    const ends = (await s.transcript())
      .filter((u) => u.kind === 'turn_end')
      .map((u) => u.turnEnd!.stopReason);
    expect(ends).to.deep.equal(['interrupted', 'end_turn']);
  });

  it('one writer per session: a second handle follows live, read-only, and takes over once the first closed', async () => {
    const b = await bridge();
    const owner = await service.connect({ bridge: b, cwd: CWD });
    await owner.prompt('from the owner');
    const second = createAgentsService({ databaseName });
    try {
      const mirrored: AgentSessionUpdate[] = [];
      const follower: AgentSessionHandle = await second.connect({
        bridge: b,
        cwd: CWD,
        resume: { sessionId: owner.sessionId },
        onUpdate: (u) => mirrored.push(u),
      });
      expect(follower.state).to.equal('following');
      const refused = await follower.prompt('me too').then(
        () => undefined,
        (e: SiloError) => e,
      );
      expect(refused?.code).to.equal('not-owner');
      await owner.prompt('live from the owner');
      await until(
        () => texts(mirrored, 'agent_message_chunk').includes('live from the owner'),
        'the follower mirrors',
      );
      await owner.close();
      await until(() => follower.snapshot.driverPresent === false, 'the follower knows nobody drives');
      await follower.takeOver();
      expect(follower.state).to.equal('connected');
      expect(await follower.prompt('now from the follower')).to.equal('end_turn');
      const journal = await follower.transcript();
      expect(texts(journal, 'user_message_chunk')).to.equal(
        'from the ownerlive from the ownernow from the follower',
      );
      expect(journal.map((u) => u.seq)).to.deep.equal(journal.map((_, i) => i));
    } finally {
      await second.dispose();
    }
  });

  it('the owner posts its commits to other tabs only once a follower has announced itself', async () => {
    const b = await bridge();
    const owner = await service.connect({ bridge: b, cwd: CWD });
    // This page listens on the session's channel as a follower tab would, without announcing itself.
    const tab = new BroadcastChannel(`silo:session:${owner.sessionId}`);
    const heard: TabMessage[] = [];
    tab.onmessage = (e: MessageEvent<TabMessage>) => heard.push(e.data);
    try {
      await owner.prompt('nobody follows');
      // Messages from one channel arrive in the order posted: anything posted during the turn comes
      // before the answer to this announcement.
      tab.postMessage({ type: 'follow', id: 'test-tab' } satisfies TabMessage);
      await until(() => heard.some((m) => m.type === 'commit'), 'the owner answers the announcement');
      const commits = heard.filter((m) => m.type === 'commit');
      expect(commits.map((m) => m.batch.length)).to.deep.equal([0], 'only the answer, no commit of the turn');
      await owner.prompt('one follows');
      await until(
        () => heard.some((m) => m.type === 'commit' && m.batch.some((u) => u.kind === 'turn_end')),
        'the owner posts the turn to its follower',
      );
      const posted = heard.flatMap((m) => (m.type === 'commit' ? m.batch : []));
      expect(texts(posted, 'user_message_chunk')).to.equal('one follows');
    } finally {
      tab.close();
      await owner.close();
    }
  });
});
