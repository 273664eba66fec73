// Replays shaped differently from live (docs/agents.md): the session/load replays of codex-acp, Gemini
// CLI, Qwen Code, Copilot CLI and claude-agent-acp (0.101 and 0.23), reproduced by the reference
// agent's --replay-shape, restored into an empty journal (another device) read as live; into a journal
// that holds them, recognised as the same history (no note), with exactly the turns the journal lacks
// appended. Gemini's [MODE_UPDATE] text outside a turn is a mode change.
import { expect } from 'chai';
import { CLAUDE_MODEL_MARKUP } from '../../../agent/replay-shape.ts';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { toJsonl } from '../../../src/export.ts';
import {
  type AgentSessionHandle,
  type AgentSessionUpdate,
  createAgentsService,
  type MessageRow,
  type PlanRow,
  type ToolCallRow,
  type TranscriptModel,
} from '../../../src/index.ts';
import type { TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { deepElements, mount } from '../fixtures/dom.ts';
import { anotherDeviceSends, conversationAdded } from '../fixtures/pages.ts';
import { modelOf } from '../fixtures/transcript-data.ts';

const CWD = '/tmp/silo-replay-shapes';

const messages = (m: TranscriptModel, role: MessageRow['role']) =>
  m.rows.filter((r): r is MessageRow => r.type === 'message' && r.role === role).map((r) => r.text);
const tools = (m: TranscriptModel) =>
  m.rows
    .filter((r): r is ToolCallRow => r.type === 'tool')
    .map((r) => [r.toolCall.toolCallId, r.toolCall.kind, r.toolCall.status]);

/** Gemini CLI as the reference agent plays it: its replay shape, no message ids, load only (no resume, no list), the replay after the load response. */
const GEMINI = [
  '--replay-shape',
  'gemini',
  '--no-message-id',
  '--no-resume',
  '--no-list',
  '--replay-after-load-response',
];

/** The tool cards of the `tools` scenario once restored: final statuses, the shell command `execute`. */
const TOOL_CARDS = [
  ['call-read', 'read', 'completed'],
  ['call-new', 'edit', 'completed'],
  ['call-edit', 'edit', 'completed'],
  ['call-check', 'execute', 'failed'],
];

/** A `<silo-chat>` mounted to restore `sessionId` through `bridge` (as a page reload does). */
function chatRestoring(bridge: TestBridge, sessionId: string): { chat: SiloChat; unmount: () => void } {
  const chat = document.createElement('silo-chat') as SiloChat;
  const storageKey = `silo-replay-shapes-${crypto.randomUUID()}`;
  localStorage.setItem(`${storageKey}:${CWD}`, sessionId);
  chat.setAttribute('storage-key', storageKey);
  chat.setAttribute('bridge', bridge.connection);
  chat.setAttribute('cwd', CWD);
  return { chat, unmount: mount(chat) };
}

/** Awaits the chat's four tool cards and checks their kinds and statuses against {@link TOOL_CARDS}. */
async function expectToolCards(chat: SiloChat): Promise<void> {
  const cards = await until(
    () => {
      const found = deepElements(chat.shadowRoot!).filter((e) => e.classList.contains('tool'));
      return found.length === 4 ? found : undefined;
    },
    'the four tool cards rendered',
    20_000,
  );
  expect(cards.map((c) => [c.getAttribute('data-kind'), c.getAttribute('data-status')])).to.deep.equal(
    TOOL_CARDS.map(([, kind, status]) => [kind, status]),
  );
}

describe('replays shaped differently from live (real bridge, reference agent --replay-shape)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();
  const { bridgeWith } = suite;

  /** A session with a cancelled turn and the `tools` turn (plan, four tool calls, one a shell command). */
  async function toolsSession(bridge: TestBridge): Promise<string> {
    const s = await suite.service.connect({ bridge, cwd: CWD });
    const seen: AgentSessionUpdate[] = [];
    s.subscribe((batch) => seen.push(...batch));
    const slow = s.prompt(scenarioPrompt('slow', 50, 100));
    await until(
      () => seen.filter((u) => u.kind === 'agent_message_chunk').length >= 2,
      'two chunks streamed',
    );
    await s.cancel();
    expect(await slow).to.equal('cancelled');
    expect(await s.prompt(scenarioPrompt('tools'))).to.equal('end_turn');
    const { sessionId } = s;
    await s.close();
    return sessionId;
  }

  it('Codex: a replay with final tool calls, exec_command without kind, update_plan and no cancelled text is the same history, and reads as live into an empty journal', async () => {
    const bridge = await bridgeWith('--replay-shape', 'codex', '--no-message-id');
    const sessionId = await toolsSession(bridge);
    // The journal holds the session: the replay is recognised, nothing is added.
    const first = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
    const journaled = (await first.transcript()).length;
    expect(first.resumeOutcome).to.equal('loaded');
    expect(first.restoreNote).to.equal(undefined);
    expect((await first.transcript()).length).to.equal(journaled);
    await first.close();
    // Another device: the replay is the whole history.
    await suite.service.clear(sessionId);
    const fresh = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(fresh.resumeOutcome).to.equal('loaded');
    const model = modelOf(await fresh.transcript());
    expect(messages(model, 'user')).to.deep.equal([scenarioPrompt('slow', 50, 100), scenarioPrompt('tools')]);
    expect(messages(model, 'agent')).to.deep.equal([
      'Done: one read, a new file, an edit, and a failed check.',
    ]);
    expect(tools(model)).to.deep.equal(TOOL_CARDS);
    const plans = model.rows.filter((r): r is PlanRow => r.type === 'plan');
    expect(plans.map((p) => p.entries)).to.deep.equal([
      [
        { content: 'Read the existing code', priority: 'medium', status: 'completed' },
        { content: 'Write the new module', priority: 'medium', status: 'completed' },
        { content: 'Run the checks', priority: 'medium', status: 'completed' },
      ],
    ]);
    // The journal keeps what the agent sent.
    const raws = (await fresh.transcript()).map((u) => u.raw);
    expect(raws.filter((r) => r.title === 'update_plan')).to.have.length(4);
    expect(raws.find((r) => r.toolCallId === 'call-check')).to.include({ title: 'exec_command' });
    await fresh.close();
    // What the user sees: the plan, the command as a command card, nothing pending.
    const { chat, unmount } = chatRestoring(bridge, sessionId);
    try {
      await expectToolCards(chat);
      const plan = deepElements(chat.shadowRoot!).filter((e) => e.getAttribute('part') === 'row plan');
      expect(plan).to.have.length(1);
      expect(plan[0]!.querySelectorAll('li[data-status="completed"]')).to.have.length(3);
    } finally {
      unmount();
    }
  });

  it('Gemini: its replay of a journaled session is recognised; the hidden <session_context> message and [Function Call/Response] markers are never shown; the late replay fills an empty journal in <silo-chat>', async () => {
    const bridge = await bridgeWith(...GEMINI);
    const sessionId = await toolsSession(bridge);
    // The journal holds the session; the replay omits its cancelled turn and groups the tool calls
    // after the last turn: the same history, recognised, nothing added and no notice.
    const journaled = (await suite.service.transcript(sessionId)).length;
    const first = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(first.resumeOutcome).to.equal('loaded');
    expect(first.restoreNote).to.equal(undefined);
    expect((await first.transcript()).length).to.equal(journaled);
    await first.close();
    await suite.service.clear(sessionId);
    const { chat, unmount } = chatRestoring(bridge, sessionId);
    try {
      const session: AgentSessionHandle = await until(() => chat.session, 'the chat connected', 20_000);
      expect(session.resumeOutcome).to.equal('loaded');
      const root = chat.shadowRoot!;
      await expectToolCards(chat);
      const bubbles = deepElements(root).filter((e) => e.getAttribute('part') === 'row message message-user');
      expect(bubbles).to.have.length(1); // the cancelled turn is omitted by Gemini
      expect(bubbles[0]!.textContent).to.include(scenarioPrompt('tools'));
      const text = deepElements(root)
        .map((e) => (e.shadowRoot ? '' : (e.textContent ?? '')))
        .join('\n');
      expect(text).to.not.include('session_context');
      expect(text).to.not.include('[Function');
      // The journal keeps the agent's chunk; it is no prompt and does not name the session.
      const journal = await session.transcript();
      expect(journal[0]!.kind).to.equal('agent_context');
      expect(String((journal[0]!.raw.content as { text: string }).text)).to.match(/^<session_context>/);
      const model = modelOf(journal);
      expect(messages(model, 'user')).to.deep.equal([scenarioPrompt('tools')]);
      expect(model.current.title).to.equal(scenarioPrompt('tools'));
    } finally {
      unmount();
    }
  });

  it('Gemini: a replay that goes on well after the load response fills an empty journal as replay; the first prompt ends it', async () => {
    const bridge = await bridgeWith(...GEMINI, '--late-replay-ms', '400');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt(scenarioPrompt('tools'))).to.equal('end_turn');
    const { sessionId } = s;
    await s.close();
    await suite.service.clear(sessionId);
    const fresh = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId } });
    expect(fresh.resumeOutcome).to.equal('loaded');
    const journal = await until(async () => {
      const j = await fresh.transcript();
      return j.filter((u) => u.kind === 'tool_call').length === 4 ? j : undefined;
    }, 'the late replay journaled');
    expect(journal[0]!.kind).to.equal('agent_context');
    expect(messages(modelOf(journal), 'user')).to.deep.equal([scenarioPrompt('tools')]);
    expect(journal.filter((u) => u.kind === 'agent_context')).to.have.length(5);
    expect(await fresh.prompt('second question')).to.equal('end_turn');
    const model = modelOf(await fresh.transcript());
    expect(messages(model, 'user')).to.deep.equal([scenarioPrompt('tools'), 'second question']);
    await fresh.close();
  });

  it('Gemini: "[MODE_UPDATE] <modeId>" agent text outside a turn changes the mode and draws no bubble', async () => {
    const bridge = await bridgeWith('--mode-update-marker');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    const mode = () => s.configOptions.find((o) => o.id === 'mode')?.currentValue;
    expect(mode()).to.equal('ask');
    expect(await s.prompt(scenarioPrompt('mode-switch', 'architect'))).to.equal('end_turn');
    await until(() => mode() === 'architect', 'the agent’s mode change applied');
    const journal = await s.transcript();
    expect(journal.filter((u) => u.kind === 'current_mode_update').map((u) => u.raw)).to.deep.equal([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '[MODE_UPDATE] architect' } },
    ]);
    expect(messages(modelOf(journal), 'agent')).to.deep.equal(['Switching to architect mode.']);
    await s.close();
  });

  /** One line per bubble and tool card, as a reader sees them. */
  const seen = (journal: readonly AgentSessionUpdate[]) =>
    modelOf(journal).rows.flatMap((r) =>
      r.type === 'message'
        ? [`${r.role}: ${r.text}`]
        : r.type === 'tool'
          ? [`tool ${r.toolCall.toolCallId}`]
          : [],
    );

  /**
   * A reload of the session here loads the agent's replay: the same history in another shape adds
   * nothing and shows no note; after another device went on, exactly its turn is appended.
   */
  async function sameHistoryThenMore(bridge: TestBridge, sessionId: string): Promise<void> {
    const journal = await suite.service.transcript(sessionId);
    const reload = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
    expect(reload.resumeOutcome).to.equal('loaded');
    expect(reload.restoreNote, 'the same history: no note').to.equal(undefined);
    expect(conversationAdded(journal, await reload.transcript()), 'nothing added').to.deep.equal([]);
    await reload.close();
    await anotherDeviceSends(bridge, CWD, sessionId, 'from another device');
    const after = await suite.service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
    expect(after.restoreNote).to.equal(undefined);
    const merged = await after.transcript();
    expect(merged.slice(0, journal.length), 'the journal is kept as it was').to.deep.equal(journal);
    const added = seen(merged).slice(seen(journal).length);
    expect(added[0]).to.equal('user: from another device');
    expect(added.filter((line) => line.startsWith('user: '))).to.have.length(1, 'exactly the turn it lacked');
    expect(added.at(-1)).to.match(/^agent: \*\*Echo:\*\* from another device/);
    await after.close();
  }

  it('Qwen Code: a tool call it announces live only through its permission request, replayed as a tool_call, is the same history', async () => {
    const bridge = await bridgeWith('--replay-shape', 'qwen', '--no-message-id');
    const s = await suite.service.connect({
      bridge,
      cwd: CWD,
      onPermission: (p) => void p.choose('allow-once'),
    });
    expect(await s.prompt(scenarioPrompt('permission'))).to.equal('end_turn');
    expect(await s.prompt('thanks')).to.equal('end_turn');
    const journal = await s.transcript();
    expect(
      journal.filter((u) => u.kind === 'tool_call'),
      'live: no tool_call',
    ).to.deep.equal([]);
    expect((modelOf(journal).get('t:call-permission') as ToolCallRow).toolCall.status).to.equal('completed');
    const { sessionId } = s;
    await s.close();
    await sameHistoryThenMore(bridge, sessionId);
  });

  it('Copilot CLI: the "Info: <path>" text it sends live after a file write and leaves out of its replay is no difference', async () => {
    const bridge = await bridgeWith('--replay-shape', 'copilot', '--no-message-id');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt(scenarioPrompt('tools'))).to.equal('end_turn');
    const journal = await s.transcript();
    expect(journal.filter((u) => u.text?.startsWith('Info: '))).to.have.length(2);
    const { sessionId } = s;
    await s.close();
    await sameHistoryThenMore(bridge, sessionId);
  });

  it('claude-agent-acp: its replay (whole messages, "[Request interrupted by user]" after a cancelled turn) is the same history; the turns it has after it are appended', async () => {
    const bridge = await bridgeWith('--replay-shape', 'claude');
    const sessionId = await toolsSession(bridge);
    await sameHistoryThenMore(bridge, sessionId);
  });

  it('claude-agent-acp 0.23: its replay without ids, starting with /model command markup, is the same history; into an empty journal the markup is never shown and names nothing', async () => {
    const bridge = await bridgeWith('--replay-shape', 'claude-0.23', '--no-message-id');
    const sessionId = await toolsSession(bridge);
    await sameHistoryThenMore(bridge, sessionId);
    const elsewhere = createAgentsService({
      databaseName: `silo-replay-shapes-empty-${crypto.randomUUID()}`,
    });
    try {
      const fresh = await elsewhere.connect({ bridge, cwd: CWD, resume: { sessionId } });
      const journal = await fresh.transcript();
      expect(
        journal.slice(0, 2).map((u) => [u.kind, (u.raw.content as { text: string }).text]),
      ).to.deep.equal(CLAUDE_MODEL_MARKUP.map((t) => ['agent_context', t]));
      const model = modelOf(journal);
      expect(messages(model, 'user')[0]).to.equal(scenarioPrompt('slow', 50, 100));
      // The first prompt names the session until the agent does (its answer to the other device).
      const named = journal.findIndex((u) => u.kind === 'session_info_update');
      expect(modelOf(journal.slice(0, named)).current.title).to.equal(scenarioPrompt('slow', 50, 100));
      await fresh.close();
    } finally {
      await elsewhere.dispose();
    }
  });

  it('a replay that cannot be merged still leaves every update that is no part of the conversation in the journal (the title and usage it replays, the commands it announces after its load response)', async () => {
    const bridge = await bridgeWith('--replay-shape', 'claude', '--commands-after-load');
    const s = await suite.service.connect({ bridge, cwd: CWD });
    expect(await s.prompt('first question')).to.equal('end_turn');
    const { sessionId } = s;
    const journal = await s.transcript();
    await s.close();
    // This browser's copy of the conversation differs from the agent's (another prompt).
    const other = journal.map((u) =>
      u.kind === 'user_message_chunk'
        ? {
            ...u,
            text: 'another question',
            raw: { ...u.raw, content: { type: 'text', text: 'another question' } },
            content: { type: 'text', text: 'another question' },
          }
        : u,
    );
    const here = createAgentsService({ databaseName: `silo-replay-shapes-other-${crypto.randomUUID()}` });
    try {
      await here.importJsonl(toJsonl(other), sessionId);
      const loaded = await here.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
      expect(loaded.restoreNote).to.equal('replay-not-merged');
      const after = await until(async () => {
        const j = await loaded.transcript();
        return j.at(-1)?.kind === 'available_commands_update' ? j : undefined;
      }, 'the commands announced after the load response journaled');
      expect(after.slice(0, other.length).map((u) => u.raw)).to.deep.equal(other.map((u) => u.raw));
      const state = ['session_info_update', 'usage_update'];
      expect(after.slice(other.length).map((u) => u.kind)).to.deep.equal([
        ...state,
        'available_commands_update',
      ]);
      // The title and usage are the replay's: what the agent sent live, sent again.
      const live = journal.filter((u) => state.includes(u.kind)).map((u) => u.raw);
      expect(after.slice(other.length, -1).map((u) => u.raw)).to.deep.equal(live);
      await loaded.close();
    } finally {
      await here.dispose();
    }
  });
});
