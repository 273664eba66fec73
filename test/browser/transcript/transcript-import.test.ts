// Importing JSONL files Silo did not write, in a real browser with the real worker and IndexedDB:
// hand-written and foreign files (test/support/jsonl-files.ts) go into the journal completely, or are
// refused with a coded error naming the line and leave no session behind; the offline viewer
// (`<silo-transcript>.file`) shows two exports put end to end whole; a 100 MB file imports completely.
import { expect } from 'chai';
import '../../../components/index.ts';
import { type AgentsService, createAgentsService, type SiloError } from '../../../src/index.ts';
import { bigJsonl, COMPLETE, HAND_WRITTEN_KINDS, REFUSED } from '../../support/jsonl-files.ts';
import { until } from '../../support/until.ts';
import { mount } from '../fixtures/dom.ts';

describe('importing JSONL files Silo did not write', function () {
  this.timeout(120_000);
  let service: AgentsService;
  let databaseName: string;
  beforeEach(() => {
    databaseName = `silo-import-${crypto.randomUUID()}`;
    service = createAgentsService({ databaseName });
  });
  afterEach(async () => {
    await service.dispose();
    indexedDB.deleteDatabase(databaseName);
  });

  it('each file that reads imports every update, in order', async () => {
    for (const file of COMPLETE) {
      const id = await service.importJsonl(file.text);
      const journal = await service.transcript(id);
      const kinds = Array.from({ length: file.copies }, () => HAND_WRITTEN_KINDS).flat();
      expect(
        journal.map((u) => u.kind),
        file.name,
      ).to.deep.equal(kinds);
      expect(
        journal.map((u) => u.seq),
        file.name,
      ).to.deep.equal(kinds.map((_, i) => i));
    }
  });

  it('a file that does not read is refused, coded and naming its line, and leaves no session', async () => {
    for (const file of REFUSED) {
      const error = await service.importJsonl(file.text).then(
        () => undefined,
        (e: SiloError) => e,
      );
      expect(error?.code, file.name).to.equal('invalid-params');
      expect(error?.data, file.name).to.deep.equal({ line: file.line });
      expect(error?.message, file.name).to.match(file.message);
    }
    expect(await service.sessions()).to.deep.equal([]);
  });

  it('the offline viewer shows two exports put end to end whole', async () => {
    const file = COMPLETE.find((f) => f.copies === 2)!;
    const el = document.createElement('silo-transcript');
    const cleanup = mount(el);
    try {
      el.file = new File([file.text], 'two.jsonl');
      await el.updateComplete;
      await until(() => el.model.rows.some((r) => r.type === 'turn-end'), 'the file is shown');
      const messages = el.model.rows
        .filter((r) => r.type === 'message')
        .map((r) => (r as { text: string }).text);
      expect(messages).to.deep.equal(['Hello', 'Hi there. Bye.', 'Hello', 'Hi there. Bye.']);
      expect(el.model.rows.filter((r) => r.type === 'turn-end')).to.have.length(2);
    } finally {
      cleanup();
    }
  });

  it('a 100 MB file imports completely', async () => {
    const { text, count } = bigJsonl(100);
    const id = await service.importJsonl(text);
    const [last] = (await service.transcriptTail(id, 1)).slice(-1);
    expect(last?.seq, 'the last update is the last line').to.equal(count - 1);
    const lastLine = JSON.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1)) as { text: string };
    expect(last?.text).to.equal(lastLine.text);
    const [summary] = await service.sessions();
    expect(summary?.sessionId).to.equal(id);
  });
});
