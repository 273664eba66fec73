// <silo-chat> while its page is hidden and the agent waits for the user (issue 28 §5), against the
// real bridge and reference agent: the document's title says so ("(1) Waiting for you · …") and is
// put back exactly when the page is seen again or the request ends, from this tab or another one,
// keeping a title the page set meanwhile; `keep-document-title` leaves it alone. With `notify` and
// the permission granted, a Web Notification for each request that starts while hidden, closed when
// it is answered; a click on it focuses the window; none without `notify`, without the permission,
// or while the page is visible.
//
// Hiding the page: the test runner drives one tab, and a page behind another tab gets no animation
// frames (the tests' `until` polls on them), so the test page's own `document.visibilityState` and
// `document.hidden` are overridden and the `visibilitychange` a tab switch fires is fired
// (`setHidden`). The element reads nothing else to know it is hidden.
//
// Notifications: the permission is real — granted (or denied) by the browser itself through the
// `silo-permission` server command (CDP in Chromium, WebDriver BiDi in Firefox), so
// `Notification.permission` is what a user's choice makes it. A page cannot list the notifications
// it shows (only a service worker can), and headless Firefox has no notification service (it fires
// `error`), so the real constructor is wrapped by a subclass that records each one made and each
// `close()` (`recordNotifications`); the element still constructs a real Notification.
import { executeServerCommand } from '@web/test-runner-commands';
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { until } from '../../support/until.ts';
import { chatSuite, connected, transcript, turnEnds, typeAndEnter } from '../fixtures/chat.ts';
import { chatIn, openFrame, sendIn } from '../fixtures/frames.ts';

/** Hides or shows `doc` as its page sees it (see the header for why). */
function setHidden(doc: Document, hidden: boolean): void {
  if (hidden) {
    Object.defineProperty(doc, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(doc, 'hidden', { configurable: true, get: () => true });
  } else {
    Reflect.deleteProperty(doc, 'visibilityState');
    Reflect.deleteProperty(doc, 'hidden');
  }
  doc.dispatchEvent(new Event('visibilitychange'));
}

/** One notification the page made. */
interface Made {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly notification: Notification;
  closed: boolean;
}

/** Records the notifications made in `win` (see the header for why); `restore` puts the real constructor back. */
function recordNotifications(win: Window & typeof globalThis): { made: Made[]; restore(): void } {
  const Real = win.Notification;
  const made: Made[] = [];
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      made.push({
        title,
        body: options?.body ?? '',
        tag: options?.tag ?? '',
        notification: this,
        closed: false,
      });
    }
    override close(): void {
      const m = made.find((x) => x.notification === this);
      if (m) m.closed = true;
      super.close();
    }
  }
  win.Notification = Recording;
  return {
    made,
    restore: () => {
      win.Notification = Real;
    },
  };
}

/** Sets the test page's notifications permission in the browser (`granted`, `denied`, `prompt`). */
const permit = (state: 'granted' | 'denied' | 'prompt') =>
  executeServerCommand('silo-permission', { name: 'notifications', state });

/** The chat's prompts still waiting (permissions), as elements of its transcript. */
const pendingPrompts = (chat: SiloChat) =>
  Array.from(transcript(chat).shadowRoot!.querySelectorAll<HTMLElement>('[data-prompt][data-pending]'));

/** Clicks "allow once" on the chat's first waiting permission prompt. */
async function allowFirst(chat: SiloChat): Promise<void> {
  const prompt = await until(() => pendingPrompts(chat)[0], 'a waiting permission prompt');
  prompt.querySelector<HTMLButtonElement>('button[data-kind="allow_once"]')!.click();
}

/** The chat's live question (a `<silo-elicitation>` with its form's buttons; answered ones have none), once shown. */
const liveQuestion = (chat: SiloChat) =>
  until(
    () =>
      Array.from(transcript(chat).shadowRoot!.querySelectorAll('silo-elicitation')).find((q) =>
        q.shadowRoot?.querySelector('button[part~="decline"]'),
      ),
    'the live question',
  );

const BASE = 'Silo attention test';
const waiting = (n: number, title = BASE) =>
  title ? `(${n}) Waiting for you · ${title}` : `(${n}) Waiting for you`;

