// The streaming JSONL export (`service.exportJsonlStream`): the worker reads the journal as the page
// reads the stream, which it transfers to the page; against the browser's real IndexedDB and worker.
import { expect } from 'chai';
import { utf8Blob } from '../../../components/chat/export.ts';
import { parseJsonl, toJsonl } from '../../../src/export.ts';
import { relayExport } from '../../../src/export-relay.ts';
import {
  type AgentSessionUpdate,
  type AgentsService,
  createAgentsService,
  SiloError,
} from '../../../src/index.ts';
import { exportJsonlStream } from '../../../worker/export-stream.ts';
import { type Journal, journalOpener } from '../../../worker/journal.ts';

const SEGMENTS = 20;
const PER_SEGMENT = 1000;
const INFO = { agent: 'Test agent', title: 'Streamed “export”' };

const update = (seq: number): AgentSessionUpdate => ({
  kind: 'agent_message_chunk',
  seq,
  messageId: `m${Math.floor(seq / 50)}`,
  text: `line ${seq}\nü “${seq}” 😀`,
  raw: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `line ${seq}` } },
});

/** A session journaled with Silo's journal module, one segment record per burst of `perSegment`. */
async function journalOf(journal: Journal, sessionId: string, segments = SEGMENTS, perSegment = PER_SEGMENT) {
  await journal.upsertSession(sessionId, {
    agent: INFO.agent,
    userTitle: INFO.title,
    lastOutcome: 'journal-only',
  });
  const writer = journal.writer(sessionId, 0);
  const updates: AgentSessionUpdate[] = [];
  for (let s = 0; s < segments; s++) {
    const burst = Array.from({ length: perSegment }, (_, i) => update(s * perSegment + i));
    writer.append(burst);
    await writer.flushed();
    updates.push(...burst);
  }
  journal.dropWriter(sessionId);
  return updates;
}

/** Reads every chunk of `stream`, or as many as come before it errors (then `error`). */
async function readAll(reader: ReadableStreamDefaultReader<string>) {
  const chunks: string[] = [];
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error: error as SiloError };
  }
}

const lineCount = (chunks: readonly string[]) => chunks.join('').split('\n').length - 1;

describe('streaming JSONL export (real worker and IndexedDB)', () => {
  let databaseName: string;
  let journal: Journal;
  let service: AgentsService;

  beforeEach(async () => {
    databaseName = `silo-export-${crypto.randomUUID()}`;
    journal = await journalOpener(databaseName)();
    service = createAgentsService({ databaseName });
  });
  afterEach(async () => {
    await service.dispose();
    journal.close();
    indexedDB.deleteDatabase(databaseName);
  });

  it('streams, in whole-line chunks after the header, exactly the text of exportJsonl and toJsonl', async () => {
    const updates = await journalOf(journal, 's');
    const { chunks, error } = await readAll((await service.exportJsonlStream('s')).getReader());
    expect(error).to.equal(undefined);
    const expected = toJsonl(updates, { agent: INFO.agent, sessionId: 's', title: INFO.title });
    expect(chunks.join('')).to.equal(expected);
    expect(await service.exportJsonl('s')).to.equal(expected);
    // Saved as <silo-chat> saves it: its UTF-8 bytes, as TextEncoder makes them.
    const bytes = new Uint8Array(await (await utf8Blob(await service.exportJsonlStream('s'))).arrayBuffer());
    const encoded = new TextEncoder().encode(expected);
    expect(bytes.length).to.equal(encoded.length);
    expect(
      bytes.findIndex((b, i) => b !== encoded[i]),
      'the first byte that differs',
    ).to.equal(-1);
    expect(chunks[0], 'the header alone comes first').to.equal(expected.slice(0, expected.indexOf('\n') + 1));
    expect(chunks.length, 'several chunks of updates').to.be.greaterThan(3);
    for (const c of chunks) expect(c.endsWith('\n'), 'a chunk is whole lines').to.equal(true);
  });

  it('the page reads the first chunks before the worker has read the journal: deleted then, the stream errors session-not-found', async () => {
    // Longer than what the worker reads ahead (a chunk queued, one crossing, one being read).
    const total = 3 * SEGMENTS * PER_SEGMENT;
    await journalOf(journal, 's', 3 * SEGMENTS);
    const reader = (await service.exportJsonlStream('s')).getReader();
    const first = [(await reader.read()).value!, (await reader.read()).value!];
    expect(lineCount(first)).to.be.greaterThan(1);
    // Had the worker read the journal whole before the first chunk, the rest would still come.
    await service.clear('s');
    const rest = await readAll(reader);
    expect(rest.error).to.be.instanceOf(SiloError);
    expect(rest.error?.code).to.equal('session-not-found');
    expect((rest.error!.data as { updates: number }).updates).to.be.lessThan(total);
    expect(lineCount([...first, ...rest.chunks]) - 1).to.be.lessThan(total);
  });

  it('a session the journal does not hold rejects with session-not-found, the stream and the string alike', async () => {
    for (const call of [() => service.exportJsonlStream('nope'), () => service.exportJsonl('nope')]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(SiloError);
      expect((error as SiloError).code).to.equal('session-not-found');
    }
  });

  it('round trip: the stream saved as a Blob imports elsewhere as the same updates, title and agent', async () => {
    const updates = await journalOf(journal, 's', 3, 700);
    const stream = await service.exportJsonlStream('s');
    const blob = await new Response(stream.pipeThrough(new TextEncoderStream())).blob();
    const other = createAgentsService({ databaseName: `${databaseName}-other` });
    try {
      const id = await other.importJsonl(await blob.text());
      expect(await other.transcript(id)).to.deep.equal(updates);
      const [summary] = await other.sessions();
      expect(summary).to.include({ sessionId: id, agent: INFO.agent, title: INFO.title });
      // Exported from there and imported here: the session it came from.
      expect(await service.importJsonl(await other.exportJsonl(id))).to.equal('s');
      expect(parseJsonl(await other.exportJsonl(id))).to.deep.equal(updates);
    } finally {
      await other.dispose();
      indexedDB.deleteDatabase(`${databaseName}-other`);
    }
  });

  it('errors closed when the worker stops mid-way, and a cancelled stream leaves the service working', async () => {
    await journalOf(journal, 's');
    const cancelled = await service.exportJsonlStream('s');
    const reader = cancelled.getReader();
    await reader.read();
    await reader.cancel();
    expect(parseJsonl(await service.exportJsonl('s'))).to.have.length(SEGMENTS * PER_SEGMENT);
    const stopped = (await service.exportJsonlStream('s')).getReader();
    await stopped.read();
    await service.dispose();
    const rest = await readAll(stopped);
    expect(rest.error?.code).to.equal('closed');
  });

  it('an IndexedDB read failing mid-way errors the stream internal, saying how many updates came before', async () => {
    await journalOf(journal, 's', 6, 100);
    const stream = relayExport(await exportJsonlStream(async () => journal, 's', 100), new Set());
    const reader = stream.getReader();
    const first = [(await reader.read()).value!, (await reader.read()).value!];
    expect(lineCount(first)).to.equal(101);
    journal.close();
    const rest = await readAll(reader);
    expect(rest.error).to.be.instanceOf(SiloError);
    expect(rest.error?.code).to.equal('internal');
    expect(rest.error?.message).to.match(/journal could not be read/);
    const sent = (rest.error!.data as { updates: number }).updates;
    expect(sent).to.equal(lineCount([...first, ...rest.chunks]) - 1);
    expect(sent).to.be.lessThan(600);
    journal = await journalOpener(databaseName)();
  });
});
