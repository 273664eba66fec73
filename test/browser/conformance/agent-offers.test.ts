// What agents offer a client beyond prompts (docs/agents.md), each used only when the agent
// advertises it, driven through the real bridge and the reference agent (whose `--calls-log` shows
// what Silo asked of it): `session/close` when a session is closed (the handle, the chat's New
// session), `session/delete` with Clear, saying what became of the agent's copy; a message sent
// during a turn goes to the agent at once where it takes one — into the running turn
// (`_session/steering`, claude-agent-acp 0.101 and codex-acp 2.6) or queued behind it (Claude's
// `promptQueueing`) — and the user sees which; "Branch from here" (`session/fork` where the agent
// offers it, from the last turn) starts a session carrying the journal up to a turn.
import { expect } from 'chai';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { type AgentSessionUpdate, type MessageRow, TranscriptModel } from '../../../src/index.ts';
import { agentCalls } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { part, typeAndEnter } from '../fixtures/chat.ts';
import { mount } from '../fixtures/dom.ts';

const CWD = '/tmp/silo-offers';

function modelOf(journal: readonly AgentSessionUpdate[]): TranscriptModel {
  const model = new TranscriptModel();
  model.applyAll(journal);
  return model;
}

const agentTexts = (model: TranscriptModel) =>
  model.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'agent').map((r) => r.text);

function chatOn(bridge: { connection: string }): { chat: SiloChat; unmount: () => void } {
  const chat = document.createElement('silo-chat') as SiloChat;
  chat.setAttribute('storage-key', `silo-offers-${crypto.randomUUID()}`);
  chat.setAttribute('bridge', bridge.connection);
  chat.setAttribute('cwd', CWD);
  return { chat, unmount: mount(chat) };
}

