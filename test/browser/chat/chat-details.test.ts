// The details of daily use in <silo-chat> (issue 28 §5), against the real bridge and reference agent:
// each turn's duration and tokens beside its end and how long a thought lasted, live and from the
// journal after a reload; the transcript as one Tab stop (a feed: arrow and Page keys inside it).
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { tabStops } from '../../../components/transcript/feed.controller.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { expectAccessible } from '../fixtures/axe.ts';
import { chatSuite, connected, input, part, sendAndWait, transcript } from '../fixtures/chat.ts';

/** The innermost focused element, through shadow roots. */
function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** The focused row of the chat's transcript: its place in the feed and its parts, or undefined. */
function focusedRow(chat: SiloChat): { pos: number; size: number; part: string } | undefined {
  const a = transcript(chat).shadowRoot!.activeElement as HTMLElement | null;
  if (!a?.classList.contains('row')) return undefined;
  return {
    pos: Number(a.getAttribute('aria-posinset')),
    size: Number(a.getAttribute('aria-setsize')),
    part: a.getAttribute('part') ?? '',
  };
}

/** Tab presses from the transcript's row to the composer's text box (fails past 60). */
async function tabsToComposer(chat: SiloChat): Promise<number> {
  for (let n = 1; n <= 60; n++) {
    await sendKeys({ press: 'Tab' });
    if (deepActive() === input(chat)) return n;
  }
  throw new Error('Tab never reached the composer');
}

describe('<silo-chat> details of daily use (issue 28 §5)', function () {
  this.timeout(90000);
  const chats = chatSuite('silo-details');
  let metered: TestBridge;
  before(async () => {
    // Token counts in every prompt response (as Gemini CLI reports them).
    metered = await startBridge({ agentArgs: ['--usage-in-meta'] });
  });
  after(async () => {
    await stopBridge(metered.id);
  });

  it('each turn shows its duration and tokens beside "Done"; a thought, how long the agent thought', async () => {
    const cwd = `/tmp/silo-details-${crypto.randomUUID()}`;
    const key = `silo-details-${crypto.randomUUID()}`;
    const read = async () => {
      const chat = chats.create(metered, cwd, key);
      chats.mount(chat, 600);
      await connected(chat);
      return chat;
    };
    let chat = await read();
    await sendAndWait(chat, 'how long does this take');
    const root = () => transcript(chat).shadowRoot!;
    const shown = () => {
      const end = root().querySelector('[part~="turn-end"]');
      return {
        done: end?.querySelector('.turn-end > span > span')?.textContent,
        duration: end?.querySelector('[part~="turn-duration"]')?.textContent ?? '',
        tokens: end?.querySelector('[part~="turn-tokens"]')?.textContent ?? '',
        thought: root().querySelector('[part~="thought"] summary')?.textContent?.trim() ?? '',
      };
    };
    const expectTimes = (what: string) => {
      const s = shown();
      expect(s.done, what).to.equal('Done');
      // One display of the turn's time, the usage model's ("Done · 1.2 s · 135 tokens").
      expect(s.duration, `${what}: the turn's duration`).to.match(/^ · \d+(\.\d)? s$/);
      expect(s.tokens, `${what}: its tokens`).to.match(/^ · [\d,.]+K? tokens$/);
      expect(s.thought, `${what}: the thought's duration`).to.match(/^Thought for \d+(\.\d)? s$/);
    };
    await until(() => shown().duration, 'the duration drawn');
    expectTimes('live');
    const model = transcript(chat).model.rows;
    const end = model.find((r) => r.type === 'turn-end') as { durationMs?: number };
    const thought = model.find((r) => r.type === 'message' && r.role === 'thought') as {
      durationMs?: number;
    };
    expect(end.durationMs).to.be.a('number').and.at.least(0);
    expect(thought.durationMs).to.be.a('number').and.at.most(end.durationMs!);
    // From the journal, after a reload: the same times.
    chats.unmount();
    chat = await read();
    await until(() => shown().duration, 'the restored turn drawn');
    expectTimes('restored');
  });

  it('the transcript is one Tab stop however long it is: Tab lands on its last row, arrow and Page keys move inside it', async () => {
    const chat = chats.create();
    chats.mount(chat, 700);
    await connected(chat);
    await sendAndWait(chat, '/scenario tools');
    const log = transcript(chat).shadowRoot!.querySelector<HTMLElement>('[part~="log"]')!;
    expect(log.getAttribute('role')).to.equal('feed');
    // Into the log from the header's last Tab stop (its Export menu): on its last row.
    const enter = async () => {
      part(chat, 'export')!.focus();
      await sendKeys({ press: 'Tab' });
      return until(() => focusedRow(chat), 'a row of the transcript focused');
    };
    const last = await enter();
    expect(last.pos).to.equal(last.size);
    const few = await tabsToComposer(chat);
    // Three more turns, tool cards and copy buttons among them: not one Tab more.
    await sendAndWait(chat, '/scenario tools');
    await sendAndWait(chat, 'one more');
    await sendAndWait(chat, '/scenario markdown');
    const end = await enter();
    expect(end.pos, 'on the last row again').to.equal(end.size);
    const lastOwn = tabStops(transcript(chat).shadowRoot!.activeElement as HTMLElement).length;
    expect(await tabsToComposer(chat), 'Tab stops from the log to the composer').to.equal(few);
    expect(few).to.be.at.most(8);
    // Shift+Tab from the composer comes back to the row it left.
    const inTranscript = () => transcript(chat).shadowRoot!.activeElement !== null;
    await sendKeys({ down: 'Shift' });
    for (let n = 0; n < 60 && !inTranscript(); n++) await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    await until(() => focusedRow(chat), 'back on a row');
    expect(focusedRow(chat)?.pos).to.equal(transcript(chat).model.rows.length);
    // Inside: ↑/↓ a row, Page Up/Down a turn, Home/End the ends.
    await sendKeys({ press: 'ArrowUp' });
    await until(() => focusedRow(chat)?.pos === transcript(chat).model.rows.length - 1, '↑: the row before');
    await sendKeys({ press: 'PageUp' });
    await until(() => focusedRow(chat)?.part.includes('message-user'), 'Page Up: the turn’s prompt');
    expect(focusedRow(chat)!.pos).to.be.lessThan(transcript(chat).model.rows.length - 1);
    await sendKeys({ press: 'Home' });
    await until(() => focusedRow(chat)?.pos === 1, 'Home: the first row');
    await sendKeys({ press: 'ArrowDown' });
    await until(() => focusedRow(chat)?.pos === 2, '↓: the next row');
    // From a row in the middle, Tab goes through that row's own controls and out: not through the rows after it.
    const row = transcript(chat).shadowRoot!.activeElement as HTMLElement;
    const own = tabStops(row).length;
    // Scrolled up from the end, the log offers "Jump to latest": one Tab stop more after it.
    const jump = transcript(chat).shadowRoot!.querySelector<HTMLElement>('[part="jump"]')!;
    const jumps = jump.hidden ? 0 : 1;
    expect(await tabsToComposer(chat), 'from the second row').to.equal(few - lastOwn + own + jumps);
    // Back into the log: the row it left.
    expect((await enter()).pos, 'the row Tab left').to.equal(2);
    await expectAccessible(chat);
  });
});
