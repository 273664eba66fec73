// Every turn ends, visibly (docs/restore.md, docs/agents.md), through the real bridge and reference
// agent: a question or permission open when its page dies ends its turn on restore (interrupted, its
// tool card interrupted, never Pending); a turn the agent starts by itself (Claude's task
// notification) is framed as its own turn; an approved call the agent never reports running shows
// running.
import { expect } from 'chai';
import { BACKGROUND_DONE } from '../../../agent/scenarios/agents.ts';
import { scenarioPrompt } from '../../../agent/scenarios.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import {
  type AgentSessionUpdate,
  createAgentsService,
  type ToolCallRow,
  type TranscriptModel,
} from '../../../src/index.ts';
import type { TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import '../../../components/index.ts';
import { suiteBridges } from '../fixtures/bridges.ts';
import { deepElements, mount } from '../fixtures/dom.ts';
import { killablePage } from '../fixtures/pages.ts';
import { modelOf } from '../fixtures/transcript-data.ts';

const CWD = '/tmp/silo-turn-ends';

const card = (m: TranscriptModel, id: string) => (m.get(`t:${id}`) as ToolCallRow | undefined)?.toolCall;
const ends = (journal: readonly AgentSessionUpdate[]) =>
  journal.filter((u) => u.kind === 'turn_end').map((u) => u.turnEnd!.stopReason);

/** A `<silo-chat>` on `service`'s journal, restoring `sessionId` (as a reload of its page does). */
function chatFor(bridge: TestBridge, sessionId: string | undefined, service = createAgentsService()) {
  const chat = document.createElement('silo-chat') as SiloChat;
  const storageKey = `silo-turn-ends-${crypto.randomUUID()}`;
  if (sessionId) localStorage.setItem(`${storageKey}:${CWD}`, sessionId);
  chat.service = service;
  chat.setAttribute('storage-key', storageKey);
  chat.setAttribute('bridge', bridge.connection);
  chat.setAttribute('cwd', CWD);
  return { chat, unmount: mount(chat), service };
}

/** The chat's rendered element with `part` (and `data-key` when given), once drawn. */
function drawn(chat: SiloChat, part: string, what: string, pick?: (e: Element) => boolean) {
  return until(
    () =>
      deepElements(chat.shadowRoot!).find(
        (e) => (e.getAttribute('part') ?? '').split(' ').includes(part) && (!pick || pick(e)),
      ),
    what,
    20_000,
  );
}

describe('every turn ends, visibly (real bridge, reference agent)', function () {
  this.timeout(60_000);
  const suite = suiteBridges();

  /** A session in a page of its own that dies, as a reload kills it, while `prompt`'s request is open. */
  async function pageDiesWhileAsked(bridge: TestBridge, prompt: string, kind: 'permission' | 'question') {
    const page = await killablePage(bridge, CWD);
    await page.diesWhileAsked(prompt, kind);
    return { sessionId: page.session.sessionId, databaseName: page.databaseName };
  }

  it('a question open when its page dies: on restore its turn is journaled ended (interrupted) after the question, and its tool card shows interrupted, never Pending', async () => {
    const bridge = await suite.bridgeWith();
    const { sessionId, databaseName } = await pageDiesWhileAsked(
      bridge,
      scenarioPrompt('elicit-form', 'tool'),
      'question',
    );
    const service = createAgentsService({ databaseName });
    try {
      const restored = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
      await until(() => restored.state === 'connected', 'the new page drives the session');
      const journal = await restored.transcript();
      const kinds = journal.map((u) => u.kind);
      expect(
        journal.find((u) => u.kind === 'elicitation_resolution')?.elicitation?.resolution,
        kinds.join(),
      ).to.equal('unanswerable');
      expect(ends(journal)).to.deep.equal(['interrupted']);
      expect(kinds.indexOf('elicitation_resolution')).to.be.below(kinds.indexOf('turn_end'));
      const model = modelOf(journal);
      expect(card(model, 'call-ask')?.status).to.equal('interrupted');
      expect(model.current.inTurn).to.equal(false);
      await restored.close();
      // What the user sees after the reload: the card interrupted, the turn's end divider.
      const { chat, unmount } = chatFor(bridge, sessionId, service);
      try {
        const tool = await drawn(chat, 'tool-status', 'the tool card');
        expect(tool.textContent).to.equal('Interrupted');
        const end = await drawn(chat, 'turn-end', 'the turn’s end divider');
        expect(end.querySelector('.turn-end')!.getAttribute('data-stop-reason')).to.equal('interrupted');
        const again = await until(() => chat.session, 'the chat connected', 20_000);
        expect(await again.prompt('after the reload')).to.equal('end_turn');
        expect(ends(await again.transcript())).to.deep.equal(['interrupted', 'end_turn']);
      } finally {
        unmount();
      }
    } finally {
      await service.dispose();
    }
  });

  it('a permission open when its page dies: unanswerable, then its turn ends interrupted; the card is interrupted', async () => {
    const bridge = await suite.bridgeWith();
    const { sessionId, databaseName } = await pageDiesWhileAsked(
      bridge,
      scenarioPrompt('permission'),
      'permission',
    );
    const service = createAgentsService({ databaseName });
    try {
      const restored = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
      await until(() => restored.state === 'connected', 'the new page drives the session');
      const journal = await restored.transcript();
      expect(journal.find((u) => u.kind === 'permission_resolution')?.permission?.resolution).to.equal(
        'unanswerable',
      );
      expect(ends(journal)).to.deep.equal(['interrupted']);
      expect(card(modelOf(journal), 'call-permission')?.status).to.equal('interrupted');
      // A restore of a journal whose turns all ended adds no end.
      await restored.close();
      const again = await service.connect({ bridge, cwd: CWD, resume: { sessionId } });
      expect(ends(await again.transcript())).to.deep.equal(['interrupted']);
      await again.close();
    } finally {
      await service.dispose();
    }
  });

  it('a turn the agent starts by itself (a background task finished) is its own turn: journaled between a turn_start and its end, drawn under a divider saying the agent started it', async () => {
    const bridge = await suite.bridgeWith();
    const { chat, unmount, service } = chatFor(bridge, undefined);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      expect(await session.prompt(scenarioPrompt('background', 50))).to.equal('end_turn');
      const journal = await until(async () => {
        const j = await session.transcript();
        return ends(j).length === 2 ? j : undefined;
      }, 'the agent’s own turn ended');
      const kinds = journal.map((u) => u.kind);
      const start = kinds.indexOf('turn_start');
      expect(start, 'after the prompted turn ended').to.equal(kinds.indexOf('turn_end') + 1);
      expect(journal[start]!.turnStart).to.deep.equal({ origin: 'agent' });
      expect(ends(journal)).to.deep.equal(['end_turn', 'end_turn']);
      const model = modelOf(journal);
      const rows = model.rows.map((r) => (r.type === 'message' ? `${r.role}: ${r.text}` : r.type));
      expect(rows).to.deep.equal([
        `user: ${scenarioPrompt('background', 50)}`,
        'agent: Started a background task.',
        'turn-end',
        'turn-start',
        `agent: ${BACKGROUND_DONE}`,
        'turn-end',
      ]);
      const turns = model.rows.map((r) => r.turn);
      expect(turns.slice(3)).to.deep.equal([2, 2, 2], 'a turn of its own');
      expect(model.rows.find((r) => r.type === 'turn-start')).to.include({ reason: 'task-notification' });
      await drawn(
        chat,
        'turn-start',
        'the divider saying the agent started the turn, and why',
        (e) => e.textContent?.trim() === 'The agent started this turn: a background task finished',
      );
      // The next prompt is a turn of its own again.
      expect(await session.prompt('and now?')).to.equal('end_turn');
      expect(ends(await session.transcript())).to.deep.equal(['end_turn', 'end_turn', 'end_turn']);
    } finally {
      unmount();
      await service.dispose();
    }
  });

  it('an approved call the agent never reports running (Claude’s Bash) shows running after the approval', async () => {
    const bridge = await suite.bridgeWith();
    const { chat, unmount, service } = chatFor(bridge, undefined);
    try {
      const session = await until(() => chat.session, 'the chat connected', 20_000);
      const running = session.prompt(scenarioPrompt('permission', 'config.json', 'hold'));
      const allow = (await drawn(
        chat,
        'permission-option',
        'the permission prompt',
        (e) => e.getAttribute('data-option') === 'allow-once',
      )) as HTMLButtonElement;
      const status = await drawn(chat, 'tool-status', 'the tool card');
      expect(status.textContent).to.equal('Pending');
      allow.click();
      await until(
        () =>
          deepElements(chat.shadowRoot!).find((e) => e.getAttribute('part') === 'tool-status')
            ?.textContent === 'Running',
        'the card shows the approved call running',
        20_000,
      );
      await session.cancel();
      expect(await running).to.equal('cancelled');
      expect(card(modelOf(await session.transcript()), 'call-permission')?.status).to.equal('cancelled');
    } finally {
      unmount();
      await service.dispose();
    }
  });
});