describe('what agents offer: close, delete, messages during a turn, fork (real bridge, reference agent)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();

  it('closing a session sends session/close when the agent offers it, and only then', async () => {
    const offered = await suite.bridgeWith('--calls-log');
    const s = await suite.service.connect({ bridge: offered, cwd: CWD });
    expect(await s.prompt('hello')).to.equal('end_turn');
    await s.close();
    expect(await agentCalls(offered.id)).to.include(`session/close ${s.sessionId}`);

    const without = await suite.bridgeWith('--calls-log', '--no-close');
    const t = await suite.service.connect({ bridge: without, cwd: CWD });
    await t.close();
    const calls = await agentCalls(without.id);
    expect(calls).to.include(`session/new -`);
    expect(calls.filter((c) => c.startsWith('session/close'))).to.deep.equal([]);
  });

  it("<silo-chat>'s New session closes the session it leaves", async () => {
    const bridge = await suite.bridgeWith('--calls-log');
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.setAttribute('storage-key', `silo-offers-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const first = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await chat.send('hello')).to.equal('end_turn');
      await chat.newSession();
      const second = await until(
        () => (chat.session && chat.session !== first ? chat.session : undefined),
        'a new session',
        20_000,
      );
      expect(second.sessionId).to.not.equal(first.sessionId);
      expect(await agentCalls(bridge.id)).to.include(`session/close ${first.sessionId}`);
    } finally {
      unmount();
    }
  });

  it("Clear deletes the journal and, when the agent offers it, the agent's copy; it says which", async () => {
    const bridge = await suite.bridgeWith('--calls-log');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt('hello')).to.equal('end_turn');
    const { sessionId } = s;
    await s.close();
    const listed = async () => (await suite.service.sessions({ bridge, cwd: CWD })).map((x) => x.sessionId);
    expect(await listed()).to.include(sessionId);
    expect(await suite.service.clear(sessionId, { bridge: bridge.connection })).to.deep.equal({
      agentCopy: 'deleted',
    });
    expect(await agentCalls(bridge.id)).to.include(`session/delete ${sessionId}`);
    expect(await suite.service.transcript(sessionId)).to.deep.equal([]);
    expect(await listed(), 'neither the journal nor the agent lists it').to.not.include(sessionId);

    const keeps = await suite.bridgeWith('--calls-log', '--no-delete');
    const t = await suite.service.connect({ bridge: keeps, cwd: CWD });
    expect(await t.prompt('hello')).to.equal('end_turn');
    await t.close();
    expect(await suite.service.clear(t.sessionId, { bridge: keeps })).to.deep.equal({
      agentCopy: 'not-offered',
    });
    expect((await agentCalls(keeps.id)).filter((c) => c.startsWith('session/delete'))).to.deep.equal([]);
    expect(await suite.service.transcript(t.sessionId)).to.deep.equal([]);

    const u = await suite.service.connect({ bridge, cwd: CWD });
    expect(await u.prompt('hello')).to.equal('end_turn');
    await u.close();
    expect(await suite.service.clear(u.sessionId)).to.deep.equal({ agentCopy: 'not-asked' });
    const gone = await suite.service.clear(u.sessionId, {
      bridge: { url: bridge.url, token: 'not-the-token' },
    });
    expect(gone.agentCopy).to.equal('failed');
    expect(gone.error?.code).to.equal('unreachable');
  });

  it('steering: a message during the turn goes into it (_session/steering), journaled as steered, no turn of its own', async () => {
    const bridge = await suite.bridgeWith('--steering', '--calls-log');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(s.snapshot.midTurn).to.deep.equal({ steer: true, queue: false });
    const running = s.prompt(scenarioPrompt('steer-wait'));
    await until(() => s.snapshot.busy, 'the turn runs');
    expect(await s.steer('also check the tests')).to.equal('steered');
    expect(await running).to.equal('end_turn');
    expect(await agentCalls(bridge.id)).to.include(`_session/steering ${s.sessionId}`);
    const journal = await s.transcript();
    const steered = journal.filter((u) => u.kind === 'user_message_chunk' && u.steered);
    expect(steered.map((u) => [u.text, u.messageId?.startsWith('silo-s')])).to.deep.equal([
      ['also check the tests', true],
    ]);
    const model = modelOf(journal);
    expect(agentTexts(model).at(-1)).to.equal('You said, during the turn: also check the tests');
    expect(model.rows.filter((r) => r.type === 'turn-end')).to.have.length(1);
    const row = model.rows.find((r): r is MessageRow => r.type === 'message' && r.steered === true);
    expect(row?.turn, 'the steered message is in the running turn').to.equal(1);
    expect(await s.steer('after the turn'), 'no turn runs: nothing kept').to.equal('ended');
    await s.close();

    const plain = await suite.bridgeWith();
    const t = await suite.service.connect({ bridge: plain, cwd: CWD });
    expect(t.snapshot.midTurn).to.equal(undefined);
    const err = await t.steer('x').catch((e: unknown) => e as { code?: string });
    expect((err as { code?: string }).code).to.equal('invalid-params');
    await t.close();
  });

  it('prompt queueing: a prompt during the turn is sent at once, held by the agent, journaled when its turn begins', async () => {
    const bridge = await suite.bridgeWith('--prompt-queueing', '--calls-log');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(s.snapshot.midTurn).to.deep.equal({ steer: false, queue: true });
    const first = s.prompt(scenarioPrompt('slow', 80, 50));
    await until(() => s.snapshot.busy, 'the first turn runs');
    let firstDone = false;
    void first.then(() => {
      firstDone = true;
    });
    const second = s.prompt('hello');
    await until(() => s.snapshot.queuedPrompts === 1, 'the agent holds the second prompt');
    let prompts = 0;
    await until(() => {
      void agentCalls(bridge.id).then((c) => {
        prompts = c.filter((l) => l.startsWith('session/prompt')).length;
      });
      return prompts === 2;
    }, 'the agent has both prompts');
    expect(firstDone, 'both sent while the first runs').to.equal(false);
    expect(await first).to.equal('end_turn');
    expect(await second).to.equal('end_turn');
    expect(s.snapshot.queuedPrompts).to.equal(undefined);
    const kinds = (await s.transcript()).map((u) =>
      u.kind === 'user_message_chunk' ? `user:${u.text}` : u.kind,
    );
    const order = kinds.filter((k) => k.startsWith('user:') || k === 'turn_end');
    expect(order).to.deep.equal([
      `user:${scenarioPrompt('slow', 80, 50)}`,
      'turn_end',
      'user:hello',
      'turn_end',
    ]);
    await s.close();
  });

  it('<silo-chat>: a message typed during a turn says where it went — into the turn, or held by the agent', async () => {
    const steering = await suite.bridgeWith('--steering');
    let { chat, unmount } = chatOn(steering);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      const running = session.prompt(scenarioPrompt('steer-wait'));
      await until(() => chat.session?.snapshot.busy, 'the turn runs');
      await typeAndEnter(chat, 'also this');
      await until(() => part(chat, 'steered-note'), 'says the message went into the turn');
      expect(part(chat, 'queued'), 'not held by Silo').to.equal(null);
      expect(await running).to.equal('end_turn');
      await until(
        () =>
          chat.shadowRoot!.querySelector('silo-transcript')?.shadowRoot?.querySelector('[part~="steered"]'),
        'the message marked in the transcript',
      );
    } finally {
      unmount();
    }
    const queueing = await suite.bridgeWith('--prompt-queueing');
    ({ chat, unmount } = chatOn(queueing));
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      const running = session.prompt(scenarioPrompt('slow', 80, 50));
      await until(() => chat.session?.snapshot.busy, 'the turn runs');
      await typeAndEnter(chat, 'next one');
      const held = await until(() => part(chat, 'agent-queued'), 'says the agent runs it next');
      expect(held.textContent!.replace(/\s+/g, ' ').trim()).to.equal('The agent runs this next: next one');
      expect(part(chat, 'queued'), 'not held by Silo').to.equal(null);
      expect(await running).to.equal('end_turn');
      await until(() => !part(chat, 'agent-queued'), 'gone once its turn began');
    } finally {
      unmount();
    }
  });

  it("Copilot's URL mode ids: the picker shows the modes' names and follows the agent's own mode change", async () => {
    const bridge = await suite.bridgeWith('--url-mode-ids');
    const { chat, unmount } = chatOn(bridge);
    const URL_ID = 'https://agentclientprotocol.com/protocol/session-modes#';
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      const picker = await until(
        () =>
          [...chat.shadowRoot!.querySelectorAll('[part="pickers"] label')]
            .find((l) => l.querySelector('span')?.textContent === 'Mode')
            ?.querySelector('select'),
        'the mode picker',
      );
      expect([...picker.options].map((o) => [o.value, o.textContent])).to.deep.equal([
        [`${URL_ID}ask`, 'Ask'],
        [`${URL_ID}code`, 'Code'],
        [`${URL_ID}architect`, 'Architect'],
      ]);
      expect(picker.selectedOptions[0]?.textContent).to.equal('Ask');
      // The agent switches itself and says so with current_mode_update only (as Copilot CLI does).
      expect(await session.prompt(scenarioPrompt('mode-switch', 'code'))).to.equal('end_turn');
      await until(() => picker.selectedOptions[0]?.textContent === 'Code', 'the picker follows the agent');
      expect(session.configOptions.find((o) => o.id === 'mode')?.currentValue).to.equal(`${URL_ID}code`);
    } finally {
      unmount();
    }
  });

  it("Codex's threadStatus: while the turn waits on an approval the chat says so; the snapshot follows it", async () => {
    const bridge = await suite.bridgeWith('--thread-status');
    const { chat, unmount } = chatOn(bridge);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      const running = session.prompt(scenarioPrompt('permission'));
      const working = () => part(chat, 'working')?.querySelector('[role="status"]')?.textContent;
      await until(() => working() === 'Waiting for your approval…', 'the wait said');
      expect(session.snapshot.activity).to.deep.equal({ status: 'active', waitingOn: ['approval'] });
      const allow = await until(
        () =>
          chat
            .shadowRoot!.querySelector('silo-transcript')
            ?.shadowRoot?.querySelector<HTMLButtonElement>('[part~="permission-option"]'),
        'the permission prompt',
      );
      allow.click();
      expect(await running).to.equal('end_turn');
      expect(session.snapshot.activity).to.deep.equal({ status: 'idle' });
    } finally {
      unmount();
    }
  });

  /** A session of two ended turns ("one", "two") on `bridge`, closed; resolves to its id and journal. */
  async function twoTurnSession(bridge: { url: string; token: string }) {
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt('one')).to.equal('end_turn');
    expect(await s.prompt('two')).to.equal('end_turn');
    const journal = await s.transcript();
    await s.close();
    return { sessionId: s.sessionId, journal };
  }
  // The branch's own commands announcement arrives live, before or after a read: not part of the copy.
  const shape = (journal: readonly AgentSessionUpdate[]) =>
    journal
      .filter((u) => u.kind !== 'turn_end' && u.kind !== 'available_commands_update')
      .map((u) => [u.kind, u.text ?? u.toolCall?.toolCallId]);
  const users = (journal: readonly AgentSessionUpdate[]) =>
    journal.filter((u) => u.kind === 'user_message_chunk').map((u) => u.text);

  it('fork from the last turn: session/fork, the journal carried whole, the source untouched; the branch restores', async () => {
    const bridge = await suite.bridgeWith('--fork', '--calls-log');
    const source = await twoTurnSession(bridge);
    const b = await suite.service.connect({ bridge, cwd: CWD, fork: { sessionId: source.sessionId } });
    expect([b.resumeOutcome, b.restoreNote]).to.deep.equal(['forked', undefined]);
    expect(b.sessionId).to.not.equal(source.sessionId);
    expect(await agentCalls(bridge.id)).to.include(`session/fork ${source.sessionId}`);
    expect(shape(await b.transcript())).to.deep.equal(shape(source.journal));
    expect(await b.prompt('three')).to.equal('end_turn');
    expect(users(await suite.service.transcript(source.sessionId)), 'the source as it was').to.deep.equal([
      'one',
      'two',
    ]);
    const listed = (await suite.service.sessions()).find((x) => x.sessionId === b.sessionId);
    expect(listed?.forkedFrom).to.deep.equal({ sessionId: source.sessionId, turn: 2 });
    const branch = await b.transcript();
    await b.close();
    // The branch is a session of its own: resumed from its journal, and loaded from the agent's copy.
    const again = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId: b.sessionId } });
    expect(again.resumeOutcome).to.equal('resumed');
    expect(await again.transcript()).to.deep.equal(branch);
    await again.close();
    const loaded = await suite.service.connect({
      bridge,
      cwd: CWD,
      resume: { sessionId: b.sessionId, via: 'load' },
    });
    expect([loaded.resumeOutcome, loaded.restoreNote]).to.deep.equal(['loaded', undefined]);
    expect(users(await loaded.transcript()), 'the replay added nothing').to.deep.equal([
      'one',
      'two',
      'three',
    ]);
    await loaded.close();
  });

  it('fork from an earlier turn (handle.fork): a new session carrying the journal up to it, saying the agent lacks that history', async () => {
    const bridge = await suite.bridgeWith('--fork', '--calls-log');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt('one')).to.equal('end_turn');
    expect(await s.prompt('two')).to.equal('end_turn');
    const b = await s.fork({ atTurn: 1 });
    expect([b.resumeOutcome, b.restoreNote]).to.deep.equal(['forked', 'history-not-in-agent']);
    const calls = await agentCalls(bridge.id);
    expect(calls.filter((c) => c.startsWith('session/fork'))).to.deep.equal([]);
    const branch = await b.transcript();
    expect(users(branch)).to.deep.equal(['one']);
    expect(branch.map((u) => u.seq)).to.deep.equal([...branch.keys()]);
    expect(s.state, 'the source stays connected').to.equal('connected');
    expect(users(await s.transcript())).to.deep.equal(['one', 'two']);
    await b.close();
    const err = await s.fork({ atTurn: 7 }).catch((e: unknown) => e as { code?: string });
    expect((err as { code?: string }).code).to.equal('invalid-params');
    await s.close();
  });

  it("an agent that replays the fork while answering (OpenCode): the branch holds the source's journal once", async () => {
    const bridge = await suite.bridgeWith('--fork', '--fork-replay');
    const source = await twoTurnSession(bridge);
    const b = await suite.service.connect({ bridge, cwd: CWD, fork: { sessionId: source.sessionId } });
    expect(b.resumeOutcome).to.equal('forked');
    expect(shape(await b.transcript())).to.deep.equal(shape(source.journal));
    await b.close();
  });

  it('<silo-chat>: "Branch from here" on a turn end starts the branch; its banner says what the agent keeps', async () => {
    const bridge = await suite.bridgeWith('--fork');
    const { chat, unmount } = chatOn(bridge);
    try {
      const first = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await chat.send('one')).to.equal('end_turn');
      expect(await chat.send('two')).to.equal('end_turn');
      const transcript = chat.shadowRoot!.querySelector('silo-transcript')!;
      const buttons = await until(() => {
        const b = [...transcript.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part~="branch"]')];
        return b.length === 2 ? b : undefined;
      }, 'a Branch button on each turn end');
      expect(buttons[0]!.textContent!.trim()).to.equal('Branch from here');
      buttons[0]!.click();
      const branch = await until(
        () => (chat.session && chat.session !== first ? chat.session : undefined),
        'the branch',
        20_000,
      );
      expect(branch.resumeOutcome).to.equal('forked');
      await until(() => part(chat, 'banner')?.textContent?.includes('without that history'), 'the note');
      expect(users(await branch.transcript())).to.deep.equal(['one']);
    } finally {
      unmount();
    }
  });
});
