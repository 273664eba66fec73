// The journal module on its own, in the page, against the browser's real IndexedDB: what a failed
// write leaves behind. (Quota exceeded, the failure a user meets: test/e2e/quota.test.ts.)
import { expect } from 'chai';
import type { AgentSessionUpdate, SiloError } from '../../../src/index.ts';
import { type Journal, journalOpener } from '../../../worker/journal.ts';

const chunk = (seq: number, raw: Record<string, unknown> = {}): AgentSessionUpdate => ({
  kind: 'agent_message_chunk',
  seq,
  text: `chunk ${seq}`,
  raw: { sessionUpdate: 'agent_message_chunk', ...raw },
});

describe('journal writes (real IndexedDB)', () => {
  let journal: Journal;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: PromiseRejectionEvent) => unhandled.push(e.reason);

  beforeEach(async () => {
    journal = await journalOpener(`silo-journal-test-${crypto.randomUUID()}`)();
    unhandled.length = 0;
    window.addEventListener('unhandledrejection', onUnhandled);
  });
  afterEach(() => {
    window.removeEventListener('unhandledrejection', onUnhandled);
    const name = journal.db.name;
    journal.close();
    indexedDB.deleteDatabase(name);
  });

  it('a batch IndexedDB refuses part-way keeps none of it: journal-write, and the journal is the prefix the writer reports', async () => {
    await journal.upsertSession('s', {});
    const writer = journal.writer('s', 0);
    const failures: SiloError[] = [];
    writer.onFailure = (error) => failures.push(error);
    writer.append([chunk(0), chunk(1), chunk(2)]);
    await writer.flushed();
    // One burst of 1001 updates: two segments in one transaction, the first fine, the second holding
    // an update that cannot be cloned (its put throws before any request is made).
    const burst = Array.from({ length: 1001 }, (_, i) => chunk(3 + i));
    burst[1000] = chunk(1003, { notCloneable: () => 0 });
    writer.append(burst);
    const refused = await writer.flushed().then(
      () => undefined,
      (e: SiloError) => e,
    );
    expect(refused?.code).to.equal('journal-write');
    expect(refused?.message).to.include('nothing after update 2 was kept');
    expect(failures.map((f) => f.code)).to.deep.equal(['journal-write']);
    // Later appends are refused with the same error; nothing is written after a failure.
    writer.append([chunk(1004)]);
    expect((await writer.flushed().catch((e: SiloError) => e))?.message).to.equal(refused?.message);
    const kept = await journal.read('s');
    expect(kept.map((u) => u.text)).to.deep.equal(['chunk 0', 'chunk 1', 'chunk 2']);
    expect((await journal.session('s'))?.nextSeq).to.equal(3);
    expect(unhandled, 'no rejection left unhandled').to.deep.equal([]);
  });
});
