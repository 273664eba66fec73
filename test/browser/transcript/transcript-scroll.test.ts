// Stick-to-bottom through the real components: a large journal (rows of very different heights, so
// the virtualizer's estimates are far off) opens at its latest message whether it is read offline
// (`service` + `session-id`) or restored by <silo-chat> on reload (the live `session` source); after
// a resize it stays at the bottom if it was there; "Jump to latest" shows whenever it is not.
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { toJsonl } from '../../../src/export.ts';
import { type AgentsService, createAgentsService } from '../../../src/index.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { atEndWithRow, mount, rowOf, settle } from '../fixtures/dom.ts';
import { chunk, raw, tool, turnEnd, userPrompt } from '../fixtures/transcript-data.ts';

const lines = (turn: number, edited: boolean) =>
  Array.from(
    { length: 24 },
    (_, l) => `const v${l} = f(${turn}, ${l}); // ${edited && l % 5 === 2 ? 'new' : 'old'}`,
  ).join('\n');

/**
 * 400 turns of a prompt, a thought, a plan, an answer of 1 to 40 paragraphs, an edit with a 24-line
 * diff and a usage update: row heights differ by a factor of 40 (the virtualizer's estimates are far off).
 */
function largeJournal(): AgentSessionUpdate[] {
  const out: AgentSessionUpdate[] = [];
  for (let turn = 1; turn <= 400; turn++) {
    out.push(userPrompt(`Question ${turn}`, `su${turn}`));
    out.push(chunk(`Thinking about ${turn}`, `st${turn}`, 'agent_thought_chunk'));
    out.push(
      raw({
        sessionUpdate: 'plan',
        entries: [
          { content: `Step ${turn}`, priority: 'high', status: 'completed' },
          { content: 'Edit', priority: 'medium', status: 'in_progress' },
        ],
      }),
    );
    const paragraphs = 1 + ((turn * 7) % 40);
    for (let p = 0; p < paragraphs; p++)
      out.push(chunk(`Paragraph ${p} of answer ${turn}.\n\n`, `sa${turn}`));
    const path = `/src/m${turn}.ts`;
    out.push(
      tool({ toolCallId: `sc${turn}`, title: `Edit m${turn}.ts`, kind: 'edit', status: 'pending' }, true),
    );
    out.push(
      tool({
        toolCallId: `sc${turn}`,
        status: 'completed',
        content: [{ type: 'diff', path, oldText: lines(turn, false), newText: lines(turn, true) }],
      }),
    );
    out.push(raw({ sessionUpdate: 'usage_update', used: 1000 + turn * 40, size: 200000 }));
    out.push(turnEnd('end_turn'));
  }
  out.push(userPrompt('The very last question', 'su-last'));
  out.push(chunk('The **latest** answer, at the very end.', 'sa-last'));
  out.push(turnEnd('end_turn'));
  return out;
}

const parts = (t: SiloTranscript) => {
  const root = t.shadowRoot!;
  return {
    log: root.querySelector<HTMLElement>('[part="log"]')!,
    jump: root.querySelector<HTMLButtonElement>('[part="jump"]')!,
  };
};

/** The log is scrolled to its end and the latest message's row is on screen, the whole of it. */
const atLatest = (t: SiloTranscript) =>
  atEndWithRow(parts(t).log, '[data-key="m:sa-last"], [data-key$="sa-last"]', 2, true);

/**
 * Awaits the log reaching its end with the latest message on screen, with no help from the test: a
 * log that opens (or stays) anywhere else never gets there and the wait fails. A stable scroll height
 * alone is not enough on a loaded machine: the virtualizer may not have drawn the bottom range yet.
 */
async function expectAtLatest(t: SiloTranscript, what: string) {
  const { log, jump } = parts(t);
  await settle(log);
  await until(() => atLatest(t), `${what}: the latest message is rendered and on screen at the end`);
  expect(log.scrollHeight - log.scrollTop - log.clientHeight, `${what}: px above the end`).to.be.at.most(2);
  expect(jump.hidden, `${what}: no "Jump to latest" at the bottom`).to.equal(true);
}

