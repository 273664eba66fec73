// The transcript model's memory for streamed text (target 3 of #32, docs/performance.md): text folded
// from thousands of short chunks — a message, a command's terminal output — is held, once another row
// follows it, as its characters — one flat string (for a message of one text part, one string for its
// text and its part) — not as ropes of every chunk with a node per join. Measured as V8's heap after a
// full collection (the engine of Chromium and Node), in bytes per chunk kept, for one stream and for two
// interleaved; a long text that keeps growing is not copied at every row pushed. And find's copy of the
// rows' searchable text (components/transcript/find) goes when the find ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MatchCounts } from '../../components/transcript/find/count.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { MessageRow, ToolCallRow } from '../../src/transcript/rows.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { normalizeAll } from '../../worker/normalize.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CHUNKS = 40_000;
/** Three characters, a distinct string each time. */
const piece = (i: number) => `${String.fromCharCode(97 + (i % 26))}b `;
/** A chunk of agent message `messageId`. */
const chunkOf = (messageId: string, text: string) => ({
  sessionUpdate: 'agent_message_chunk',
  messageId,
  content: { type: 'text', text },
});
/** Output of the terminal of tool call `id`, streamed as claude-agent-acp and codex-acp send it. */
const delta = (id: string, data: string) => ({
  sessionUpdate: 'tool_call_update',
  toolCallId: id,
  _meta: { terminal_output_delta: { terminal_id: id, data } },
});
const nextRow = { sessionUpdate: 'plan', entries: [{ content: 'Next', priority: 'low', status: 'pending' }] };

function heapAfterCollection(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Folds `make()`'s updates (then drops them) and returns the model and its heap per chunk. */
function fold(make: () => AgentSessionUpdate[]): { model: TranscriptModel; perChunk: number } {
  const before = heapAfterCollection();
  let input: AgentSessionUpdate[] | undefined = make();
  const model = new TranscriptModel();
  model.applyAll(input);
  input = undefined; // the updates (and their chunk strings) are the caller's, gone after the fold
  return { model, perChunk: (heapAfterCollection() - before) / CHUNKS };
}

// The characters are 3 bytes a chunk (one-byte strings); a rope costs a node of about 20 bytes per
// join and a string header per chunk (≈ 60 bytes a chunk with two ropes, ≈ 40 with one).
const LIMIT = 12;

test('a message done growing holds its text as characters, not a rope of its chunks', () => {
  const { model, perChunk } = fold(() => {
    const raw: Record<string, unknown>[] = [];
    for (let i = 0; i < CHUNKS; i++) raw.push(chunkOf('m1', piece(i)));
    return normalizeAll([...raw, nextRow]);
  });
  const message = model.rows[0] as MessageRow;
  assert.equal(model.rows.length, 2);
  assert.equal(message.text.length, CHUNKS * 3);
  assert.deepEqual(message.parts, [{ type: 'text', text: message.text }]);
  assert.ok(perChunk < LIMIT, `the folded message kept ${perChunk.toFixed(1)} bytes of heap per chunk`);
});

test("a command's output streamed in deltas is held as characters once the next row follows", () => {
  const { model, perChunk } = fold(() => {
    const raw: Record<string, unknown>[] = [
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'npm test', kind: 'execute', status: 'pending' },
    ];
    for (let i = 0; i < CHUNKS; i++) raw.push(delta('t1', piece(i)));
    return normalizeAll([...raw, nextRow]);
  });
  const card = model.rows[0] as ToolCallRow;
  assert.equal(model.rows.length, 2);
  assert.equal(card.toolCall.terminals?.[0]?.output.length, CHUNKS * 3);
  assert.ok(perChunk < LIMIT, `the folded output kept ${perChunk.toFixed(1)} bytes of heap per chunk`);
});

test('two streams interleaved (parallel commands) are both held as characters once a row follows', () => {
  const { model, perChunk } = fold(() => {
    const raw: Record<string, unknown>[] = ['t1', 't2'].map((toolCallId) => ({
      sessionUpdate: 'tool_call',
      toolCallId,
      title: `npm test ${toolCallId}`,
      kind: 'execute',
      status: 'pending',
    }));
    for (let i = 0; i < CHUNKS; i++) {
      const id = i % 2 ? 't2' : 't1'; // the first card is no longer the last row while it streams
      raw.push(delta(id, piece(i)));
    }
    return normalizeAll([...raw, nextRow]);
  });
  assert.equal(model.rows.length, 3);
  for (const card of model.rows.slice(0, 2) as ToolCallRow[])
    assert.equal(card.toolCall.terminals?.[0]?.output.length, (CHUNKS / 2) * 3);
  assert.ok(perChunk < LIMIT, `the two outputs kept ${perChunk.toFixed(1)} bytes of heap per chunk`);
});

