// Permissions and questions across a real page reload, in <silo-chat> against the real bridge and the
// reference agent. A reloaded page runs a new worker and a new agent process; both count JSON-RPC ids
// from the start again, so the first request after the reload has the same JSON-RPC id as one already
// answered. Each request must still get its own row, its own buttons and its own answer.
import { expect } from 'chai';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import type { SiloElicitation } from '../../../components/elicitation/silo-elicitation.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { createAgentsService, TranscriptModel } from '../../../src/index.ts';
import type {
  ElicitationRow,
  PermissionRow,
  ToolCallRow,
  TranscriptRow,
} from '../../../src/transcript/rows.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { chatIn as chatInFrame, openFrame, reloadFrame, sendIn } from '../fixtures/frames.ts';

/** The request rows of `kind`, with the permissions held by their tool call's card. */
function requestRows(
  rows: readonly TranscriptRow[],
  kind: 'permission' | 'elicitation',
): (PermissionRow | ElicitationRow)[] {
  return rows.flatMap((r) =>
    r.type === 'tool' && r.permission && kind === 'permission' ? [r.permission] : r.type === kind ? [r] : [],
  );
}

describe('<silo-chat>: requests after a real reload (real bridge, reference agent)', function () {
  this.timeout(90_000);
  let bridge: TestBridge;
  let frame: HTMLIFrameElement | undefined;

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  afterEach(() => {
    frame?.remove();
    frame = undefined;
  });

  const chatIn = (f: HTMLIFrameElement, cwd: string, key: string) => chatInFrame(f, bridge, cwd, key);
  const reload = reloadFrame;

  const transcript = (chat: SiloChat) => chat.shadowRoot!.querySelector('silo-transcript') as SiloTranscript;
  const turnEnds = (chat: SiloChat) =>
    transcript(chat)
      .model.rows.filter((r) => r.type === 'turn-end')
      .map((r) => (r.type === 'turn-end' ? r.stopReason : ''));

  const send = sendIn;

  /** The live prompt (a row with buttons, waiting for the user) in the chat's transcript. */
  const livePrompt = (chat: SiloChat) =>
    until(
      () => transcript(chat).shadowRoot!.querySelector<HTMLElement>('[data-prompt][data-pending]'),
      'a live prompt with buttons',
      20_000,
    );

  async function turnEnded(chat: SiloChat, count: number): Promise<void> {
    await until(() => turnEnds(chat).length === count, `turn ${count} ended`, 20_000);
  }

  it('a permission after a reload gets its own row and buttons; Allow ends the turn', async () => {
    const cwd = `/tmp/silo-request-ids-${crypto.randomUUID()}`;
    const key = `silo-request-ids-${crypto.randomUUID()}`;
    frame = await openFrame();
    const first = await chatIn(frame, cwd, key);
    send(first, '/scenario permission a.txt');
    const asked = await livePrompt(first);
    asked.querySelector<HTMLButtonElement>('button[data-kind="reject_once"]')!.click();
    await turnEnded(first, 1);
    const sessionId = first.session!.sessionId;

    await reload(frame);
    const second = await chatIn(frame, cwd, key);
    expect(second.session!.sessionId).to.equal(sessionId);
    await until(() => turnEnds(second).length === 1, 'the first turn restored from the journal');
    send(second, '/scenario permission b.txt');
    const again = await livePrompt(second);
    expect(again.textContent).to.include('Write b.txt');
    again.querySelector<HTMLButtonElement>('button[data-kind="allow_once"]')!.click();
    await turnEnded(second, 2);
    expect(turnEnds(second)).to.deep.equal(['end_turn', 'end_turn']);

    // Each permission is held by its own tool call's card.
    const rows = requestRows(transcript(second).model.rows, 'permission') as PermissionRow[];
    expect(transcript(second).model.rows.filter((r) => r.type === 'permission')).to.have.length(0);
    expect(rows.map((r) => [r.record.toolCall?.title, r.record.resolution, r.record.optionId])).to.deep.equal(
      [
        ['Write a.txt', 'selected', 'reject-once'],
        ['Write b.txt', 'selected', 'allow-once'],
      ],
    );
    expect(rows[0]!.record.id).to.not.equal(rows[1]!.record.id);
    // What the user sees: each row its own tool and its own answer.
    const shown = await until(() => {
      const cards = Array.from(
        transcript(second).shadowRoot!.querySelectorAll<HTMLElement>(
          '[part~="tool"] [part~="permission-prompt"]',
        ),
      ).map((c) => c.textContent!.replace(/\s+/g, ' ').trim());
      return cards.length === 2 && cards.every((c) => !c.includes('can no longer')) ? cards : undefined;
    }, 'both permission rows painted');
    expect(shown[0]).to.include('Write a.txt').and.include('Reject');
    expect(shown[1]).to.include('Write b.txt').and.include('Allow once');
  });

  it('a question after a reload gets its own row and form; answering it ends the turn', async () => {
    const cwd = `/tmp/silo-request-ids-${crypto.randomUUID()}`;
    const key = `silo-request-ids-${crypto.randomUUID()}`;
    frame = await openFrame();
    const first = await chatIn(frame, cwd, key);
    send(first, '/scenario elicit-form');
    const asked = await livePrompt(first);
    const form = await until(() => asked.querySelector('silo-elicitation') as SiloElicitation | null, 'form');
    await form.updateComplete;
    form.shadowRoot!.querySelector<HTMLButtonElement>('[part~="decline"]')!.click();
    await turnEnded(first, 1);

    await reload(frame);
    const second = await chatIn(frame, cwd, key);
    await until(() => turnEnds(second).length === 1, 'the first turn restored from the journal');
    send(second, '/scenario elicit-form');
    const again = await livePrompt(second);
    const form2 = await until(
      () => again.querySelector('silo-elicitation') as SiloElicitation | null,
      'form',
    );
    await form2.updateComplete;
    const agree = await until(
      () =>
        form2.shadowRoot!.querySelector<HTMLInputElement>('[data-question="agree"] input[type="checkbox"]'),
      'the agree box',
    );
    agree.click();
    form2.shadowRoot!.querySelector<HTMLButtonElement>('[part~="answer"]')!.click();
    await turnEnded(second, 2);
    expect(turnEnds(second)).to.deep.equal(['end_turn', 'end_turn']);

    const rows = transcript(second).model.rows.filter((r): r is ElicitationRow => r.type === 'elicitation');
    expect(rows.map((r) => [r.record.message, r.record.resolution])).to.deep.equal([
      ['Tell me about your project.', 'declined'],
      ['Tell me about your project.', 'answered'],
    ]);
    expect(rows[1]!.record.answers).to.include({ name: 'Ada' });
    expect(rows[0]!.record.id).to.not.equal(rows[1]!.record.id);
    const agentSaid = transcript(second)
      .model.rows.filter((r) => r.type === 'message' && r.role === 'agent')
      .map((r) => (r.type === 'message' ? r.text : ''));
    expect(agentSaid[0]).to.equal('You answered: {"action":"decline"}');
    expect(agentSaid[1]).to.match(/^You answered: \{"action":"accept"/);
  });

  for (const [what, scenario, kind] of [
    ['permission', '/scenario permission', 'permission'],
    ['question', '/scenario elicit-form', 'elicitation'],
  ] as const) {
    it(`a ${what} left open when the page died is journaled unanswerable on the next restore`, async () => {
      const cwd = `/tmp/silo-request-ids-${crypto.randomUUID()}`;
      const key = `silo-request-ids-${crypto.randomUUID()}`;
      frame = await openFrame();
      const first = await chatIn(frame, cwd, key);
      send(first, scenario);
      const asked = await livePrompt(first);
      const id = asked.dataset.prompt!;
      await until(
        () => requestRows(transcript(first).model.rows, kind).some((r) => r.record.id === id),
        'the request journaled',
      );
      await reload(frame);
      const second = await chatIn(frame, cwd, key);
      const row = () => requestRows(transcript(second).model.rows, kind).find((r) => r.record.id === id);
      await until(() => row()?.record.resolution === 'unanswerable', 'the open request ended unanswerable');
      const journal = await second.session!.transcript();
      const ends = journal.filter(
        (u) => u.kind === `${kind}_resolution` && (u.permission ?? u.elicitation)?.id === id,
      );
      expect(ends.map((u) => (u.permission ?? u.elicitation)?.resolution)).to.deep.equal(['unanswerable']);
      // A second restore finds nothing left open: nothing more is journaled.
      await reload(frame);
      const third = await chatIn(frame, cwd, key);
      const again = await third.session!.transcript();
      expect(again.length).to.equal(journal.length);
    });
  }

  for (const reuse of [true, false]) {
    it(`tool-call ids ${reuse ? 'reused by the agent (--reuse-tool-call-ids)' : 'kept unique by the agent'}: each turn keeps its own tool card`, async () => {
      const b = await startBridge(reuse ? { agentArgs: ['--reuse-tool-call-ids'] } : {});
      const databaseName = `silo-request-ids-${crypto.randomUUID()}`;
      const service = createAgentsService({ databaseName });
      try {
        const answers = ['allow-once', 'reject-once'];
        const session = await service.connect({
          bridge: b,
          cwd: `/tmp/silo-request-ids-${crypto.randomUUID()}`,
          onPermission: (request) => void request.choose(answers.shift()!),
        });
        expect(await session.prompt('/scenario permission a.txt')).to.equal('end_turn');
        expect(await session.prompt('/scenario permission b.txt')).to.equal('end_turn');
        const journal = await session.transcript();
        expect(
          journal.filter((u) => u.kind === 'tool_call').map((u) => u.toolCall?.toolCallId),
        ).to.deep.equal(
          reuse ? ['call-permission', 'call-permission'] : ['call-permission', 'call-permission.2'],
        );
        const model = new TranscriptModel();
        model.applyAll(journal);
        const cards = model.rows.filter((r): r is ToolCallRow => r.type === 'tool');
        expect(cards.map((r) => [r.turn, r.toolCall.title, r.toolCall.status])).to.deep.equal([
          [1, 'Write a.txt', 'completed'],
          [2, 'Write b.txt', 'failed'],
        ]);
      } finally {
        await service.dispose();
        indexedDB.deleteDatabase(databaseName);
        await stopBridge(b.id);
      }
    });
  }
});