describe('<silo-chat> while its page is hidden and the agent waits (issue 28 §5)', function () {
  this.timeout(120_000);
  const chats = chatSuite('silo-attention');
  let original: string;
  let record: ReturnType<typeof recordNotifications>;
  const frames: HTMLIFrameElement[] = [];

  before(async () => {
    original = document.title;
    await permit('granted');
  });
  after(async () => {
    await permit('prompt');
  });
  beforeEach(() => {
    document.title = BASE;
    record = recordNotifications(window);
  });
  afterEach(() => {
    for (const f of frames.splice(0)) f.remove();
    chats.unmount();
    setHidden(document, false);
    record.restore();
    document.title = original;
  });

  /** A mounted, connected chat (`notify` as given). */
  async function chat(notify = false): Promise<SiloChat> {
    const c = chats.create();
    if (notify) c.setAttribute('notify', '');
    chats.mount(c, 700);
    await connected(c);
    return c;
  }

  it('the title counts the waiting permissions while hidden; it is restored when visible and when answered', async () => {
    const c = await chat();
    await typeAndEnter(c, '/scenario permission-twice');
    await until(() => pendingPrompts(c).length === 2, 'two permissions wait');
    await c.updateComplete;
    expect(document.title, 'visible: the title is left alone').to.equal(BASE);

    setHidden(document, true);
    await until(() => document.title === waiting(2), 'the hidden page’s title counts two');
    setHidden(document, false);
    await until(() => document.title === BASE, 'visible again: the title is restored');
    setHidden(document, true);
    await until(() => document.title === waiting(2), 'hidden again: counted again');

    await allowFirst(c);
    await until(() => document.title === waiting(1), 'one answered: one left');
    await until(() => pendingPrompts(c).length === 1, 'one prompt still waits');
    await allowFirst(c);
    await until(() => turnEnds(c).length === 1, 'the turn ended');
    await until(() => document.title === BASE, 'both answered: restored while still hidden');
    expect(record.made, 'no notification without `notify`, though permitted').to.have.length(0);
  });

  it('a question that starts while hidden: the title says so; a title the page set meanwhile stays; keep-document-title', async () => {
    const c = await chat();
    setHidden(document, true);
    await typeAndEnter(c, '/scenario elicit-form');
    const q = await liveQuestion(c);
    await until(() => document.title === waiting(1), 'the title says a question waits');
    expect(record.made, 'no notification without `notify`, though permitted').to.have.length(0);

    // The page changes its own title while the prefix shows: ending the wait keeps the page's title.
    document.title = 'Inbox (3)';
    q.shadowRoot!.querySelector<HTMLButtonElement>('button[part~="decline"]')!.click();
    await until(() => turnEnds(c).length === 1, 'the question was declined');
    await c.updateComplete;
    expect(document.title, 'the page’s own newer title, not a stale copy').to.equal('Inbox (3)');

    // The next wait prefixes the page's current title, and restores it.
    await typeAndEnter(c, '/scenario elicit-form');
    const again = await liveQuestion(c);
    await until(() => document.title === waiting(1, 'Inbox (3)'), 'prefixed over the page’s title');
    setHidden(document, false);
    await until(() => document.title === 'Inbox (3)', 'visible: the page’s title is back');
    again.shadowRoot!.querySelector<HTMLButtonElement>('button[part~="decline"]')!.click();
    await until(() => turnEnds(c).length === 2, 'declined again');

    // keep-document-title: the title is never touched.
    c.setAttribute('keep-document-title', '');
    setHidden(document, true);
    await typeAndEnter(c, '/scenario elicit-form');
    const third = await liveQuestion(c);
    await c.updateComplete;
    expect(document.title, 'keep-document-title leaves the title alone').to.equal('Inbox (3)');
    third.shadowRoot!.querySelector<HTMLButtonElement>('button[part~="decline"]')!.click();
    await until(() => turnEnds(c).length === 3, 'declined a third time');
  });

  it('notify: a notification for a request that starts while hidden, closed when answered; a click focuses the window', async () => {
    const c = await chat(true);
    // Visible: a request waits, and no notification says so.
    await typeAndEnter(c, '/scenario permission');
    await until(() => pendingPrompts(c).length === 1, 'a permission waits');
    await c.updateComplete;
    expect(record.made, 'none while the page is visible').to.have.length(0);
    // Hidden afterwards: the title says so, but the user saw the request start.
    setHidden(document, true);
    await until(() => document.title === waiting(1), 'the title says it');
    expect(record.made, 'none for a request already seen').to.have.length(0);
    await allowFirst(c);
    await until(() => turnEnds(c).length === 1, 'the first turn ended');

    // Starts while hidden: one notification, fixed text and the tool's title; closed when answered.
    await typeAndEnter(c, '/scenario permission notes.txt');
    const [n] = await until(() => (record.made.length === 1 ? record.made : undefined), 'a notification');
    expect(n!.title).to.equal('The agent is waiting for you');
    expect(n!.body).to.equal('Permission needed: Write notes.txt');
    expect(n!.tag).to.match(/^silo:/);
    expect(n!.closed).to.equal(false);
    await allowFirst(c);
    await until(() => n!.closed, 'answered: the notification is closed');
    await until(() => turnEnds(c).length === 2, 'the second turn ended');

    // A question: its text stays in the page; a click on the notification focuses the window.
    await typeAndEnter(c, '/scenario elicit-form');
    const q = await liveQuestion(c);
    const m = await until(() => record.made[1], 'a notification for the question');
    expect(m.body).to.equal('The agent has a question for you.');
    const focus = window.focus;
    let focused = 0;
    window.focus = () => {
      focused++;
      focus.call(window);
    };
    try {
      m.notification.dispatchEvent(new Event('click'));
    } finally {
      window.focus = focus;
    }
    expect(focused, 'the click focused the window').to.equal(1);
    expect(m.closed, 'and closed the notification').to.equal(true);
    q.shadowRoot!.querySelector<HTMLButtonElement>('button[part~="decline"]')!.click();
    await until(() => turnEnds(c).length === 3, 'the third turn ended');
    expect(record.made).to.have.length(2);
  });

  it('notify without the permission: no notification, and the element never asks for it', async () => {
    await permit('denied');
    const asked: string[] = [];
    const request = Notification.requestPermission;
    Notification.requestPermission = () => {
      asked.push('asked');
      return request.call(Notification);
    };
    try {
      const c = await chat(true);
      setHidden(document, true);
      await typeAndEnter(c, '/scenario permission');
      await until(() => document.title === waiting(1), 'the title still says it');
      expect(record.made, 'no notification without the permission').to.have.length(0);
      await allowFirst(c);
      await until(() => turnEnds(c).length === 1, 'the turn ended');
      expect(asked, 'the element never asks').to.deep.equal([]);
    } finally {
      Notification.requestPermission = request;
      await permit('granted');
    }
  });

  it('answered in another tab: the hidden tab’s title and notification go', async () => {
    const cwd = `/tmp/silo-attention-${crypto.randomUUID()}`;
    const key = `silo-attention-${crypto.randomUUID()}`;
    const a = await openFrame();
    frames.push(a);
    const driver = await chatIn(a, chats.bridge, cwd, key);
    const b = await openFrame();
    frames.push(b);
    const follower = await chatIn(b, chats.bridge, cwd, key, 'following');
    const bWin = b.contentWindow as Window & typeof globalThis;
    const bRecord = recordNotifications(bWin);
    follower.notify = true;
    b.contentDocument!.title = 'Tab B';
    a.contentDocument!.title = 'Tab A';
    setHidden(b.contentDocument!, true);

    sendIn(driver, '/scenario permission tabs.txt');
    await until(() => b.contentDocument!.title === waiting(1, 'Tab B'), 'the hidden tab’s title says it');
    const [n] = await until(() => (bRecord.made.length ? bRecord.made : undefined), 'its notification');
    expect(n!.body).to.equal('Permission needed: Write tabs.txt');
    expect(a.contentDocument!.title, 'the visible tab’s title is left alone').to.equal('Tab A');

    await allowFirst(driver);
    await until(() => b.contentDocument!.title === 'Tab B', 'answered in the other tab: title restored');
    await until(() => n!.closed, 'and the notification closed');
    await until(() => turnEnds(follower).length === 1, 'the follower shows the turn ended');
  });
});
