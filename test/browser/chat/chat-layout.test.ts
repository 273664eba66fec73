// <silo-chat> at every window size (issue #28 §2), in both browsers: the chat fills a real page of the
// test's origin (an iframe, whose own viewport the media and container queries follow), mid-way
// through a conversation with the real bridge and reference agent (the tour played, a permission
// waiting, a draft typed, the agent's config pickers shown). At each size the geometry of
// scripts/layout-check.mjs holds: the transcript's log gets at least half the window, the composer's
// text box keeps its width beside the buttons (which wrap under it), Send is on screen, nothing
// interactive overlaps or is cut off. The demo around it: test/e2e/demo-layout.test.ts.
import { expect } from 'chai';
import { layoutProblems, measureLayout } from '../../../scripts/layout-check.mjs';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { frame, until } from '../../support/until.ts';
import { openFrame } from '../fixtures/frames.ts';

const SIZES = [
  [360, 640],
  [390, 844],
  [780, 493],
  [1000, 650],
  [1280, 800],
] as const;

/** What the test reads of the frame's chat (the frame's classes are not this realm's). */
interface FrameChat extends HTMLElement {
  session: unknown;
  updateComplete: Promise<boolean>;
}

describe('<silo-chat> at every window size: the geometry holds (real bridge)', function () {
  this.timeout(90_000);
  let bridge: TestBridge;
  let f: HTMLIFrameElement;
  let chat: FrameChat;
  const root = () => chat.shadowRoot!;
  const transcriptRoot = () => root().querySelector('silo-transcript')!.shadowRoot!;
  const turnEnds = () =>
    (
      root().querySelector('silo-transcript') as unknown as { model: { rows: { type: string }[] } }
    ).model.rows.filter((r) => r.type === 'turn-end').length;

  function send(text: string): void {
    const ta = root().querySelector('textarea')!;
    ta.value = text;
    ta.dispatchEvent(new Event('input'));
    ta.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, composed: true }),
    );
  }

  before(async () => {
    bridge = await startBridge();
    f = await openFrame(1280, 800);
    const doc = f.contentDocument!;
    const style = doc.createElement('style');
    style.textContent = 'html, body { height: 100%; margin: 0; } silo-chat { height: 100%; }';
    doc.head.append(style);
    chat = doc.createElement('silo-chat') as FrameChat;
    chat.setAttribute('storage-key', `silo-chat-layout-${crypto.randomUUID()}`);
    chat.setAttribute('bridge-url', bridge.url);
    chat.setAttribute('bridge-token', bridge.token);
    chat.setAttribute('cwd', `/tmp/silo-chat-layout-${crypto.randomUUID()}`);
    doc.body.append(chat);
    await until(
      () =>
        chat.session && root().querySelector('[part="state"]')?.getAttribute('data-state') === 'connected',
      'chat connected',
      30_000,
    );
    send('/scenario demo');
    await until(() => turnEnds() === 1, 'the tour ended', 30_000);
    send('/scenario permission notes.md');
    await until(() => transcriptRoot().querySelector('[data-prompt][data-pending]'), 'a permission waits');
    await chat.updateComplete;
    const ta = root().querySelector('textarea')!;
    ta.value = 'Looks good — next, add a test for greet()';
    ta.dispatchEvent(new Event('input'));
    await until(() => root().querySelector('[part~="pickers"] select'), 'the config pickers shown');
  });
  after(async () => {
    f?.remove();
    await stopBridge(bridge.id);
  });

  for (const [width, height] of SIZES)
    it(`${width}×${height}`, async () => {
      f.style.width = `${width}px`;
      f.style.height = `${height}px`;
      // Media and container queries, the virtualizer and the log settle a frame or two after a resize.
      await until(
        () => f.contentWindow!.innerWidth === width && f.contentWindow!.innerHeight === height,
        'resized',
      );
      await frame();
      await frame();
      const m = (f.contentWindow as unknown as { eval(code: string): ReturnType<typeof measureLayout> }).eval(
        `(${measureLayout.toString()})()`,
      );
      expect(layoutProblems(m), `at ${width}×${height}`).to.deep.equal([]);
      expect(m.send, 'Send is shown').to.not.equal(undefined);
      expect(m.textarea, 'the text box is shown').to.not.equal(undefined);
    });
});