describe('stick-to-bottom with a large journal (real worker, IndexedDB, bridge)', function () {
  this.timeout(120000);
  let service: AgentsService;
  let cleanup: (() => void) | undefined;
  let sessionId: string;
  const journal = largeJournal();

  before(async () => {
    service = createAgentsService({ databaseName: `silo-scroll-${crypto.randomUUID()}` });
    sessionId = await service.importJsonl(toJsonl(journal));
  });
  after(async () => {
    await service.dispose();
  });
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it('read offline: opens at the latest message, stays there across resizes, jumps back', async () => {
    const t = document.createElement('silo-transcript');
    t.service = service;
    t.sessionId = sessionId;
    cleanup = mount(t, 600);
    await t.updateComplete;
    await expectAtLatest(t, 'opened');
    const box = t.parentElement!;
    box.style.height = '350px';
    await expectAtLatest(t, 'after shrinking');
    box.style.height = '800px';
    await expectAtLatest(t, 'after growing');
    const { log, jump } = parts(t);
    log.dispatchEvent(new WheelEvent('wheel', { deltaY: -500 }));
    log.scrollTop = log.scrollHeight / 2;
    await until(() => !jump.hidden, '"Jump to latest" shown once scrolled up');
    box.style.height = '500px';
    await settle(log);
    expect(jump.hidden, 'still shown after a resize away from the bottom').to.equal(false);
    expect(atLatest(t), 'a resize does not pull a reader back down').to.equal(false);
    jump.click();
    await expectAtLatest(t, 'after "Jump to latest"');
  });

  describe('restored by <silo-chat> on reload (the live session source)', () => {
    let bridge: TestBridge;
    before(async () => {
      bridge = await startBridge();
    });
    after(async () => {
      await stopBridge(bridge.id);
    });

    function chatFor(cwd: string, key: string, height: number): SiloChat {
      const chat: SiloChat = document.createElement('silo-chat');
      chat.service = service;
      chat.setAttribute('storage-key', key);
      chat.setAttribute('bridge-url', bridge.url);
      chat.setAttribute('bridge-token', bridge.token);
      chat.setAttribute('cwd', cwd);
      cleanup = mount(chat, height);
      return chat;
    }

    const transcriptOf = (chat: SiloChat) =>
      until(
        () =>
          chat.session &&
          chat.shadowRoot!.querySelector('[part="state"]')?.getAttribute('data-state') !== 'connecting'
            ? (chat.shadowRoot!.querySelector('silo-transcript') as SiloTranscript)
            : undefined,
        'chat restored the session',
        30000,
      );

    it('a large journal (journal-only) opens at the latest message', async () => {
      const cwd = `/tmp/silo-scroll-${crypto.randomUUID()}`;
      const key = `silo-scroll-${crypto.randomUUID()}`;
      localStorage.setItem(`${key}:${cwd}`, sessionId);
      const chat = chatFor(cwd, key, 700);
      const t = await transcriptOf(chat);
      await until(() => t.session === chat.session, 'transcript follows the session');
      await t.updateComplete;
      expect(t.model.rows.length, 'the whole journal is shown').to.be.greaterThan(2000);
      await expectAtLatest(t, 'restored');
      localStorage.removeItem(`${key}:${cwd}`);
    });

    it('a session the agent resumes opens at the latest message', async () => {
      const cwd = `/tmp/silo-scroll-${crypto.randomUUID()}`;
      const key = `silo-scroll-${crypto.randomUUID()}`;
      const first = chatFor(cwd, key, 500);
      const firstT = await transcriptOf(first);
      await until(
        () => first.shadowRoot!.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected',
        'first chat connected',
        30000,
      );
      // The prompts go through the chat's session (the composer is not what this test is about).
      const send = async (text: string) => {
        const ends = firstT.model.rows.filter((r) => r.type === 'turn-end').length;
        await first.session!.prompt(text);
        await until(
          () => firstT.model.rows.filter((r) => r.type === 'turn-end').length > ends,
          `turn "${text}" shown`,
        );
      };
      for (let i = 0; i < 3; i++) await send('/scenario demo');
      await send('The very last question');
      cleanup?.();
      const chat = chatFor(cwd, key, 500);
      const t = await transcriptOf(chat);
      await until(() => t.model.rows.filter((r) => r.type === 'turn-end').length === 4, 'restored', 30000);
      const { log, jump } = parts(t);
      const last = t.model.rows.at(-2)!;
      // The rows first (fixtures/dom.ts): a log that opened anywhere but its end never gets here.
      const lastOnScreen = () => atEndWithRow(log, rowOf(last.key));
      await until(lastOnScreen, 'the last message is rendered and on screen at the end of the log');
      await settle(log);
      expect(log.scrollHeight, 'a session taller than its view').to.be.greaterThan(3 * log.clientHeight);
      expect(lastOnScreen(), 'still at the end, the last message on screen').to.equal(true);
      expect(jump.hidden).to.equal(true);
    });
  });
});
