// <silo-chat>'s find bar, by keyboard only: a large journaled session (2,040 rows, restored through the
// real bridge and reference agent as journal-only) holds "zebra" five times far above the rendered
// rows. Ctrl+F opens the bar, typing finds, Enter / Shift+Enter cycle, the count is announced, the
// match's row comes on screen, Esc closes and gives focus back; axe stays clean with the bar open.
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import { expectAccessible } from '../fixtures/axe.ts';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { toJsonl } from '../../../src/export.ts';
import { type AgentsService, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import { connected, input, part, root, transcript, turnEnds, typeAndEnter } from '../fixtures/chat.ts';
import { mount, settle } from '../fixtures/dom.ts';
import { findJournal } from '../fixtures/find-data.ts';

/** The element focus is on, through open shadow roots. */
function focused(): Element | null {
  let el: Element | null = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** Presses `key` with `modifier` held (the key-press command takes one key). */
async function chord(modifier: 'Control' | 'Shift', key: string): Promise<void> {
  await sendKeys({ down: modifier });
  await sendKeys({ press: key });
  await sendKeys({ up: modifier });
}

/** The transcript row `key` is rendered, on screen, and marked as the current match's. */
function currentRowOnScreen(chat: SiloChat, key: string): boolean {
  const log = transcript(chat).shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
  const row = log.querySelector<HTMLElement>(`:scope > .row[data-key="${CSS.escape(key)}"]`);
  if (row?.dataset.find !== 'active') return false;
  const r = row.getBoundingClientRect();
  const view = log.getBoundingClientRect();
  return r.bottom > view.top && r.top < view.bottom;
}

describe('<silo-chat> find bar (keyboard, large journal, real bridge)', function () {
  this.timeout(120000);
  let service: AgentsService;
  let bridge: TestBridge;
  let sessionId: string;
  let cleanup: (() => void) | undefined;

  before(async () => {
    bridge = await startBridge();
    service = createAgentsService({ databaseName: `silo-chat-find-${crypto.randomUUID()}` });
    sessionId = await service.importJsonl(toJsonl(findJournal()));
  });
  after(async () => {
    cleanup?.();
    await service.dispose();
    await stopBridge(bridge.id);
  });

  it('Ctrl+F, type, Enter / Shift+Enter, count announced, Esc returns focus', async () => {
    const cwd = `/tmp/silo-find-${crypto.randomUUID()}`;
    const key = `silo-find-${crypto.randomUUID()}`;
    localStorage.setItem(`${key}:${cwd}`, sessionId);
    const chat: SiloChat = document.createElement('silo-chat');
    chat.service = service;
    chat.setAttribute('storage-key', key);
    chat.setAttribute('bridge-url', bridge.url);
    chat.setAttribute('bridge-token', bridge.token);
    chat.setAttribute('cwd', cwd);
    cleanup = mount(chat, 600);
    await until(
      () => chat.session && transcript(chat)?.model.rows.length === 2040,
      'journal restored',
      30000,
    );
    await transcript(chat).updateComplete;
    await settle(transcript(chat).shadowRoot!.querySelector<HTMLElement>('[part="log"]')!);
    localStorage.removeItem(`${key}:${cwd}`);

    input(chat).focus();
    expect(part(chat, 'find'), 'no find bar before Ctrl+F').to.equal(null);
    await chord('Control', 'f');
    const bar = await until(() => part(chat, 'find'), 'find bar opened by Ctrl+F');
    expect(bar.getAttribute('role')).to.equal('search');
    await until(() => focused() === part(chat, 'find-input'), 'focus in the find input');
    const count = part(chat, 'find-count')!;
    expect(count.getAttribute('aria-live')).to.equal('polite');

    await sendKeys({ type: 'zebra' });
    await until(() => count.textContent === '1 of 5', 'count "1 of 5"', 20000);
    await until(() => currentRowOnScreen(chat, 'm:agent:sa3'), 'first match on screen', 20000);

    await expectAccessible(chat);

    await sendKeys({ press: 'Enter' });
    await until(() => count.textContent === '2 of 5', 'Enter: "2 of 5"');
    await sendKeys({ press: 'Enter' });
    await until(() => count.textContent === '3 of 5', 'Enter: "3 of 5"');
    await until(() => currentRowOnScreen(chat, 't:sc100'), 'third match (a tool title) on screen');
    await chord('Shift', 'Enter');
    await until(() => count.textContent === '2 of 5', 'Shift+Enter: "2 of 5"');
    await until(() => currentRowOnScreen(chat, 'm:agent:sa3'), 'back at the first row');
    await chord('Shift', 'Enter');
    await chord('Shift', 'Enter');
    await until(() => count.textContent === '5 of 5', 'Shift+Enter before the first wraps to "5 of 5"');
    await until(() => currentRowOnScreen(chat, 'm:thought:st300'), 'last match on screen');

    // Tab to "next" and press it; the count follows.
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(focused()).to.equal(part(chat, 'find-next'));
    await sendKeys({ press: 'Enter' });
    await until(() => count.textContent === '1 of 5', 'the next button wraps to "1 of 5"');

    await sendKeys({ press: 'Escape' });
    await until(() => part(chat, 'find') === null, 'Esc closed the bar');
    await until(() => focused() === input(chat), 'focus back in the composer');
    expect(CSS.highlights.get('silo-find-active')?.size ?? 0, 'no highlight left').to.equal(0);
    expect(root(chat).querySelector('silo-transcript')?.shadowRoot?.querySelector('[data-find]')).to.equal(
      null,
    );
  });

  it('Esc in the find bar closes it without stopping a running turn, and gives focus back', async () => {
    const chat: SiloChat = document.createElement('silo-chat');
    chat.service = service;
    chat.setAttribute('storage-key', `silo-find-${crypto.randomUUID()}`);
    chat.setAttribute('bridge-url', bridge.url);
    chat.setAttribute('bridge-token', bridge.token);
    chat.setAttribute('cwd', `/tmp/silo-find-${crypto.randomUUID()}`);
    // The bar's strings are the chat's, overridable like every other.
    chat.strings = { findCount: (current, total) => `${current}/${total}`, findLabel: 'Suchen' };
    cleanup?.();
    cleanup = mount(chat, 600);
    await connected(chat);
    // A slow stream (100 s): the turn runs while the bar is used.
    await typeAndEnter(chat, '/scenario slow 1000 100');
    await until(() => part(chat, 'working'), 'turn running', 20000);
    expect(focused()).to.equal(input(chat));
    await chord('Control', 'f');
    await until(() => focused() === part(chat, 'find-input'), 'focus in the find input');
    await sendKeys({ type: '/scenario slow' });
    await until(() => part(chat, 'find-count')!.textContent === '1/1', 'the prompt found: "1/1"', 20000);
    expect(part(chat, 'find-input')!.getAttribute('aria-label')).to.equal('Suchen');
    await sendKeys({ press: 'Escape' });
    await until(() => part(chat, 'find') === null, 'Esc closed the bar');
    await until(() => focused() === input(chat), 'focus back in the composer');
    // The stream goes on after that Esc (a stopped turn streams nothing more).
    const streamed = () => {
      const last = transcript(chat).model.rows.at(-1);
      return last?.type === 'message' && last.role === 'agent' ? (last.text.match(/chunk/g) ?? []).length : 0;
    };
    const atEsc = streamed();
    await until(() => streamed() >= atEsc + 3, 'three more chunks streamed after Esc', 20000);
    expect(part(chat, 'working'), 'the turn still runs').to.not.equal(null);
    expect(turnEnds(chat)).to.have.length(0);
    // Esc in the composer, with the bar closed, is the chat's: it stops the turn.
    await sendKeys({ press: 'Escape' });
    await until(() => turnEnds(chat).length === 1, 'the turn ended', 20000);
    expect(turnEnds(chat)[0]!.stopReason).to.equal('cancelled');
  });
});
