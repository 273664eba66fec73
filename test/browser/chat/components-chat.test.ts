// <silo-chat> against the real bridge and the real reference agent: connect, compose, commands,
// pickers, stop, permission prompts, unreachable and refusing bridges, restore on reload, nesting in a
// shadow root, registering twice, axe.

import { expect } from 'chai';
import { expectAccessible } from '../fixtures/axe.ts';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import type { SiloTranscript } from '../../../components/transcript/silo-transcript.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { collectRows, deepText, mount } from '../fixtures/dom.ts';

describe('<silo-chat> (real bridge, reference agent)', function () {
  this.timeout(60000);
  let bridge: TestBridge;
  let cleanup: (() => void) | undefined;
  const chats: SiloChat[] = [];

  before(async () => {
    bridge = await startBridge();
  });
  after(async () => {
    await stopBridge(bridge.id);
  });
  afterEach(async () => {
    cleanup?.();
    cleanup = undefined;
    chats.length = 0;
  });

  function create(
    cwd = `/tmp/silo-chat-${crypto.randomUUID()}`,
    key = `silo-chat-test-${crypto.randomUUID()}`,
  ) {
    const chat = document.createElement('silo-chat');
    chat.setAttribute('storage-key', key);
    chat.setAttribute('bridge-url', bridge.url);
    chat.setAttribute('bridge-token', bridge.token);
    chat.setAttribute('cwd', cwd);
    chats.push(chat);
    return chat;
  }

  async function connected(chat: SiloChat) {
    await until(
      () =>
        chat.session &&
        chat.shadowRoot!.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected',
      'chat connected',
      20000,
    );
  }

  const root = (chat: SiloChat) => chat.shadowRoot!;
  const transcript = (chat: SiloChat) => root(chat).querySelector('silo-transcript') as SiloTranscript;
  const input = (chat: SiloChat) => root(chat).querySelector('textarea')!;

  function type(chat: SiloChat, text: string) {
    const ta = input(chat);
    ta.value = text;
    ta.dispatchEvent(new Event('input'));
  }

  function press(chat: SiloChat, key: string, init: KeyboardEventInit = {}) {
    const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, composed: true, ...init });
    input(chat).dispatchEvent(e);
    return e;
  }

  async function sendAndWait(chat: SiloChat, text: string) {
    const ends = chat.session
      ? (await chat.session.transcript()).filter((u) => u.kind === 'turn_end').length
      : 0;
    type(chat, text);
    await chat.updateComplete;
    press(chat, 'Enter');
    await until(
      () => transcript(chat).model.rows.filter((r) => r.type === 'turn-end').length > ends,
      `turn of "${text}" ended`,
      20000,
    );
    await transcript(chat).updateComplete;
  }

  it('is a complete chat from one element: connect, Enter to send, Shift+Enter for a newline, the title', async () => {
    const chat = create();
    cleanup = mount(chat, 700);
    await connected(chat);
    const shift = press(chat, 'Enter', { shiftKey: true });
    expect(shift.defaultPrevented, 'Shift+Enter is left to the textarea').to.equal(false);
    await sendAndWait(chat, 'hello there');
    expect(input(chat).value).to.equal('');
    const t = transcript(chat);
    const rows = await collectRows(t.shadowRoot!);
    expect(
      rows.some(
        (r) => r.getAttribute('part')!.includes('message-user') && r.textContent!.includes('hello there'),
      ),
    ).to.equal(true);
    expect(
      rows.some(
        (r) => r.getAttribute('part')!.includes('message-agent') && r.textContent!.includes('hello there'),
      ),
    ).to.equal(true);
    await until(
      () => root(chat).querySelector('[part="title"]')!.textContent === 'hello there',
      'title shown',
    );
  });

  it('offers the agent’s slash commands, config pickers, and a Stop button while a turn runs', async () => {
    const chat = create();
    cleanup = mount(chat, 700);
    await connected(chat);
    await sendAndWait(chat, '/scenario commands');
    await until(() => (chat.session?.availableCommands.length ?? 0) > 0, 'commands known');
    type(chat, '/');
    await chat.updateComplete;
    const menu = await until(() => root(chat).querySelector('[part="commands"]'), 'slash menu');
    expect(menu.getAttribute('role')).to.equal('listbox');
    const options = Array.from(menu.querySelectorAll('[role="option"]'));
    expect(options.length).to.equal(chat.session!.availableCommands.length);
    expect(input(chat).getAttribute('aria-activedescendant')).to.equal('command-0');
    press(chat, 'ArrowDown');
    await chat.updateComplete;
    expect(input(chat).getAttribute('aria-activedescendant')).to.equal(
      options.length > 1 ? 'command-1' : 'command-0',
    );
    press(chat, 'Enter');
    await chat.updateComplete;
    const picked = chat.session!.availableCommands[options.length > 1 ? 1 : 0]!;
    expect(input(chat).value).to.equal(`/${picked.name} `);
    expect(root(chat).querySelector('[part="commands"]')).to.equal(null);
    // Pickers only for what the agent offers.
    const offered = chat.session!.configOptions;
    const selects = root(chat).querySelectorAll('[part="pickers"] select');
    expect(selects.length).to.equal(offered.filter((o) => o.type === 'select').length);
    if (selects.length > 0) {
      const option = offered.find((o) => o.type === 'select')!;
      const next = option.options!.find((v) => v.value !== option.currentValue)!;
      const select = selects[0] as HTMLSelectElement;
      select.value = next.value;
      select.dispatchEvent(new Event('change'));
      await until(
        () => chat.session!.configOptions.find((o) => o.id === option.id)?.currentValue === next.value,
        'config option changed',
      );
    }
    // Stop while a slow turn runs.
    type(chat, '/scenario slow 200 50');
    await chat.updateComplete;
    press(chat, 'Enter');
    const stop = await until(
      () => root(chat).querySelector<HTMLButtonElement>('[part="stop"]'),
      'Stop button',
      10000,
    );
    stop.click();
    await until(
      () => transcript(chat).model.rows.some((r) => r.type === 'turn-end' && r.stopReason === 'cancelled'),
      'cancelled turn end',
      20000,
    );
    await until(() => root(chat).querySelector('[part="send"]'), 'Send button back');
  });

  it('shows a live permission prompt with every option, focused, and records the choice', async () => {
    const chat = create();
    cleanup = mount(chat, 700);
    await connected(chat);
    type(chat, '/scenario permission');
    await chat.updateComplete;
    press(chat, 'Enter');
    const t = transcript(chat);
    const prompt = await until(
      () => t.shadowRoot!.querySelector<HTMLElement>('[data-prompt][data-pending]'),
      'live permission prompt',
      20000,
    );
    await until(() => t.shadowRoot!.activeElement === prompt, 'focus moved to the prompt');
    const buttons = Array.from(prompt.querySelectorAll<HTMLButtonElement>('button'));
    const kinds = buttons.map((b) => b.dataset.kind);
    expect(kinds).to.include.members(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    const allow = buttons.find((b) => b.dataset.kind === 'allow_once')!;
    const name = allow.textContent!.trim();
    allow.click();
    await until(() => t.model.rows.some((r) => r.type === 'turn-end'), 'turn ended after the answer', 20000);
    await until(
      () => t.shadowRoot!.querySelector('[part="permission-resolution"]')?.textContent?.includes(name),
      'recorded choice shown',
    );
  });

  it('says clearly when the bridge is unreachable or refuses the page', async () => {
    const unreachable = document.createElement('silo-chat');
    unreachable.setAttribute('bridge-url', 'ws://127.0.0.1:1');
    unreachable.setAttribute('bridge-token', 'nope');
    unreachable.setAttribute('cwd', '/tmp/x');
    unreachable.setAttribute('storage-key', `k-${crypto.randomUUID()}`);
    let error: unknown;
    unreachable.addEventListener('silo-error', (e) => (error = e.detail.error));
    cleanup = mount(unreachable, 500);
    const banner = await until(
      () => unreachable.shadowRoot!.querySelector('[part="banner"][role="alert"]'),
      'banner',
      20000,
    );
    expect(banner.textContent).to.include('cannot be reached or refused this page');
    expect(unreachable.shadowRoot!.querySelector('[part="state"]')!.getAttribute('data-state')).to.equal(
      'failed',
    );
    expect(error).to.have.property('code', 'unreachable');
    cleanup();
    const refusing = await startBridge({ allowOrigin: ['https://elsewhere.example'] });
    try {
      const chat = document.createElement('silo-chat');
      chat.setAttribute('bridge-url', refusing.url);
      chat.setAttribute('bridge-token', refusing.token);
      chat.setAttribute('cwd', '/tmp/x');
      chat.setAttribute('storage-key', `k-${crypto.randomUUID()}`);
      cleanup = mount(chat, 500);
      const b = await until(
        () => chat.shadowRoot!.querySelector('[part="banner"][role="alert"]'),
        'refused banner',
        20000,
      );
      expect(b.textContent).to.include('refused this page');
    } finally {
      await stopBridge(refusing.id);
    }
  });

  it('restores the last session on reload', async () => {
    const cwd = `/tmp/silo-restore-${crypto.randomUUID()}`;
    const key = `silo-restore-${crypto.randomUUID()}`;
    const first = create(cwd, key);
    cleanup = mount(first, 600);
    await connected(first);
    await sendAndWait(first, 'remember the word pineapple');
    const id = first.session!.sessionId;
    cleanup();
    const second = create(cwd, key);
    let outcome: string | undefined;
    second.addEventListener('silo-session', (e) => (outcome = e.detail.resumeOutcome));
    cleanup = mount(second, 600);
    await until(() => second.session, 'reconnected', 20000);
    expect(second.session!.sessionId).to.equal(id);
    expect(outcome).to.be.oneOf(['resumed', 'loaded', 'journal-only']);
    await until(
      () => transcript(second).model.rows.some((r) => r.type === 'message' && r.text.includes('pineapple')),
      'previous messages shown',
      20000,
    );
  });

  it('works inside another shadow root, and registering twice is harmless', async () => {
    // @ts-expect-error: a second copy of the entry module (query string), defining the same tags again.
    await import('../../../components/index.ts?second-copy');
    expect(customElements.get('silo-chat')).to.be.a('function');
    const host = document.createElement('div');
    const shadow = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    // Host-page styles must not leak in.
    style.textContent =
      'textarea, button, div { color: rgb(255, 0, 0) !important; font-size: 40px !important; }';
    shadow.append(style);
    const chat = create();
    shadow.append(chat);
    cleanup = mount(host, 600);
    await connected(chat);
    expect(getComputedStyle(input(chat)).fontSize).to.not.equal('40px');
    await sendAndWait(chat, 'nested hello');
    // Rows paint on the next frame (and the virtualizer lays them out after that), so wait for the DOM.
    await until(
      () => deepText(transcript(chat).shadowRoot!).includes('nested hello'),
      'the prompt painted inside the nested shadow root',
      20000,
    );
  });

  it('passes axe', async () => {
    const chat = create();
    cleanup = mount(chat, 700);
    await connected(chat);
    await sendAndWait(chat, '/scenario demo');
    await expectAccessible(chat);
  });
});
