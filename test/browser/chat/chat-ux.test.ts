// <silo-chat> as people use it every day (issue 16), against the real bridge and reference agent, by
// keyboard (the test runner's real key presses): typed text is never thrown away, the layout on a phone,
// where a reopened session lands, what the banner says after a crash, Escape in prompts, and the small
// things (cost, links in JSON, the command hint, no protocol jargon).
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { defaultChatStrings } from '../../../components/shared/strings/chat.ts';
import { defaultTranscriptStrings } from '../../../components/shared/strings/strings.ts';
import { OUTCOME_LABEL } from '../../../demo/format.ts';
import type { AgentElicitationRequest } from '../../../src/api.ts';
import type { AgentSessionUpdate } from '../../../src/types.ts';
import { restartBridge, startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import {
  chatSuite,
  connected,
  input,
  part,
  root,
  sendAndWait,
  state,
  transcript,
  turnEnds,
  typeAndEnter,
  userMessages,
} from '../fixtures/chat.ts';
import { atEndWithRow, collectRows, rowOf, settle } from '../fixtures/dom.ts';
import { keepFailuresSendable } from '../fixtures/sendable-errors.ts';
import { permissionRow, TestPermission } from '../fixtures/transcript-data.ts';

describe('<silo-chat> everyday use (issue 16)', function () {
  this.timeout(60000);
  keepFailuresSendable();
  const chats = chatSuite('silo-ux');
  const create = (b?: TestBridge, cwd?: string, key?: string) => chats.create(b, cwd, key);

  describe('1. typed text is never thrown away', () => {
    it('Enter in a journal-only session keeps the text and says why it was not sent', async () => {
      const b = await startBridge({ agentArgs: ['--no-resume', '--no-load'] });
      try {
        const cwd = `/tmp/silo-ux-ro-${crypto.randomUUID()}`;
        const key = `silo-ux-ro-${crypto.randomUUID()}`;
        const first = create(b, cwd, key);
        chats.mount(first, 600);
        await connected(first);
        await sendAndWait(first, 'first words');
        chats.unmount();
        const chat = create(b, cwd, key);
        chats.mount(chat, 600);
        await connected(chat, 'read-only');
        await until(() => userMessages(chat).includes('first words'), 'journal shown');
        await typeAndEnter(chat, 'please keep me');
        expect(input(chat).value).to.equal('please keep me');
        const note = await until(() => root(chat).querySelector('[part="note"]'), 'reason shown');
        expect(note.getAttribute('role')).to.equal('status');
        expect(note.textContent).to.include('read-only');
        expect(input(chat).getAttribute('aria-describedby')).to.equal('composer-note');
        expect(userMessages(chat)).to.deep.equal(['first words']);
      } finally {
        await stopBridge(b.id);
      }
    });

    it('Enter while reconnecting queues the message, shown as queued, and it is sent once connected again (issue 28 §3)', async () => {
      const b = await startBridge();
      try {
        const chat = create(b);
        chats.mount(chat, 600);
        await connected(chat);
        await stopBridge(b.id, true);
        await until(() => state(chat) === 'reconnecting', 'reconnecting', 20000);
        await typeAndEnter(chat, 'while offline');
        const queued = await until(() => part(chat, 'queued'), 'the message queued');
        expect(queued.querySelector('.label')!.textContent).to.equal('Sent once connected:');
        expect(queued.querySelector('.text')!.textContent).to.equal('while offline');
        expect(input(chat).value, 'the composer is free').to.equal('');
        await restartBridge(b.id);
        await until(
          () => userMessages(chat).includes('while offline'),
          'sent by itself once reconnected',
          20000,
        );
        expect(part(chat, 'queued') === null, 'nothing queued any more').to.equal(true);
      } finally {
        await stopBridge(b.id);
      }
    });
  });

  describe('7. small things', () => {
    const usage = (used: number, cost?: { amount: number; currency: string }): AgentSessionUpdate => ({
      kind: 'usage_update',
      usage: { used, size: 1000, ...(cost ? { cost } : {}) },
      raw: { sessionUpdate: 'usage_update', used, size: 1000, ...(cost ? { cost } : {}) },
    });

    it('the cost stays in the usage meter after a later usage update that reports none', async () => {
      const t = document.createElement('silo-transcript');
      t.locale = 'en-US';
      t.updates = [usage(100, { amount: 0.42, currency: 'USD' })];
      chats.mount(t, 400);
      await t.updateComplete;
      const cost = () => t.shadowRoot!.querySelector('[part="usage-cost"]')?.textContent?.trim();
      expect(cost()).to.equal('Cost $0.42');
      t.updates = [...t.updates, usage(300)];
      await t.updateComplete;
      expect(t.shadowRoot!.querySelector('.usage-text')!.textContent).to.include('300');
      expect(cost()).to.equal('Cost $0.42');
    });

    it('a URL inside JSON in prose links only the URL', async () => {
      const t = document.createElement('silo-transcript');
      const text = 'Result: {"url":"https://example.com/a","id":42,"tags":["x"]} done';
      t.updates = [
        { kind: 'agent_message_chunk', text, messageId: 'm1', raw: { sessionUpdate: 'agent_message_chunk' } },
      ];
      chats.mount(t, 400);
      await t.updateComplete;
      const rows = await collectRows(t.shadowRoot!);
      const links = rows.flatMap((r) => Array.from(r.querySelectorAll('a')));
      expect(links.map((a) => [a.getAttribute('href'), a.textContent])).to.deep.equal([
        ['https://example.com/a', 'https://example.com/a'],
      ]);
      expect(rows.map((r) => r.textContent).join('')).to.include('","id":42,"tags":["x"]} done');
    });

    it('Markdown export keeps an edit as a line diff (context, removed, added)', async () => {
      const chat = create();
      chats.mount(chat, 600);
      await connected(chat);
      await sendAndWait(chat, '/scenario tools');
      const md = (await chat.exportMarkdown())!;
      expect(md).to.include('```diff\n # Project\n \n-A tiny project.\n+A tiny project that greets.\n```');
      expect(md).to.include("```diff\n+export const greet = (n: string): string => 'Hi ' + n;\n```");
    });

    it('visible strings carry no protocol jargon', () => {
      const visible: string[] = [];
      const collect = (v: unknown) => {
        if (typeof v === 'string') visible.push(v);
        else if (typeof v === 'function') visible.push(String(v('x', 'y', 'z')));
        else if (v && typeof v === 'object') for (const x of Object.values(v)) collect(x);
      };
      collect(defaultChatStrings);
      collect(defaultTranscriptStrings);
      collect(OUTCOME_LABEL);
      const jargon = visible.filter((v) => /session\/|\b(?:sessionUpdate|stopReason|JSON-RPC|ACP)\b/.test(v));
      expect(jargon).to.deep.equal([]);
    });

    it('the / menu shows each command’s input hint, and picking one shows what to type', async () => {
      const chat = create();
      chats.mount(chat, 600);
      await connected(chat);
      await sendAndWait(chat, '/scenario commands');
      await until(() => (chat.session?.availableCommands.length ?? 0) > 0, 'commands known');
      input(chat).focus();
      await sendKeys({ type: '/w' });
      const menu = await until(() => root(chat).querySelector('[part="commands"]'), 'slash menu');
      const option = Array.from(menu.querySelectorAll('[role="option"]')).find((o) =>
        o.textContent!.includes('/web'),
      )!;
      expect(option.querySelector('.hint')!.textContent).to.equal('query');
      await sendKeys({ press: 'Enter' });
      await chat.updateComplete;
      expect(input(chat).value).to.equal('/web ');
      const hint = await until(() => root(chat).querySelector('[part="command-hint"]'), 'hint shown');
      expect(hint.textContent!.replace(/\s+/g, ' ').trim()).to.equal('/web query');
      expect(input(chat).getAttribute('aria-describedby')).to.equal('command-hint');
      await sendKeys({ type: 'lit' });
      await chat.updateComplete;
      expect(root(chat).querySelector('[part="command-hint"]')).to.equal(null);
    });
  });

  describe('6. Escape and focus in prompts', () => {
    /** The focused element, through every shadow root. */
    function deepActive(): Element | null {
      let a: Element | null = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a;
    }
    /** The question's row in the log (its stand-in below the log is replaced once the row arrives). */
    const question = (chat: SiloChat) =>
      transcript(chat).shadowRoot!.querySelector('[part="log"] .row silo-elicitation')?.shadowRoot ??
      undefined;
    const field = (chat: SiloChat, id: string) =>
      question(chat)!.querySelector<HTMLInputElement>(`[data-question="${id}"] input`)!;

    it('Escape in a question field keeps the answers; a required checkbox must be ticked; focus returns to the composer', async () => {
      const chat = create();
      chats.mount(chat, 700);
      await connected(chat);
      await typeAndEnter(chat, '/scenario elicit-form');
      const name = await until(
        () => question(chat)?.querySelector<HTMLInputElement>('[data-question="name"] input'),
        'live question',
        20000,
      );
      await until(() => deepActive() === name, 'focus in the first field');
      await sendKeys({ type: ' Lovelace' });
      expect(name.value).to.equal('Ada Lovelace');
      await sendKeys({ press: 'Escape' });
      await chat.updateComplete;
      expect(deepActive(), 'Escape left the field').to.not.equal(name);
      expect(question(chat)!.querySelector('form'), 'the question is still open').to.not.equal(null);
      expect(field(chat, 'name').value).to.equal('Ada Lovelace');
      // Enter with "I agree" unticked: refused, the box says it is required.
      field(chat, 'name').focus();
      await sendKeys({ press: 'Enter' });
      await until(
        () => question(chat)!.querySelector('[data-question="agree"] [part~="error"]')?.textContent?.trim(),
        'required checkbox error',
      );
      expect(question(chat)!.querySelector('form')).to.not.equal(null);
      const agree = field(chat, 'agree');
      expect(deepActive(), 'focus moved to the unticked box').to.equal(agree);
      await sendKeys({ type: ' ' });
      expect(agree.checked).to.equal(true);
      field(chat, 'name').focus();
      await sendKeys({ press: 'Enter' });
      await until(
        () =>
          transcript(chat).model.rows.some(
            (r) => r.type === 'message' && r.role === 'agent' && r.text.includes('You answered:'),
          ),
        'the agent got the answers',
        20000,
      );
      const reply = transcript(chat).model.rows.find(
        (r) => r.type === 'message' && r.role === 'agent' && r.text.includes('You answered:'),
      ) as { text: string };
      expect(reply.text).to.include('"name":"Ada Lovelace"').and.to.include('"agree":true');
      await until(() => deepActive() === input(chat), 'focus back in the composer');
    });

    it('Escape on a permission focuses Reject without answering; Enter rejects; focus returns to the composer', async () => {
      const chat = create();
      chats.mount(chat, 700);
      await connected(chat);
      await typeAndEnter(chat, '/scenario permission');
      const t = transcript(chat);
      const prompt = await until(
        () => t.shadowRoot!.querySelector<HTMLElement>('[part="log"] .row [data-prompt][data-pending]'),
        'live permission prompt in its row',
        20000,
      );
      await until(() => deepActive() === prompt, 'focus on the prompt');
      await sendKeys({ press: 'Escape' });
      const reject = prompt.querySelector<HTMLButtonElement>('button[data-kind="reject_once"]')!;
      expect(deepActive()).to.equal(reject);
      expect(t.shadowRoot!.querySelector('[data-prompt][data-pending]'), 'nothing answered').to.equal(prompt);
      await sendKeys({ press: 'Enter' });
      await until(
        () =>
          t
            .shadowRoot!.querySelector('[part="permission-resolution"]')
            ?.textContent?.includes(reject.textContent!.trim()),
        'rejection recorded',
        20000,
      );
      await until(() => deepActive() === input(chat), 'focus back in the composer');
    });
  });

  describe('6. a live prompt takes focus in its row', () => {
    function deepActive(): Element | null {
      let a: Element | null = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a;
    }
    function liveQuestion(): AgentElicitationRequest {
      return {
        id: 'q-row',
        mode: 'form',
        message: 'Who are you?',
        questions: [
          { id: 'name', type: 'text', title: 'Name', required: true },
          { id: 'city', type: 'text', title: 'City', required: false },
        ],
        acknowledgeOnly: false,
        unsupported: false,
        raw: {},
        signal: new AbortController().signal,
        answer: async () => {},
        decline: async () => {},
        cancel: async () => {},
      };
    }

    it('a question: its row holds the live question, focus in its first field, typed text kept', async () => {
      const t = document.createElement('silo-transcript');
      t.updates = [];
      chats.mount(t, 500);
      const req = liveQuestion();
      // The page gets the journaled row first, then the live request (docs/requests-and-state.md).
      t.appendUpdates([
        {
          kind: 'elicitation',
          elicitation: { id: req.id, mode: 'form', message: req.message, questions: req.questions },
          raw: {},
        } as AgentSessionUpdate,
      ]);
      t.elicitationRequests = [req];
      const row = () => t.shadowRoot!.querySelector('[part="log"] .row silo-elicitation')?.shadowRoot;
      const name = await until(
        () => row()?.querySelector<HTMLInputElement>('[data-question="name"] input'),
        'question in its row',
      );
      await until(() => deepActive() === name, 'focus in the row’s first field');
      expect(t.shadowRoot!.querySelectorAll('silo-elicitation'), 'drawn once').to.have.length(1);
      await sendKeys({ type: 'Ada' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: 'London' });
      expect(name.value).to.equal('Ada');
      expect(row()!.querySelector<HTMLInputElement>('[data-question="city"] input')!.value).to.equal(
        'London',
      );
    });

    it('a permission whose row renders after it (its source still loading) takes focus once its row is in', async () => {
      const t = document.createElement('silo-transcript');
      t.updates = [];
      chats.mount(t, 500);
      const req = new TestPermission('p-later', { toolCallId: 'tc1', title: 'rm -rf build' }, [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ]);
      t.permissionRequests = [req];
      await t.updateComplete;
      expect(
        t.shadowRoot!.querySelector('[data-prompt="p-later"]'),
        'nothing drawn without its row',
      ).to.equal(null);
      t.appendUpdates([permissionRow(req)]);
      const prompt = await until(
        () =>
          t.shadowRoot!.querySelector<HTMLElement>('[part="log"] .row [data-prompt="p-later"][data-pending]'),
        'permission in its row',
      );
      await until(() => deepActive() === prompt, 'focus on the row’s prompt');
      await sendKeys({ press: 'Escape' });
      expect(deepActive()?.getAttribute('data-option')).to.equal('reject');
      await sendKeys({ press: 'Enter' });
      await until(() => req.chosen.length > 0, 'answered');
      expect(req.chosen).to.deep.equal(['reject']);
    });
  });

  describe('4. the banner after an agent crash', () => {
    const banner = (chat: SiloChat) => root(chat).querySelector<HTMLElement>('[part="banner"][role="alert"]');
    /** Crashes the agent mid-turn; returns the banner once the failed prompt is reported. */
    async function crash(chat: SiloChat): Promise<HTMLElement> {
      await typeAndEnter(chat, '/scenario crash');
      // While it reconnects, then once the prompt has failed: never "could not be sent".
      const texts: string[] = [];
      const shown = await until(
        () => {
          const b = banner(chat);
          const text = b?.textContent?.trim().replace(/\s+/g, ' ');
          if (text && texts.at(-1) !== text) texts.push(text);
          return text?.includes('Your message was sent, but the agent stopped') ? b : undefined;
        },
        'banner after the crash',
        20000,
      );
      expect(texts.filter((t) => t.includes('could not be sent'))).to.deep.equal([]);
      return shown;
    }

    it('says the message was sent and the agent stopped (never "could not be sent")', async () => {
      const chat = create();
      chats.mount(chat, 700);
      await connected(chat);
      const shown = await crash(chat);
      expect(shown.querySelector('[part="dismiss"]')!.textContent!.trim()).to.equal('Dismiss');
    });

    it('an error banner can be dismissed by keyboard', async () => {
      const chat = document.createElement('silo-chat');
      chat.setAttribute('bridge-url', 'ws://127.0.0.1:1');
      chat.setAttribute('bridge-token', 'nope');
      chat.setAttribute('cwd', '/tmp/x');
      chat.setAttribute('storage-key', `k-${crypto.randomUUID()}`);
      chats.mount(chat, 500);
      const shown = await until(() => banner(chat), 'banner', 20000);
      shown.querySelector<HTMLButtonElement>('[part="dismiss"]')!.focus();
      await sendKeys({ press: 'Enter' });
      await chat.updateComplete;
      expect(banner(chat)).to.equal(null);
    });
  });

  describe('2. phones', () => {
    afterEach(async () => {
      document.body.style.margin = '';
      await setViewport({ width: 800, height: 600 });
    });

    it('works at 360×740: nothing overflows, Send is on screen, the transcript keeps ≥ 75 % of the height', async () => {
      await setViewport({ width: 360, height: 740 });
      document.body.style.margin = '0';
      const chat = create();
      chats.mount(chat, 740, 360);
      await connected(chat);
      await sendAndWait(chat, '/scenario commands');
      input(chat).focus();
      await sendKeys({ type: 'hello' });
      await chat.updateComplete;
      const box = chat.getBoundingClientRect();
      const send = root(chat).querySelector<HTMLElement>('[part="send"]')!.getBoundingClientRect();
      expect(send.right, 'Send inside the element').to.be.at.most(box.right);
      expect(send.width).to.be.greaterThan(20);
      for (const el of Array.from(
        root(chat).querySelectorAll<HTMLElement>('header, .composer, header button'),
      )) {
        const r = el.getBoundingClientRect();
        expect(r.right, `${el.tagName}.${el.className} inside 360 px`).to.be.at.most(360);
      }
      expect(chat.scrollWidth, 'no horizontal overflow').to.be.at.most(chat.clientWidth);
      // A page that sizes it by its content (a grid's 1fr column, a flex row) must not be pushed wider.
      chat.style.width = 'min-content';
      const narrowest = chat.getBoundingClientRect().width;
      chat.style.width = '';
      expect(narrowest, 'min-content width').to.be.at.most(360);
      const t = transcript(chat).getBoundingClientRect();
      expect(t.height / box.height, 'transcript share of the height').to.be.at.least(0.75);
    });
  });

  describe('3. where a large session opens', () => {
    it('a restored session at its latest message stays there across a resize, and offers "Jump to latest" when scrolled up', async () => {
      const cwd = `/tmp/silo-ux-big-${crypto.randomUUID()}`;
      const key = `silo-ux-big-${crypto.randomUUID()}`;
      const first = create(chats.bridge, cwd, key);
      chats.mount(first, 500);
      await connected(first);
      for (let i = 0; i < 3; i++) await sendAndWait(first, '/scenario demo');
      await sendAndWait(first, 'the very last words');
      chats.unmount();
      const chat = create(chats.bridge, cwd, key);
      chats.mount(chat, 500);
      await connected(chat);
      const t = transcript(chat);
      await until(() => turnEnds(chat).length === 4, 'restored', 20000);
      const log = t.shadowRoot!.querySelector<HTMLElement>('[part="log"]')!;
      const jump = t.shadowRoot!.querySelector<HTMLElement>('[part="jump"]')!;
      const gap = () => log.scrollHeight - log.scrollTop - log.clientHeight;
      // The rows first (fixtures/dom.ts): a log that has not drawn them yet is at its end too.
      const last = t.model.rows.at(-2)!;
      await until(
        () => atEndWithRow(log, rowOf(last.key), 1),
        'opens at the bottom by itself, its last message drawn',
      );
      await settle(log);
      expect(log.scrollHeight, 'a session taller than its view').to.be.greaterThan(3 * log.clientHeight);
      expect(gap(), 'still at the bottom').to.be.at.most(1);
      expect(jump.hidden).to.equal(true);
      // Shrink the element: still at the bottom.
      (chat.parentElement as HTMLElement).style.height = '380px';
      await settle(log);
      await until(() => gap() <= 48, 'at the bottom after the resize');
      expect(jump.hidden).to.equal(true);
      // Scroll up (as a user does), then resize: stays where it is, "Jump to latest" offered.
      log.dispatchEvent(new WheelEvent('wheel', { deltaY: -100 }));
      log.scrollTop = 0;
      await until(() => !jump.hidden, 'Jump to latest offered');
      (chat.parentElement as HTMLElement).style.height = '520px';
      await settle(log);
      expect(jump.hidden).to.equal(false);
      expect(gap()).to.be.greaterThan(48);
      jump.focus();
      await sendKeys({ press: 'Enter' });
      await until(() => gap() <= 48 && jump.hidden, 'back at the latest');
    });
  });
});