test('a message that goes on after a card was announced is held as characters once a row follows', () => {
  const { model, perChunk } = fold(() => {
    const raw: Record<string, unknown>[] = [
      chunkOf('m1', 'Running '),
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'npm test', kind: 'execute', status: 'pending' },
    ];
    for (let i = 0; i < CHUNKS; i++) raw.push(chunkOf('m1', piece(i)));
    return normalizeAll([...raw, nextRow]);
  });
  assert.equal(model.rows.length, 3);
  assert.equal((model.rows[0] as MessageRow).text.length, 'Running '.length + CHUNKS * 3);
  assert.ok(perChunk < LIMIT, `the message kept ${perChunk.toFixed(1)} bytes of heap per chunk`);
});

test("a subagent's answer streamed in chunks (an ACP child session) is held as characters", () => {
  const { model, perChunk } = fold(() => {
    const raw: Record<string, unknown>[] = [
      { sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Explore', state: { state: 'running' } },
    ];
    for (let i = 0; i < CHUNKS; i++)
      raw.push({
        sessionUpdate: 'session_message_chunk',
        messageId: 'reply',
        senderSessionId: 'child',
        recipientSessionId: 'parent',
        content: { type: 'text', text: piece(i) },
      });
    return normalizeAll(raw); // no row follows: the answer is flattened as its chunks come due
  });
  const card = model.rows[0] as ToolCallRow;
  assert.equal(model.rows.length, 1);
  assert.equal(card.subagent?.reply?.length, CHUNKS * 3);
  assert.ok(perChunk < LIMIT, `the answer kept ${perChunk.toFixed(1)} bytes of heap per chunk`);
});

test('a long output that keeps growing while rows are pushed is not copied at every push', () => {
  const raw: Record<string, unknown>[] = [
    {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'dev server',
      kind: 'execute',
      status: 'in_progress',
    },
    delta('t1', 'x'.repeat(2_000_000)),
  ];
  let appended = 0;
  for (let i = 0; i < 2000; i++) {
    const line = `line ${i}\n`;
    appended += line.length;
    raw.push(delta('t1', line), chunkOf(`m${i}`, `Message ${i}`)); // each message is a row pushed
  }
  const updates = normalizeAll(raw);
  // Flattening copies the whole text: 2 MB copied at each of 2,000 pushes is 4 GB of garbage, which
  // V8 collects about 260 times; the output is due again only when its chunks would weigh as much.
  const profiler = new GCProfiler();
  profiler.start();
  const model = new TranscriptModel();
  model.applyAll(updates);
  const collections = profiler.stop().statistics.length;
  assert.equal(model.rows.length, 2001);
  assert.equal((model.rows[0] as ToolCallRow).toolCall.terminals?.[0]?.output.length, 2_000_000 + appended);
  assert.ok(collections < 40, `${collections} garbage collections while folding`);
});

test("a find's copy of the rows' text is let go when the find ends", async () => {
  const model = new TranscriptModel();
  const sentence = 'The Journal keeps Every update In order. '.repeat(50); // 2,050 chars, folded a copy
  model.applyAll(
    normalizeAll(
      Array.from({ length: 2000 }, (_, i) => ({
        sessionUpdate: 'agent_message_chunk',
        messageId: `m${i}`,
        content: { type: 'text', text: `${sentence}${i}` },
      })),
    ),
  );
  const textBytes = model.rows.reduce((n, r) => n + (r.type === 'message' ? r.text.length : 0), 0);
  const counts = new MatchCounts();
  /** One whole pass over the rows for the current query. */
  const readAll = () =>
    counts.pass(
      () => model.rows,
      0,
      () => true,
      () => {},
    );
  const before = heapAfterCollection();
  counts.reset('every update');
  assert.equal(await readAll(), true);
  assert.equal(counts.total, 2000 * 50);
  const searching = heapAfterCollection() - before;
  counts.reset('in order'); // another query of the same find reads the kept texts
  await readAll();
  assert.equal(counts.total, 2000 * 50);
  assert.ok(searching > textBytes * 0.9, `the find held ${searching} bytes for ${textBytes} of text`);
  counts.end();
  const ended = heapAfterCollection() - before;
  assert.ok(ended < textBytes * 0.1, `${ended} bytes still held after the find ended`);
});
