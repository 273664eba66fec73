// <silo-chat> in two real pages of one origin (two iframes: two realms, two workers, two sockets, as
// two tabs), on the same session, against the real bridge and the reference agent. The second page
// follows the first: it says so calmly (no error, no "Reconnecting…"), offers Take over (the first
// page then follows, with the same notice), and offers it again when Enter is pressed there, sending
// the kept text once it drives. A permission asked in one page can be answered from the other, and
// both show the outcome. When the driving page reloads the other keeps following it; when it closes,
// the other offers to take over.
import { expect } from 'chai';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { chatIn, openFrame, reloadFrame, sendIn } from '../fixtures/frames.ts';

const part = (chat: SiloChat, name: string) =>
  chat.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const stateOf = (chat: SiloChat) => part(chat, 'state')?.getAttribute('data-state');
const transcript = (chat: SiloChat) => chat.shadowRoot!.querySelector('silo-transcript') as SiloTranscript;
const userTexts = (chat: SiloChat) =>
  transcript(chat)
    .model.rows.filter((r) => r.type === 'message' && r.role === 'user')
    .map((r) => (r as { text: string }).text);
const turnEnds = (chat: SiloChat) => transcript(chat).model.rows.filter((r) => r.type === 'turn-end').length;
const bannerText = (chat: SiloChat) => part(chat, 'banner')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** The page shows the calm following notice (`gone`: the driving page closed), and no error. */
async function showsFollowing(chat: SiloChat, gone = false): Promise<void> {
  const want = gone
    ? 'The tab that was driving this conversation closed'
    : 'Open in another tab — following live';
  await until(() => bannerText(chat).includes(want), `the notice "${want}"`);
  const banner = part(chat, 'banner')!;
  expect(banner.getAttribute('role')).to.equal('status', 'a notice, not an alert');
  expect(banner.classList.contains('error')).to.equal(false);
  expect(bannerText(chat)).not.to.include('lost');
  expect(chat.shadowRoot!.querySelector('[role="alert"]')).to.equal(null, 'no error anywhere');
  expect(part(chat, 'state')!.textContent!.trim()).to.equal('Following');
  expect(part(chat, 'take-over')?.textContent?.trim()).to.equal('Take over');
}

describe('<silo-chat> in two pages of one origin: a follower that can take over (real bridge)', function () {
  this.timeout(120_000);
  let bridge: TestBridge;
  const frames: HTMLIFrameElement[] = [];
  let cwd: string;
  let key: string;

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  beforeEach(() => {
    cwd = `/tmp/silo-chat-tabs-${crypto.randomUUID()}`;
    key = `silo-chat-tabs-${crypto.randomUUID()}`;
  });
  afterEach(() => {
    for (const f of frames.splice(0)) f.remove();
  });

  /** A page with a chat on this test's session; the first one drives, later ones follow it. */
  async function page(want = 'connected'): Promise<{ frame: HTMLIFrameElement; chat: SiloChat }> {
    const frame = await openFrame();
    frames.push(frame);
    return { frame, chat: await chatIn(frame, bridge, cwd, key, want) };
  }

  async function sendAndWait(chat: SiloChat, text: string): Promise<void> {
    const before = turnEnds(chat);
    sendIn(chat, text);
    await until(() => turnEnds(chat) > before, `the turn of "${text}" ended`);
  }

  it('the second page follows calmly; Enter there offers Take over and sends the kept text after it', async () => {
    const a = await page();
    await sendAndWait(a.chat, 'from the first page');
    const b = await page('following');
    expect(b.chat.session!.sessionId).to.equal(a.chat.session!.sessionId);
    await showsFollowing(b.chat);
    await until(() => userTexts(b.chat).includes('from the first page'), 'the journal shown');

    sendIn(b.chat, 'from the second page');
    await b.chat.updateComplete;
    const note = await until(() => part(b.chat, 'note'), 'the note says why it was not sent');
    expect(note.textContent).to.include('another tab is driving this conversation');
    expect(b.chat.shadowRoot!.querySelector('textarea')!.value).to.equal('from the second page', 'kept');
    const remedy = part(b.chat, 'remedy')!;
    expect(remedy.textContent!.trim()).to.equal('Take over and send');

    remedy.click();
    await until(() => userTexts(b.chat).includes('from the second page'), 'sent after the take-over');
    expect(stateOf(b.chat)).to.equal('connected');
    expect(b.chat.shadowRoot!.querySelector('textarea')!.value).to.equal('');
    await showsFollowing(a.chat);
    await until(() => turnEnds(a.chat) === 2, 'the first page mirrors the second page’s turn');
    expect(userTexts(a.chat)).to.deep.equal(['from the first page', 'from the second page']);

    // And back: the banner's Take over.
    part(a.chat, 'take-over')!.click();
    await until(() => stateOf(a.chat) === 'connected', 'the first page drives again');
    await showsFollowing(b.chat);
    await sendAndWait(a.chat, 'the first page again');
    await until(() => turnEnds(b.chat) === 3, 'the second page mirrors it');
  });

  it('a permission asked in one page is answered from the other; both show the outcome', async () => {
    const a = await page();
    const b = await page('following');
    sendIn(a.chat, '/scenario permission tabs.txt');
    const prompt = (chat: SiloChat) =>
      transcript(chat).shadowRoot!.querySelector<HTMLElement>('[data-prompt][data-pending]');
    await until(() => prompt(a.chat), 'the driving page asks');
    const asked = await until(() => prompt(b.chat), 'the following page asks too');
    asked.querySelector<HTMLButtonElement>('button[data-kind="allow_once"]')!.click();
    for (const chat of [a.chat, b.chat]) {
      await until(() => turnEnds(chat) === 1, 'the turn ended');
      await until(() => !prompt(chat), 'no prompt waits any more');
      const resolution = await until(
        () => transcript(chat).shadowRoot!.querySelector('[part~="permission-resolution"]'),
        'the outcome shown',
      );
      expect(resolution.textContent).to.match(/allow/i);
      expect(transcript(chat).shadowRoot!.querySelector('[role="alert"]')).to.equal(null);
    }
  });

  it('the driving page reloads: the other keeps following it; it closes: the other offers to take over', async () => {
    const a = await page();
    await sendAndWait(a.chat, 'before the reload');
    const b = await page('following');
    await reloadFrame(a.frame);
    const again = await chatIn(a.frame, bridge, cwd, key);
    expect(again.session!.sessionId).to.equal(b.chat.session!.sessionId);
    await showsFollowing(b.chat);
    await sendAndWait(again, 'after the reload');
    await until(
      () => userTexts(b.chat).includes('after the reload'),
      'the follower follows the reloaded page',
    );

    a.frame.remove();
    await showsFollowing(b.chat, true);
    part(b.chat, 'take-over')!.click();
    await until(() => stateOf(b.chat) === 'connected', 'the remaining page drives');
    await sendAndWait(b.chat, 'after the close');
    expect(userTexts(b.chat)).to.deep.equal(['before the reload', 'after the reload', 'after the close']);
  });
});
