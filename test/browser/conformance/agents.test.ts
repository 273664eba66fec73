// What Codex (codex-acp), Gemini CLI and Cline send that Claude's adapter does not (docs/agents.md),
// each reproduced by a reference-agent flag or scenario and driven through the real bridge:
// permissions asked before their tool call, string request ids, id-less reasoning with blank first
// chunks and metadata in its middle, output only in rawOutput, no title, unstable models, usage in
// _meta, load-only restores with a replay after the load response, modes the agent forgets, a session
// another client holds (the current Codex), and a tool call patched before it is announced (Cline).
import { expect } from 'chai';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import {
  type AgentPermissionRequest,
  type AgentSessionUpdate,
  createAgentsService,
  type MessageRow,
  type ToolCallRow,
  TranscriptModel,
} from '../../../src/index.ts';
import { bridgeOptions } from '../../../src/service.ts';
import { AgentLink } from '../../../worker/link.ts';
import { bridgeAgentCount } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { deepElements, mount } from '../fixtures/dom.ts';

const CWD = '/tmp/silo-agents';

async function modelOf(journal: Parameters<TranscriptModel['applyAll']>[0]): Promise<TranscriptModel> {
  const model = new TranscriptModel();
  model.applyAll(journal);
  return model;
}

describe('agents: what Codex and Gemini CLI send (real bridge, reference agent)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();
  const { bridgeWith } = suite;

  it('a permission asked before its tool call (string request ids) draws the card from its fields; refused, the card ends cancelled, live and restored', async () => {
    const bridge = await bridgeWith('--string-request-ids', '--no-message-id');
    const asked: AgentPermissionRequest[] = [];
    const s = await suite.service.connect({ bridge, cwd: CWD, onPermission: (p) => asked.push(p) });
    const running = s.prompt(scenarioPrompt('permission-first'));
    await until(() => asked.length === 1, 'the permission request');
    expect(asked[0]!.toolCall).to.deep.include({
      toolCallId: 'call-first',
      title: 'ls -la',
      kind: 'execute',
    });
    // The request reaches the page as it comes; its record is journaled beside it (not before).
    const live = await until(async () => {
      const m = await modelOf(await s.transcript());
      return m.get('t:call-first') ? m : undefined;
    }, 'the journal holds the card the permission drew');
    expect((live!.get('t:call-first') as ToolCallRow).toolCall).to.deep.include({
      title: 'ls -la',
      kind: 'execute',
      status: 'pending',
    });
    // Gemini's ids: the refusal is the option of kind reject_once, whatever its id.
    const reject = asked[0]!.options.find((o) => o.kind === 'reject_once')!;
    expect(reject.optionId).to.equal('cancel');
    await asked[0]!.choose(reject.optionId);
    expect(await running).to.equal('end_turn');
    const ended = await modelOf(await s.transcript());
    expect((ended.get('t:call-first') as ToolCallRow).toolCall.status).to.equal('cancelled');
    const { sessionId } = s;
    await s.close();
    const again = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    const restored = await modelOf(await again.transcript());
    expect((restored.get('t:call-first') as ToolCallRow).toolCall.status).to.equal('cancelled');
    await again.close();
  });

  it('id-less reasoning that starts "\\n\\n" with metadata in its middle is one thought; a blank first chunk draws no bubble', async () => {
    const bridge = await bridgeWith('--no-message-id');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt(scenarioPrompt('reasoning'))).to.equal('end_turn');
    const model = await modelOf(await s.transcript());
    const messages = model.rows.filter((r): r is MessageRow => r.type === 'message');
    expect(messages.map((m) => [m.role, m.text])).to.deep.equal([
      ['user', '/scenario reasoning'],
      ['thought', '**Planning** I look at the files and decide.'],
      ['agent', 'Done.'],
    ]);
    await s.close();
  });

  it('a tool call with no content shows its rawOutput: a string as text (markup not rendered), an object as folded JSON', async () => {
    const bridge = await bridgeWith();
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.setAttribute('storage-key', `silo-agents-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await session.prompt(scenarioPrompt('raw-output'))).to.equal('end_turn');
      const outputs = await until(
        () => {
          const found = deepElements(chat.shadowRoot!).filter(
            (e) => e.getAttribute('part') === 'tool-output',
          );
          return found.length === 2 ? found : undefined;
        },
        'both raw outputs rendered',
        20_000,
      );
      expect(outputs[0]!.tagName).to.equal('PRE');
      expect(outputs[0]!.textContent).to.equal('<b>not bold</b> done');
      expect(outputs[0]!.querySelector('b')).to.equal(null);
      expect(outputs[1]!.tagName).to.equal('DETAILS');
      expect(outputs[1]!.querySelector('summary')!.textContent!.trim()).to.equal('Output');
      expect(JSON.parse(outputs[1]!.querySelector('pre')!.textContent!)).to.deep.equal({
        size: 42,
        mode: '0644',
      });
    } finally {
      unmount();
    }
  });

  it('an agent that never names the session: the first prompt does (header, snapshot, restore) until the agent names it', async () => {
    const bridge = await bridgeWith('--no-title');
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.setAttribute('storage-key', `silo-agents-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await session.prompt('\n  Plan the garden party  \nwith lanterns')).to.equal('end_turn');
      await until(
        () => chat.shadowRoot!.querySelector('[part="title"]')?.textContent === 'Plan the garden party',
        'the header shows the first prompt',
        20_000,
      );
      expect(await session.prompt('and music')).to.equal('end_turn');
      expect(session.agentInfo.title).to.equal('Plan the garden party');
      const { sessionId } = session;
      await session.close();
      unmount();
      const again = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
      expect(again.agentInfo.title).to.equal('Plan the garden party');
      expect((await modelOf(await again.transcript())).current.title).to.equal('Plan the garden party');
      expect(await again.prompt(scenarioPrompt('title', 'Garden party'))).to.equal('end_turn');
      expect(again.agentInfo.title).to.equal('Garden party');
      await again.close();
    } finally {
      unmount();
    }
  });

  it('unstable `models` in the session response feed the model picker (set with session/set_model); usage from the prompt response `_meta.quota` is shown', async () => {
    const bridge = await bridgeWith('--models', '--usage-in-meta');
    const chat = document.createElement('silo-chat') as SiloChat;
    chat.setAttribute('storage-key', `silo-agents-${crypto.randomUUID()}`);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      expect(session.configOptions.find((o) => o.id === 'model')).to.deep.equal({
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: 'fast',
        options: [
          { value: 'fast', name: 'Fast', description: 'Quick answers' },
          { value: 'smart', name: 'Smart', description: 'Careful answers' },
          { value: 'huge', name: 'Huge', description: 'Everything at once' },
        ],
        source: 'model',
      });
      const picker = await until(
        () =>
          [...chat.shadowRoot!.querySelectorAll('[part="pickers"] label')]
            .find((l) => l.querySelector('span')?.textContent === 'Model')
            ?.querySelector('select'),
        'the model picker',
        20_000,
      );
      expect([...picker.options].map((o) => o.value)).to.deep.equal(['fast', 'smart', 'huge']);
      picker.value = 'smart';
      picker.dispatchEvent(new Event('change'));
      await until(
        () => session.configOptions.find((o) => o.id === 'model')?.currentValue === 'smart',
        'the model set',
      );
      expect(await session.prompt('hello')).to.equal('end_turn');
      const tokens = await until(
        () => deepElements(chat.shadowRoot!).find((e) => e.getAttribute('part') === 'turn-tokens'),
        'the turn tokens shown',
        20_000,
      );
      expect(tokens.textContent).to.equal(' · 135 tokens');
      expect(tokens.getAttribute('title')).to.equal('135 tokens: 85 in, 50 out');
      const { sessionId } = session;
      await session.close();
      unmount();
      // The agent took the model: its resume response says so.
      const again = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
      expect(again.resumeOutcome).to.equal('resumed');
      expect(again.configOptions.find((o) => o.id === 'model')?.currentValue).to.equal('smart');
      await again.close();
    } finally {
      unmount();
    }
  });

  it('Gemini-like restore (load only, no list, the replay after the load response): the late replay is merged, not journaled as a new turn', async () => {
    const bridge = await bridgeWith('--no-resume', '--no-list', '--replay-after-load-response');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt('first question')).to.equal('end_turn');
    expect(await s.prompt('second question')).to.equal('end_turn');
    const { sessionId } = s;
    await s.close();
    // No session/list: the journaled sessions, and no error.
    const listed = await suite.service.sessions({ bridge, cwd: CWD });
    expect(listed.map((x) => x.sessionId)).to.include(sessionId);
    const again = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(again.resumeOutcome).to.equal('loaded');
    expect(again.restoreNote).to.equal(undefined);
    expect(await again.prompt('third question')).to.equal('end_turn');
    const prompts = (m: TranscriptModel) =>
      m.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === 'user').map((r) => r.text);
    const merged = await modelOf(await again.transcript());
    expect(prompts(merged)).to.deep.equal(['first question', 'second question', 'third question']);
    expect(merged.rows.filter((r) => r.type === 'turn-end')).to.have.length(3);
    await again.close();
    // Another browser (an empty journal): the whole replay is journaled, the late part included.
    await suite.service.clear(sessionId);
    const fresh = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(fresh.resumeOutcome).to.equal('loaded');
    // The load resolves with its response; the late replay is journaled, as replay, as it arrives.
    const filled = await until(async () => {
      const p = prompts(await modelOf(await fresh.transcript()));
      return p.length >= 3 ? p : undefined;
    }, 'the late replay journaled');
    expect(filled).to.deep.equal(['first question', 'second question', 'third question']);
    expect(await fresh.prompt('fourth question')).to.equal('end_turn');
    expect(prompts(await modelOf(await fresh.transcript()))).to.deep.equal([
      'first question',
      'second question',
      'third question',
      'fourth question',
    ]);
    await fresh.close();
  });

  it('an agent that forgets the mode and model on resume and load (Codex): the choices of the session are set again, and the outcome says so', async () => {
    const bridge = await bridgeWith('--forget-mode');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    await s.setConfigOption('mode', 'code');
    await s.setConfigOption('model', 'smart');
    expect(await s.prompt('hello')).to.equal('end_turn');
    const { sessionId } = s;
    await s.close();
    const value = (h: { configOptions: readonly { id: string; currentValue: unknown }[] }, id: string) =>
      h.configOptions.find((o) => o.id === id)?.currentValue;
    const resumed = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(resumed.resumeOutcome).to.equal('resumed');
    expect(resumed.restoreNote).to.equal('options-reapplied');
    expect([value(resumed, 'mode'), value(resumed, 'model')]).to.deep.equal(['code', 'smart']);
    await resumed.close();
    const loaded = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
    expect(loaded.resumeOutcome).to.equal('loaded');
    expect(loaded.restoreNote).to.equal('options-reapplied');
    expect([value(loaded, 'mode'), value(loaded, 'model')]).to.deep.equal(['code', 'smart']);
    await loaded.close();
  });

  it('a tool call patched before it is announced (Cline): one card, its final status, the fields and content of both; live, restored and replayed', async () => {
    const bridge = await bridgeWith();
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt(scenarioPrompt('update-first'))).to.equal('end_turn');
    const expectOneCard = (journal: readonly AgentSessionUpdate[], how: string) => {
      const model = new TranscriptModel();
      const statuses: string[] = [];
      for (const u of journal) {
        model.apply(u);
        const card = model.get('t:call-early') as ToolCallRow | undefined;
        if (card && statuses.at(-1) !== card.toolCall.status) statuses.push(card.toolCall.status);
      }
      const cards = model.rows.filter((r): r is ToolCallRow => r.type === 'tool');
      expect(cards, how).to.have.length(1);
      expect(cards[0]!.toolCall, how).to.deep.include({ title: 'ls', kind: 'execute', status: 'completed' });
      expect(cards[0]!.toolCall.rawInput, how).to.deep.equal({ command: 'ls' });
      expect(cards[0]!.toolCall.content, how).to.deep.equal([
        { type: 'content', content: { type: 'text', text: 'Listing the files…' } },
      ]);
      expect(statuses, `${how}: never back to pending`).to.deep.equal(['in_progress', 'completed']);
    };
    expectOneCard(await s.transcript(), 'live');
    const { sessionId } = s;
    await s.close();
    const again = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expectOneCard(await again.transcript(), 'restored from the journal');
    await again.close();
    const elsewhere = createAgentsService({ databaseName: `silo-agents-empty-${crypto.randomUUID()}` });
    try {
      const loaded = await elsewhere.connect({ bridge, cwd: CWD, resume: { sessionId } });
      expect(loaded.resumeOutcome).to.equal('loaded');
      expectOneCard(await loaded.transcript(), 'replayed into an empty journal');
      await loaded.close();
    } finally {
      await elsewhere.dispose();
    }
  });

  it('a session another client holds (the current Codex answers load and resume -32600 thread_active_writer): journal-only says why, and <silo-chat> offers to try again', async () => {
    const bridge = await bridgeWith('--exclusive-sessions');
    const first = await suite.service.connect({ bridge, cwd: CWD });
    expect(await first.prompt('first question')).to.equal('end_turn');
    const { sessionId } = first;
    await first.close();
    // Another client (an editor, another browser) opens the session with the agent and keeps it.
    const holder = await AgentLink.open(bridgeOptions(bridge.connection), {
      onUpdate: () => {},
      onInbound: () => {},
      onOutboundResponse: () => {},
      permission: async () => ({ outcome: { outcome: 'cancelled' } }),
      elicitation: async () => ({ action: 'cancel' }),
    });
    await holder.request('session/load', { sessionId, cwd: CWD, mcpServers: [] });
    // This browser's journal does not hold the session (as a new browser's would not).
    const other = createAgentsService({ databaseName: `silo-agents-other-${crypto.randomUUID()}` });
    const chat = document.createElement('silo-chat') as SiloChat;
    const storageKey = `silo-agents-${crypto.randomUUID()}`;
    localStorage.setItem(`${storageKey}:${CWD}`, sessionId);
    chat.service = other;
    chat.setAttribute('storage-key', storageKey);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      expect(session.resumeOutcome).to.equal('journal-only');
      expect(session.restoreNote).to.equal('held-elsewhere');
      const banner = await until(
        () => chat.shadowRoot!.querySelector('[part="banner"]'),
        'the banner',
        20_000,
      );
      expect(banner.textContent).to.contain('Another browser or app has this conversation open');
      const retry = banner.querySelector<HTMLButtonElement>('[part="try-again"]')!;
      expect(retry.textContent?.trim()).to.equal('Try again');
      // Closed there: trying again here loads it.
      holder.close();
      await holder.ended;
      await until(async () => (await bridgeAgentCount(bridge.id)) === 1, 'the other client’s agent exited');
      retry.click();
      await until(
        () => chat.session !== session && chat.session?.resumeOutcome === 'loaded',
        'loaded on retry',
      );
      expect(chat.session!.restoreNote).to.equal(undefined);
      const user = (await chat.session!.transcript()).filter((u) => u.kind === 'user_message_chunk');
      expect(user.map((u) => u.text)).to.deep.equal(['first question']);
    } finally {
      unmount();
      await other.dispose();
    }
  });
});
