// <silo-chat>'s attachments and content blocks (issue 16), against the real bridge and reference agent:
// an image pasted or a file dropped goes to the agent as the content block its promptCapabilities allow
// (the agent's `prompt-blocks` scenario answers with the blocks it received), one it does not accept is
// refused with a message while the typed text stays; images, resources and resource links from the
// agent render and fetch nothing; the copy buttons take overridden strings; an exported session keeps
// its agent when imported.
import { sendKeys } from '@web/test-runner-commands';
import { expect } from 'chai';
import { expectAccessible } from '../fixtures/axe.ts';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { parseJsonl } from '../../../src/export.ts';
import { createAgentsService } from '../../../src/index.ts';
import { startBridge, stopBridge, type TestBridge } from '../../support/bridge.ts';
import { until } from '../../support/until.ts';
import {
  attachmentError,
  chips,
  drop,
  PIXEL,
  paste,
  pngFile,
  receivedBlocks,
  textFile,
} from '../fixtures/attachments.ts';
import {
  chatSuite,
  connected,
  input,
  part,
  root,
  sendAndWait,
  transcript,
  turnEnds,
  typeAndEnter,
} from '../fixtures/chat.ts';

/** The last user message's element in the transcript. */
const lastUserRow = (chat: SiloChat) =>
  Array.from(transcript(chat).shadowRoot!.querySelectorAll<HTMLElement>('[part~="message-user"]')).at(-1);

