// <silo-chat>'s Export menu, clicked as a user clicks it, against the real bridge and reference agent:
// Export JSONL saves the session's journal (streamed into a Blob: `exportJsonlStream`) as
// `<sessionId>.jsonl`, the same text `exportJsonl()` gives, which reads back as the session; Export
// Markdown saves the transcript as `<sessionId>.md`. The file is caught where the chat saves it: the
// temporary link's click (the only stand-in; the Blob and its URL are the browser's own).
import { expect } from 'chai';
import '../../../components/index.ts';
import type { SiloChat } from '../../../components/chat/silo-chat.ts';
import { readJsonlExport } from '../../../src/jsonl.ts';
import { until } from '../../support/until.ts';
import { chatSuite, connected, part, sendAndWait } from '../fixtures/chat.ts';

/** A file the page saved through a link: its name, type and text. */
interface Saved {
  name: string;
  type: string;
  text: string;
}

/**
 * Runs `act`, catching the files saved meanwhile through a link's `click()` (`download` set): each
 * link's Blob URL is read as the click happens, before the page revokes it.
 */
async function savedBy(act: () => void, count = 1): Promise<Saved[]> {
  const reads: Promise<Saved>[] = [];
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    if (!this.download) return click.call(this);
    const name = this.download;
    reads.push(
      fetch(this.href)
        .then((r) => r.blob())
        .then(async (b) => ({ name, type: b.type, text: await b.text() })),
    );
  };
  try {
    act();
    await until(() => reads.length >= count, `${count} file(s) saved`, 20000);
    return await Promise.all(reads);
  } finally {
    HTMLAnchorElement.prototype.click = click;
  }
}

/** Opens the header's Export menu and clicks its option `index` (0: JSONL, 1: Markdown). */
function chooseExport(chat: SiloChat, index: number): void {
  part(chat, 'export')!.click();
  const options = part(chat, 'export-options')!.querySelectorAll('button');
  options[index]!.click();
}

describe("<silo-chat>'s Export menu", function () {
  this.timeout(90000);
  const chats = chatSuite('silo-export');

  it('Export JSONL saves the journal as <sessionId>.jsonl; Export Markdown the transcript as <sessionId>.md', async () => {
    const chat = chats.create();
    chats.mount(chat, 600);
    await connected(chat);
    await sendAndWait(chat, 'words to keep in the export');
    const id = chat.session!.sessionId;
    await until(() => part(chat, 'export')?.tagName === 'SUMMARY', 'export menu enabled');

    const [jsonl] = await savedBy(() => chooseExport(chat, 0));
    expect(jsonl!.name).to.equal(`${id}.jsonl`);
    expect(jsonl!.type).to.equal('application/jsonl');
    expect(jsonl!.text).to.equal(await chat.exportJsonl());
    const { updates, info } = readJsonlExport(jsonl!.text);
    expect(info.sessionId).to.equal(id);
    const journal = await chat.session!.transcript();
    expect(updates.map((u) => u.seq)).to.deep.equal(journal.map((u) => u.seq));
    expect(jsonl!.text).to.include('words to keep in the export');
    expect((part(chat, 'export')!.closest('details') as HTMLDetailsElement).open, 'menu closed').to.equal(
      false,
    );

    const [md] = await savedBy(() => chooseExport(chat, 1));
    expect(md!.name).to.equal(`${id}.md`);
    expect(md!.type).to.equal('text/markdown');
    expect(md!.text).to.equal(await chat.exportMarkdown());
    expect(md!.text).to.include('words to keep in the export');
  });
});
