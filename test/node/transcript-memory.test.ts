// The transcript model's memory for streamed text (target 3 of #32, docs/performance.md): a message
// folded from thousands of short chunks is held, once another row follows it, as its characters — one
// flat string for its text and its one text part — not as ropes of every chunk with a node per join
// (two of them, when the text and the part were built side by side). Measured as V8's heap after a
// full collection (the same engine as Chromium's), in bytes per chunk kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { MessageRow } from '../../src/transcript/rows.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { normalizeAll } from '../../worker/normalize.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CHUNKS = 40_000;

/** One agent message in {@link CHUNKS} chunks of three characters (distinct strings), then a tool call. */
function updates(): AgentSessionUpdate[] {
  const raw: Record<string, unknown>[] = [];
  for (let i = 0; i < CHUNKS; i++)
    raw.push({
      sessionUpdate: 'agent_message_chunk',
      messageId: 'm1',
      content: { type: 'text', text: `${String.fromCharCode(97 + (i % 26))}b ` },
    });
  raw.push({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending' });
  return normalizeAll(raw);
}

function heapAfterCollection(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

test('a message done growing holds its text as characters, not a rope of its chunks', () => {
  const before = heapAfterCollection();
  let input: AgentSessionUpdate[] | undefined = updates();
  const model = new TranscriptModel();
  model.applyAll(input);
  input = undefined; // the updates (and their chunk strings) are the caller's, gone after the fold
  const grown = heapAfterCollection() - before;
  const message = model.rows[0] as MessageRow;
  assert.equal(model.rows.length, 2);
  assert.equal(message.text.length, CHUNKS * 3);
  assert.deepEqual(message.parts, [{ type: 'text', text: message.text }]);
  // The characters are 3 bytes a chunk (one-byte strings); a rope costs a node of about 20 bytes per
  // join and a string header per chunk (≈ 60 bytes a chunk with two ropes, ≈ 40 with one).
  const perChunk = grown / CHUNKS;
  assert.ok(perChunk < 12, `the folded message kept ${perChunk.toFixed(1)} bytes of heap per chunk`);
});