describe('<silo-chat> attachments and content blocks (issue 16)', function () {
  this.timeout(60000);
  const chats = chatSuite('silo-attach');
  const create = (b?: TestBridge, cwd?: string, key?: string) => chats.create(b, cwd, key);

  it('a pasted image shows as a chip with a thumbnail, is sent as an image block, and shows in the transcript with its name', async () => {
    const chat = create();
    chats.mount(chat, 700);
    await connected(chat);
    expect(paste(chat, [pngFile()]), "the browser's paste is prevented at once").to.equal(true);
    await until(() => chips(chat).length === 1, 'image chip shown');
    const chip = chips(chat)[0];
    expect(chip!.querySelector('.name')?.textContent).to.equal('pixel.png');
    expect(chip!.querySelector('img')?.getAttribute('src')).to.equal(`data:image/png;base64,${PIXEL}`);
    expect(root(chat).querySelector('[part="remove-attachment"]')?.getAttribute('aria-label')).to.equal(
      'Remove pixel.png',
    );
    // axe with the chip shown (the agent's answer below is a long JSON line in a code block).
    await expectAccessible(chat);
    await sendAndWait(chat, '/scenario prompt-blocks');
    expect(receivedBlocks(chat)).to.deep.equal([
      { type: 'text', text: '/scenario prompt-blocks' },
      { type: 'image', mimeType: 'image/png', data: PIXEL, uri: 'attachment:///pixel.png' },
    ]);
    expect(chips(chat)).to.have.length(0);
    const img = lastUserRow(chat)?.querySelector('img[part~="image"]');
    expect(img?.getAttribute('src')).to.equal(`data:image/png;base64,${PIXEL}`);
    // The sent image is named in the transcript, as the chip named it.
    expect(img?.getAttribute('alt')).to.equal('pixel.png');
    expect(lastUserRow(chat)?.querySelector('[part~="file-name"]')?.textContent).to.equal('pixel.png');
  });

  it('a dropped text file is sent as a resource block and shown with its name and text; a removed chip is not sent', async () => {
    const chat = create();
    chats.mount(chat, 700);
    await connected(chat);
    expect(drop(chat, [textFile(), pngFile()]), "the browser's drop is prevented at once").to.equal(true);
    await until(() => chips(chat).length === 2, 'two chips shown');
    (chips(chat)[1]!.querySelector('button') as HTMLButtonElement).click();
    await until(() => chips(chat).length === 1, 'image chip removed');
    // The Attach button is a keyboard-reachable button of its own.
    const attach = part(chat, 'attach') as HTMLButtonElement;
    expect(attach.localName).to.equal('button');
    expect(attach.getAttribute('aria-label')).to.equal(
      'Attach files or images (you can also paste or drop them here)',
    );
    await sendAndWait(chat, '/scenario prompt-blocks');
    expect(receivedBlocks(chat)).to.deep.equal([
      { type: 'text', text: '/scenario prompt-blocks' },
      {
        type: 'resource',
        resource: { uri: 'attachment:///notes.txt', mimeType: 'text/plain', text: 'hello\nworld' },
      },
    ]);
    const resource = lastUserRow(chat)?.querySelector('[part~="resource"]');
    // Named by its file name (the URI is its tooltip), not as "Resource attachment:///notes.txt".
    expect(resource?.querySelector('summary')?.textContent?.trim()).to.equal('notes.txt text/plain');
    expect(resource?.querySelector('[part~="file-name"]')?.getAttribute('title')).to.equal(
      'attachment:///notes.txt',
    );
    expect(resource?.querySelector('pre')?.textContent).to.equal('hello\nworld');
  });

  it('an agent without image or embedded-context capability: the image is refused with a message, the text stays, a text file goes inline', async () => {
    const b = await startBridge({ agentArgs: ['--prompt-capabilities', 'none'] });
    try {
      // Attached before the chat knows its agent (no bridge yet): kept, then refused at Enter.
      const chat = create(b);
      chat.removeAttribute('bridge-url');
      chats.mount(chat, 700);
      await chat.updateComplete;
      paste(chat, [pngFile()]);
      await until(() => chips(chat).length === 1, 'chip shown before connecting');
      chat.setAttribute('bridge-url', b.url);
      await connected(chat);
      input(chat).focus();
      await sendKeys({ type: '/scenario prompt-blocks' });
      await sendKeys({ press: 'Enter' });
      const note = await until(() => part(chat, 'note'), 'not sent, and why');
      expect(note.textContent?.trim()).to.equal(
        'Not sent: pixel.png cannot go to this agent (this agent does not accept images). Remove it to send the rest; your message and other files are kept.',
      );
      expect(input(chat).value).to.equal('/scenario prompt-blocks');
      expect(chips(chat)).to.have.length(1);
      expect(turnEnds(chat)).to.have.length(0);
      (chips(chat)[0]!.querySelector('button') as HTMLButtonElement).click();
      await until(() => chips(chat).length === 0 && part(chat, 'note') === null, 'chip and note gone');
      // Attached once the agent is known: refused at once.
      paste(chat, [pngFile()]);
      await until(() => attachmentError(chat), 'refusal shown');
      expect(attachmentError(chat)).to.equal(
        'pixel.png was not attached: this agent does not accept images.',
      );
      expect(part(chat, 'attachment-error')?.getAttribute('role')).to.equal('alert');
      expect(chips(chat)).to.have.length(0);
      expect(input(chat).value).to.equal('/scenario prompt-blocks');
      // Too large: refused with the limit named.
      drop(chat, [new File([new Uint8Array(6 * 1024 * 1024)], 'big.bin')]);
      await until(() => attachmentError(chat)?.startsWith('big.bin'), 'size refusal shown');
      expect(attachmentError(chat)).to.equal(
        'big.bin was not attached: it is 6 MB, and the limit is 5 MB per file.',
      );
      drop(chat, [textFile()]);
      await until(() => chips(chat).length === 1, 'text file attached');
      input(chat).focus();
      await sendKeys({ press: 'Enter' });
      await until(() => turnEnds(chat).length === 1, 'turn ended', 20000);
      expect(receivedBlocks(chat)).to.deep.equal([
        { type: 'text', text: '/scenario prompt-blocks' },
        { type: 'text', text: 'notes.txt:\n```\nhello\nworld\n```' },
      ]);
    } finally {
      chats.unmount();
      await stopBridge(b.id);
    }
  });

  it('size limits: a file over 5 MiB, or files over 10 MiB in one message, are refused with a message; exactly the limits pass and reach the agent', async () => {
    const MiB = 1024 * 1024;
    const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
    const names = () => chips(chat).map((c) => c.querySelector('.name')?.textContent);
    const chat = create();
    chats.mount(chat, 700);
    await connected(chat);
    // Three 4 MiB files at once: the third would take the message over 10 MiB.
    drop(chat, [file('a.bin', 4 * MiB), file('b.bin', 4 * MiB), file('c.bin', 4 * MiB)]);
    await until(() => attachmentError(chat), 'the total refusal shown');
    expect(attachmentError(chat)).to.equal(
      'c.bin was not attached: one message can carry at most 10 MB of files.',
    );
    expect(part(chat, 'attachment-error')?.getAttribute('role')).to.equal('alert');
    expect(names()).to.deep.equal(['a.bin', 'b.bin']);
    // Another file on top of those attached: the ones already there count.
    drop(chat, [file('d.bin', 2 * MiB + 1)]);
    await until(() => attachmentError(chat)?.startsWith('d.bin'), 'refused over what is attached');
    expect(attachmentError(chat)).to.equal(
      'd.bin was not attached: one message can carry at most 10 MB of files.',
    );
    expect(names()).to.deep.equal(['a.bin', 'b.bin']);
    // Exactly 10 MiB in all is allowed.
    drop(chat, [file('e.bin', 2 * MiB)]);
    await until(() => chips(chat).length === 3, 'exactly the total limit attached');
    expect(attachmentError(chat)).to.equal(undefined);
    // The 10 MiB message goes through the bridge (its frames hold 16 MiB) and the turn ends.
    await sendAndWait(chat, 'ten mebibytes attached');
    expect(turnEnds(chat).at(-1)?.stopReason).to.equal('end_turn');
    expect(chips(chat)).to.have.length(0);
    const sent = lastUserRow(chat)?.querySelectorAll('[part~="resource"]');
    expect(sent, 'the three files are in the user’s message').to.have.length(3);
    // One file: exactly 5 MiB is allowed, a byte more is refused with the per-file limit.
    drop(chat, [file('f.bin', 5 * MiB), file('g.bin', 5 * MiB + 1)]);
    await until(() => attachmentError(chat), 'the size refusal shown');
    expect(attachmentError(chat)).to.equal(
      'g.bin was not attached: it is 5 MB, and the limit is 5 MB per file.',
    );
    expect(names()).to.deep.equal(['f.bin']);
  });

  it('attachments go with a message queued while the agent works, and come back when it is cancelled', async () => {
    const chat = create();
    chats.mount(chat, 700);
    await connected(chat);
    await typeAndEnter(chat, '/scenario slow 1000 100');
    await until(() => part(chat, 'working'), 'turn running', 20000);
    paste(chat, [pngFile()]);
    await until(() => chips(chat).length === 1, 'chip shown while busy');
    await typeAndEnter(chat, '/scenario prompt-blocks');
    const queued = await until(() => part(chat, 'queued'), 'queued message shown');
    expect(queued.querySelector('.file')?.textContent).to.equal('pixel.png');
    expect(chips(chat)).to.have.length(0);
    // Cancelled back into the composer: text and chip return; queued again with Enter.
    (part(chat, 'unqueue') as HTMLButtonElement).click();
    await until(() => chips(chat).length === 1, 'chip back');
    expect(input(chat).value).to.equal('/scenario prompt-blocks');
    input(chat).focus();
    await sendKeys({ press: 'Enter' });
    await until(() => part(chat, 'queued'), 'queued again');
    await sendKeys({ press: 'Escape' });
    await until(() => turnEnds(chat).length === 2, 'the cancelled turn and the queued one ended', 20000);
    expect(receivedBlocks(chat)).to.deep.equal([
      { type: 'text', text: '/scenario prompt-blocks' },
      { type: 'image', mimeType: 'image/png', data: PIXEL, uri: 'attachment:///pixel.png' },
    ]);
  });

  it("the agent's image, image URL, resource and resource link render, and nothing is fetched", async () => {
    const beacons: string[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name.includes('__silo-beacon')) beacons.push(e.name);
    });
    observer.observe({ type: 'resource', buffered: true });
    try {
      const chat = create();
      chats.mount(chat, 700);
      await connected(chat);
      const base = `${location.origin}/__silo-beacon/`;
      await sendAndWait(chat, `/scenario content-blocks ${base}`);
      const rows = Array.from(transcript(chat).shadowRoot!.querySelectorAll('[part~="message-agent"]'));
      const row = rows.at(-1)!;
      const images = Array.from(row.querySelectorAll('img'));
      expect(images.map((i) => i.getAttribute('src'))).to.deep.equal([`data:image/png;base64,${PIXEL}`]);
      const placeholders = Array.from(row.querySelectorAll('[part~="placeholder"]')).map((p) =>
        p.textContent?.trim(),
      );
      expect(placeholders).to.deep.equal([
        `Image not shown (only images sent with their data are shown): ${base}agent-image.png`,
      ]);
      const resource = row.querySelector('[part~="resource"]')!;
      expect(resource.querySelector('summary')?.textContent?.trim()).to.equal('notes.txt text/plain');
      expect(resource.querySelector('pre')?.textContent).to.equal('line one\nline two');
      const link = row.querySelector('[part~="resource-link"] a')!;
      expect(link.getAttribute('href')).to.equal(`${base}agent-link.txt`);
      expect(link.getAttribute('target')).to.equal('_blank');
      expect(link.textContent).to.equal('A linked file');
      await fetch(`/__silo-beacon/control?${Math.random()}`).catch(() => undefined);
      await until(() => beacons.some((n) => n.includes('/__silo-beacon/control')), 'control observed');
      expect(beacons.filter((n) => !n.includes('/__silo-beacon/control'))).to.deep.equal([]);
    } finally {
      observer.disconnect();
    }
  });

  it('the copy buttons take overridden strings (message and code block)', async () => {
    const chat = create();
    chat.strings = {
      transcript: {
        copy: 'Kopieren',
        copied: 'Kopiert',
        copyFailed: 'Nicht kopiert',
        copyMessage: 'Nachricht kopieren',
        copyCode: 'Code kopieren',
      },
    };
    chats.mount(chat, 700);
    await connected(chat);
    await sendAndWait(chat, '/scenario markdown');
    const t = transcript(chat).shadowRoot!;
    const message = await until(
      () =>
        Array.from(t.querySelectorAll<HTMLButtonElement>('[part~="message-agent"] button[part="copy"]')).at(
          -1,
        ),
      'message copy button',
    );
    expect(message.textContent?.trim()).to.equal('Kopieren');
    expect(message.title).to.equal('Nachricht kopieren');
    const code = await until(
      () => t.querySelector<HTMLButtonElement>('[part~="message-agent"] button[part~="copy-code"]'),
      'code copy button',
    );
    expect(code.textContent).to.equal('Kopieren');
    expect(code.title).to.equal('Code kopieren');
    code.click();
    await until(() => code.dataset.copied !== undefined, 'copy outcome shown');
    expect(code.textContent).to.equal(code.dataset.copied === 'true' ? 'Kopiert' : 'Nicht kopiert');
  });

  it('an exported session keeps its agent when imported; an export without the header still imports', async () => {
    const service = createAgentsService();
    try {
      const chat = create();
      chat.service = service;
      chats.mount(chat, 700);
      await connected(chat);
      await sendAndWait(chat, 'remember the agent');
      const jsonl = (await chat.exportJsonl())!;
      expect(JSON.parse(jsonl.split('\n')[0]!)).to.deep.equal({
        kind: 'silo_export',
        agent: 'Silo reference agent',
        sessionId: chat.session!.sessionId,
        raw: {},
      });
      const id = await service.importJsonl(jsonl);
      const old = await service.importJsonl(jsonl.slice(jsonl.indexOf('\n') + 1));
      const sessions = await service.sessions();
      expect(sessions.find((s) => s.sessionId === id)?.agent).to.equal('Silo reference agent');
      expect(sessions.find((s) => s.sessionId === old)?.agent).to.equal(undefined);
      expect(await service.transcript(id)).to.have.length(parseJsonl(jsonl).length);
      expect(parseJsonl(jsonl).some((u) => u.kind === 'silo_export')).to.equal(false);
    } finally {
      chats.unmount();
      await service.dispose();
    }
  });
});
