// <silo-chat>'s turn controls (issue 16), against the real bridge and reference agent, by keyboard:
// the working state and Esc, a follow-up queued while the agent works, editing the last message,
// sending a failed one again, and "New session" that does not pile up empty sessions.
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import { CRASH_STDERR } from '../../../agent/scenarios/endings.ts';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { type AgentsService, createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import {
  connected,
  input,
  part,
  root,
  sendAndWait,
  state,
  turnEnds,
  typeAndEnter,
  userMessages,
} from '../fixtures/chat.ts';
import { mount } from '../fixtures/dom.ts';
import { keepFailuresSendable } from '../fixtures/sendable-errors.ts';

describe('<silo-chat> turn controls (issue 16)', function () {
  this.timeout(60000);
  keepFailuresSendable();
  let bridge: TestBridge;
  let cleanup: (() => void) | undefined;
  let service: AgentsService;

  before(async () => {
    bridge = await startBridge();
    service = createAgentsService();
  });
  after(async () => {
    await service.dispose();
    await stopBridge(bridge.id);
  });
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  function create(cwd = `/tmp/silo-turns-${crypto.randomUUID()}`): SiloChat {
    const chat = document.createElement('silo-chat');
    chat.setAttribute('storage-key', `silo-turns-${crypto.randomUUID()}`);
    chat.service = service;
    chat.setAttribute('bridge-url', bridge.url);
    chat.setAttribute('bridge-token', bridge.token);
    chat.setAttribute('cwd', cwd);
    return chat;
  }

  it('shows "Working…" with the elapsed time while a turn runs, and Esc in the composer stops it', async () => {
    const chat = create();
    cleanup = mount(chat, 600);
    await connected(chat);
    expect(part(chat, 'working'), 'nothing while idle').to.equal(null);
    // A turn waiting for a permission: nothing streams, so only the clock re-renders the time.
    await typeAndEnter(chat, '/scenario permission');
    const working = await until(() => part(chat, 'working'), 'working state shown', 20000);
    expect(working.querySelector('[role="status"]')!.textContent!.trim()).to.equal('Working…');
    expect(part(chat, 'elapsed')!.textContent!.trim()).to.match(/^0:0\d$/);
    // The clock runs: the time moves on from 0:00 by itself (a condition, not a wait on time; a busy
    // machine may skip a second).
    const advanced = await until(
      () => /^0:(?:0[1-9]|[1-5]\d)$/.exec(part(chat, 'elapsed')?.textContent?.trim() ?? ''),
      'the elapsed time advanced',
      20000,
    );
    expect(advanced[0]).to.not.equal('0:00');
    expect(part(chat, 'stop')!.getAttribute('title')).to.include('Esc');
    input(chat).focus();
    await sendKeys({ press: 'Escape' });
    await until(() => turnEnds(chat).length === 1, 'the turn ended', 20000);
    expect(turnEnds(chat)[0]!.stopReason).to.equal('cancelled');
    await until(() => part(chat, 'working') === null, 'working state gone');
  });

  it('queues a message typed while the agent works: visible, cancellable back into the composer, sent when the turn ends', async () => {
    const chat = create();
    cleanup = mount(chat, 600);
    await connected(chat);
    await typeAndEnter(chat, '/scenario slow 1000 100');
    await until(() => part(chat, 'working'), 'turn running', 20000);
    await typeAndEnter(chat, 'and then this');
    const queued = await until(() => part(chat, 'queued'), 'queued message shown');
    expect(queued.querySelector('.text')!.textContent).to.equal('and then this');
    expect(input(chat).value, 'the composer is free again').to.equal('');
    // Cancel it by keyboard: the text returns to the composer.
    part(chat, 'unqueue')!.focus();
    await sendKeys({ press: 'Enter' });
    await chat.updateComplete;
    expect(part(chat, 'queued')).to.equal(null);
    expect(input(chat).value).to.equal('and then this');
    // Queue it again (Send while busy queues too), then stop the turn: it is sent by itself.
    await sendKeys({ press: 'Enter' });
    await until(() => part(chat, 'queued'), 'queued again');
    expect(userMessages(chat)).to.deep.equal(['/scenario slow 1000 100']);
    input(chat).focus();
    await sendKeys({ press: 'Escape' });
    await until(() => turnEnds(chat).length === 2, 'the cancelled turn and the queued one ended', 20000);
    expect(userMessages(chat)).to.deep.equal(['/scenario slow 1000 100', 'and then this']);
    expect(turnEnds(chat).map((t) => t.stopReason)).to.deep.equal(['cancelled', 'end_turn']);
    expect(part(chat, 'queued')).to.equal(null);
  });

  it('↑ in the empty composer (or Edit last) puts the last message back to edit and send again', async () => {
    const chat = create();
    cleanup = mount(chat, 600);
    await connected(chat);
    expect(part(chat, 'edit-last'), 'nothing to edit yet').to.equal(null);
    await sendAndWait(chat, 'first try');
    await until(() => part(chat, 'edit-last'), 'Edit last offered');
    input(chat).focus();
    await sendKeys({ press: 'ArrowUp' });
    await chat.updateComplete;
    expect(input(chat).value).to.equal('first try');
    expect(part(chat, 'edit-last'), 'gone once the composer has text').to.equal(null);
    await sendKeys({ type: ', again' });
    expect(input(chat).value, 'the caret was at the end').to.equal('first try, again');
    await sendKeys({ press: 'Enter' });
    await until(() => turnEnds(chat).length === 2, 'second turn ended', 20000);
    expect(userMessages(chat)).to.deep.equal(['first try', 'first try, again']);
    // The button does the same.
    const edit = await until(() => part(chat, 'edit-last'), 'Edit last offered again');
    edit.focus();
    await sendKeys({ press: 'Enter' });
    await chat.updateComplete;
    expect(input(chat).value).to.equal('first try, again');
  });

  it("a message whose turn failed can be sent again from the banner, which quotes the agent's last meaningful stderr line", async () => {
    const chat = create();
    cleanup = mount(chat, 600);
    await connected(chat);
    await typeAndEnter(chat, '/scenario crash');
    const resend = await until(() => part(chat, 'resend'), '"Send again" offered once reconnected', 20000);
    expect(resend.textContent!.trim()).to.equal('Send again');
    expect(part(chat, 'banner')!.textContent).to.include('the agent stopped');
    // The banner quotes the agent's own last stderr line, not the Node warning printed after it.
    expect(part(chat, 'banner')!.textContent).to.include(CRASH_STDERR);
    expect(part(chat, 'banner')!.textContent).not.to.include('Warning');
    resend.focus();
    await sendKeys({ press: 'Enter' });
    await until(
      () => userMessages(chat).filter((m) => m === '/scenario crash').length === 2,
      'sent again',
      20000,
    );
  });

  it('"New session" keeps a session that is still empty, so the history gets no empty entries', async () => {
    const cwd = `/tmp/silo-turns-new-${crypto.randomUUID()}`;
    const chat = create(cwd);
    cleanup = mount(chat, 600);
    await connected(chat);
    const first = chat.session!.sessionId;
    const inCwd = async () => (await service.sessions()).filter((s) => s.cwd === cwd).map((s) => s.sessionId);
    const newSession = async () => {
      part(chat, 'new-session')!.focus();
      await sendKeys({ press: 'Enter' });
      await chat.updateComplete;
    };
    await newSession();
    await newSession();
    expect(chat.session?.sessionId, 'the empty session is kept').to.equal(first);
    expect(root(chat).activeElement, 'the composer takes focus').to.equal(input(chat));
    await sendAndWait(chat, 'hello');
    await newSession();
    await until(() => chat.session && chat.session.sessionId !== first && state(chat) === 'connected', 'new');
    const second = chat.session!.sessionId;
    await newSession();
    expect(chat.session?.sessionId).to.equal(second);
    expect((await inCwd()).sort()).to.deep.equal([first, second].sort());
  });

  it('copy buttons on a message and on its code blocks write the plain text to the clipboard', async () => {
    const text = 'Run this:\n\n```sh\necho "<b>hi</b>" && ls\n```\n\nThen <i>check</i>.';
    const t = document.createElement('silo-transcript');
    t.updates = [
      { kind: 'agent_message_chunk', text, messageId: 'm1', raw: { sessionUpdate: 'agent_message_chunk' } },
    ];
    cleanup = mount(t, 500);
    const written: string[] = [];
    const clipboard = navigator.clipboard;
    const original = Object.getOwnPropertyDescriptor(clipboard, 'writeText');
    Object.defineProperty(clipboard, 'writeText', {
      configurable: true,
      value: async (value: string) => {
        written.push(value);
      },
    });
    try {
      const row = await until(
        () => t.shadowRoot!.querySelector<HTMLElement>('[part~="message-agent"]'),
        'agent message',
      );
      const message = row.querySelector<HTMLButtonElement>('.who [part~="copy"]')!;
      const code = row.querySelector<HTMLButtonElement>('[part~="copy-code"]')!;
      expect(message.textContent!.trim()).to.equal('Copy');
      expect(row.querySelectorAll('[part~="copy-code"]')).to.have.length(1);
      message.focus();
      await sendKeys({ press: 'Enter' });
      await until(() => written.length === 1, 'message copied');
      expect(written[0]).to.equal(text);
      await until(() => message.textContent === 'Copied', 'says copied');
      code.focus();
      await sendKeys({ press: 'Enter' });
      await until(() => written.length === 2, 'code copied');
      expect(written[1]).to.equal('echo "<b>hi</b>" && ls\n');
      // The agent's markup stayed text inside the code block: no element came from it.
      expect(row.querySelector('.code pre b')).to.equal(null);
    } finally {
      if (original) Object.defineProperty(clipboard, 'writeText', original);
      else delete (clipboard as unknown as Record<string, unknown>).writeText;
    }
  });

  describe('history (item 5)', () => {
    /** The session ids the journal's database holds, hidden or not (read straight from IndexedDB). */
    async function storedIds(databaseName: string): Promise<string[]> {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(databaseName);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
          const request = db.transaction('sessions').objectStore('sessions').getAllKeys();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        return keys.map(String).sort();
      } finally {
        db.close();
      }
    }

    it('an imported session keeps the title it was exported with', async () => {
      const jsonl = [
        { kind: 'user_message_chunk', text: 'hello', raw: { sessionUpdate: 'user_message_chunk' } },
        { kind: 'session_info_update', raw: { sessionUpdate: 'session_info_update', title: 'Old title' } },
        {
          kind: 'session_info_update',
          raw: { sessionUpdate: 'session_info_update', title: 'Greeting plan' },
        },
      ]
        .map((u) => JSON.stringify(u))
        .join('\n');
      const id = await service.importJsonl(jsonl);
      const listed = (await service.sessions()).find((s) => s.sessionId === id);
      expect(listed?.title).to.equal('Greeting plan');
    });

    it('Clear on a session that continued another removes the hidden predecessor too', async () => {
      const b = await startBridge({ agentArgs: ['--no-resume', '--no-load'] });
      const databaseName = `silo-history-${crypto.randomUUID()}`;
      const own = createAgentsService({ databaseName });
      try {
        const cwd = `/tmp/silo-turns-hist-${crypto.randomUUID()}`;
        const key = `silo-turns-hist-${crypto.randomUUID()}`;
        const make = () => {
          const chat = document.createElement('silo-chat');
          chat.setAttribute('storage-key', key);
          chat.service = own;
          chat.setAttribute('bridge-url', b.url);
          chat.setAttribute('bridge-token', b.token);
          chat.setAttribute('cwd', cwd);
          return chat;
        };
        const first = make();
        cleanup = mount(first, 600);
        await connected(first);
        await sendAndWait(first, 'carried words');
        const a = first.session!.sessionId;
        cleanup();
        const chat = make();
        cleanup = mount(chat, 600);
        await until(() => state(chat) === 'read-only', 'journal-only', 20000);
        const button = Array.from(part(chat, 'banner')!.querySelectorAll('button')).find((x) =>
          x.textContent!.includes('Continue in a new session'),
        )!;
        button.focus();
        await sendKeys({ press: 'Enter' });
        await until(
          () => chat.session && chat.session.sessionId !== a && state(chat) === 'connected',
          'continued',
        );
        const bId = chat.session!.sessionId;
        expect(await storedIds(databaseName)).to.deep.equal([a, bId].sort());
        expect((await own.sessions()).map((s) => s.sessionId)).to.deep.equal([bId]);
        cleanup();
        cleanup = undefined;
        await own.clear(bId);
        expect(await storedIds(databaseName), 'nothing hidden is left behind').to.deep.equal([]);
      } finally {
        await own.dispose();
        await stopBridge(b.id);
      }
    });
  });
});
