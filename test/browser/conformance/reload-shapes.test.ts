// A reload after a page died with a permission or a question open, with the replay each real agent
// sends then (test:agents' reload-open check; docs/agents.md), reproduced by the reference agent's
// --replay-shape: claude-agent-acp, Codex, Copilot CLI and OpenCode. Before it the conversation holds
// an allowed call, a cancelled one that was running, and one of the agent's commands (which Claude,
// Codex and Copilot leave out of their replay and OpenCode replays as what it stands for). The same
// history shows no note, its turn ends, nothing the agent sent is missing; a turn another device
// added is appended. And what an agent sends right after its session/resume answer is journaled.
import { expect } from 'chai';
import { CODEX_LOAD_NOTICE } from '../../../agent/replay-shape.ts';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { type AgentSessionUpdate, createAgentsService, type ToolCallRow } from '../../../src/index.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { mount } from '../fixtures/dom.ts';
import { anotherDeviceSends, conversationAdded, killablePage } from '../fixtures/pages.ts';
import { modelOf } from '../fixtures/transcript-data.ts';

const CWD = '/tmp/silo-reload-shapes';

const ends = (journal: readonly AgentSessionUpdate[]) =>
  journal.filter((u) => u.kind === 'turn_end').map((u) => u.turnEnd!.stopReason);
const kinds = (journal: readonly AgentSessionUpdate[]) => journal.map((u) => u.kind);

/** Each agent: its reference-agent flags, what is open when the page dies, the open call and how it ends up. */
const AGENTS = [
  {
    name: 'claude-agent-acp',
    args: ['--replay-shape', 'claude'],
    ask: ['question', scenarioPrompt('elicit-form', 'tool'), 'call-ask', []],
  },
  {
    name: 'Codex',
    args: ['--replay-shape', 'codex', '--no-message-id'],
    ask: ['permission', scenarioPrompt('permission', 'draft.txt'), 'call-permission.3', []],
  },
  {
    name: 'Copilot CLI',
    args: ['--replay-shape', 'copilot', '--no-message-id'],
    // Its replay ends the open call `failed`: that is appended, and the card says so.
    ask: ['permission', scenarioPrompt('permission', 'draft.txt'), 'call-permission.3', ['tool_call_update']],
  },
  {
    name: 'OpenCode',
    args: ['--replay-shape', 'opencode'],
    ask: ['permission', scenarioPrompt('permission', 'draft.txt'), 'call-permission.3', []],
  },
] as const;

describe('a reload with a permission or question open, with each agent’s replay (real bridge, reference agent --replay-shape)', function () {
  this.timeout(90_000);
  const suite = suiteBridges();

  for (const { name, args, ask } of AGENTS) {
    const [kind, prompt, callId, replayedEnd] = ask;
    it(`${name}: the replay after the page died with a ${kind} open is the same history (no note); its turn ends interrupted; nothing the agent sent is missing; another device’s turn is appended`, async () => {
      const bridge = await suite.bridgeWith(...args);
      const page = await killablePage(bridge, CWD);
      const { session } = page;
      const { sessionId } = session;
      expect(await session.prompt(scenarioPrompt('permission', 'note.txt'))).to.equal('end_turn');
      // A call allowed and running when the turn is cancelled (as Claude's Bash).
      const running = session.prompt(scenarioPrompt('permission', 'run.sh', 'hold'));
      let journal: AgentSessionUpdate[] = [];
      await until(() => {
        void session.transcript().then((j) => {
          journal = j;
        });
        return journal.some((u) => u.kind === 'tool_call_update' && u.raw.toolCallId === 'call-permission.2');
      }, 'the held call runs');
      await session.cancel();
      expect(await running).to.equal('cancelled');
      // One of the agent's commands.
      expect(await session.prompt('/review')).to.equal('end_turn');
      await page.diesWhileAsked(prompt, kind);

      // The page after the reload: a new worker on the dead page's journal.
      const service = createAgentsService({ databaseName: page.databaseName });
      try {
        const before = await service.transcript(sessionId);
        const restored = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
        expect(restored.resumeOutcome).to.equal('loaded');
        expect(restored.restoreNote, 'the same history: no note').to.equal(undefined);
        const after = await restored.transcript();
        const resolution = kind === 'question' ? 'elicitation_resolution' : 'permission_resolution';
        expect(kinds(conversationAdded(before, after))).to.deep.equal([
          resolution,
          ...replayedEnd,
          'turn_end',
        ]);
        expect(ends(after)).to.deep.equal(['end_turn', 'cancelled', 'end_turn', 'interrupted']);
        const card = modelOf(after).get(`t:${callId}`) as ToolCallRow;
        expect(card.toolCall.status).to.equal(replayedEnd.length ? 'failed' : 'interrupted');
        if (name === 'Codex') {
          // What codex-acp sends around its replay (commands, a notice) is journaled.
          const added = after.slice(before.length);
          expect(added.some((u) => u.kind === 'notice' && u.raw.title === CODEX_LOAD_NOTICE.title)).to.equal(
            true,
          );
          expect(added.filter((u) => u.kind === 'available_commands_update')).to.have.length(1);
        }
        await restored.close();

        // Again, now that the journal holds the turn ended: the same history, nothing added.
        const again = await service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
        expect(again.restoreNote).to.equal(undefined);
        expect(conversationAdded(after, await again.transcript())).to.deep.equal([]);
        await again.close();

        // Another device went on: exactly its turn is appended.
        await anotherDeviceSends(bridge, CWD, sessionId, 'from another device');
        const later = await service.connect({ bridge, cwd: CWD, resume: { sessionId, via: 'load' } });
        expect(later.restoreNote).to.equal(undefined);
        const appended = conversationAdded(after, await later.transcript());
        const users = appended.filter((u) => u.kind === 'user_message_chunk').map((u) => u.text);
        expect(users).to.deep.equal(['from another device']);
        await later.close();
      } finally {
        await service.dispose();
      }
    });
  }

  it('what the agent sends right after its session/resume answer is journaled: a reloaded <silo-chat> shows those commands, and the journal holds them', async () => {
    const bridge = await suite.bridgeWith('--commands-after-load');
    const first = await suite.service.connect({ bridge, cwd: CWD });
    expect(await first.prompt('hello')).to.equal('end_turn');
    const { sessionId } = first;
    await first.close();
    const chat = document.createElement('silo-chat') as SiloChat;
    const storageKey = `silo-reload-shapes-${crypto.randomUUID()}`;
    localStorage.setItem(`${storageKey}:${CWD}`, sessionId);
    chat.service = suite.service;
    chat.setAttribute('storage-key', storageKey);
    chat.setAttribute('bridge', bridge.connection);
    chat.setAttribute('cwd', CWD);
    const unmount = mount(chat);
    try {
      const session = await until(() => chat.session, 'the chat restored the session', 20_000);
      expect(session.resumeOutcome).to.equal('resumed');
      let journal: AgentSessionUpdate[] = [];
      await until(() => {
        void session.transcript().then((j) => {
          journal = j;
        });
        // One at session/new, one after the resume answer.
        return journal.filter((u) => u.kind === 'available_commands_update').length === 2;
      }, 'the commands sent after the resume answer journaled');
      expect(journal.at(-1)!.kind).to.equal('available_commands_update');
      await until(() => session.availableCommands.length > 0, 'the commands shown');
    } finally {
      unmount();
    }
  });
});
