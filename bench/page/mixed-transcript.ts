/**
 * A synthetic long thread for the reopen benchmark: turns of a user prompt, a thought, a plan, agent
 * text streamed in chunks, an edit tool call with a diff (pending → in progress → completed), more
 * text, a usage update and Silo's own turn end — about 55 updates and 7 rows per turn. Updates come
 * out normalized exactly as Silo's worker journals them. The last turn's answer carries `marker`.
 * The words repeat (text that compresses very well); a noisy thread uses pseudo-random words.
 */
import type { AgentSessionUpdate } from '../../src/types.ts';
import { MessageIdSynthesizer, normalizeUpdate } from '../../worker/normalize.ts';

type Raw = Record<string, unknown>;

const WORDS =
  'the journal keeps every update in order so a reload paints the latest screen first while older rows stream in behind it'.split(
    ' ',
  );

/** With `noise`, sentences are made of pseudo-random words (text that does not compress well). */
let noise: (() => number) | undefined;

function sentence(i: number, words: number): string {
  let s = '';
  if (noise) {
    for (let w = 0; w < words; w++) s += `${Math.floor(noise() * 36 ** 5).toString(36)} `;
    return s;
  }
  for (let w = 0; w < words; w++) s += `${WORDS[(i * 7 + w * 3) % WORDS.length]} `;
  return s;
}

/** A small seeded generator (mulberry32), so a noisy thread is the same in every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fileText(turn: number, lines: number, changed: boolean): string {
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    const edited = changed && l % 5 === 2;
    out.push(
      `  const value${l} = compute(${turn}, ${l}); // ${edited ? 'updated to keep order' : 'unchanged line'}`,
    );
  }
  return out.join('\n');
}

/** The raw updates of one turn (Silo's own rows included, in the shape Silo records them). */
function turnUpdates(turn: number, marker: string | undefined): Raw[] {
  const out: Raw[] = [];
  const userText = marker ? 'Last question' : `Question ${turn}: ${sentence(turn, 12)}`;
  out.push({
    sessionUpdate: 'user_message_chunk',
    messageId: `silo-u-bench-${turn}`,
    content: { type: 'text', text: userText },
  });
  const thought = `thought-${turn}`;
  for (let i = 0; i < 8; i++) {
    out.push({
      sessionUpdate: 'agent_thought_chunk',
      messageId: thought,
      content: { type: 'text', text: sentence(turn + i, 6) },
    });
  }
  out.push({
    sessionUpdate: 'plan',
    entries: [
      { content: `Read the code for step ${turn}`, priority: 'high', status: 'completed' },
      { content: 'Edit the module', priority: 'medium', status: 'in_progress' },
      { content: 'Run the tests', priority: 'low', status: 'pending' },
      { content: 'Summarize', priority: 'low', status: 'pending' },
    ],
  });
  const first = `answer-${turn}-a`;
  for (let i = 0; i < 20; i++) {
    out.push({
      sessionUpdate: 'agent_message_chunk',
      messageId: first,
      content: { type: 'text', text: sentence(turn * 3 + i, 7) },
    });
  }
  const toolCallId = `tool-${turn}`;
  const path = `/home/dev/project/src/module-${turn % 97}.ts`;
  out.push({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `Edit module-${turn % 97}.ts`,
    kind: 'edit',
    status: 'pending',
    locations: [{ path, line: 12 }],
    rawInput: { path },
  });
  out.push({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  out.push({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content: [{ type: 'diff', path, oldText: fileText(turn, 24, false), newText: fileText(turn, 24, true) }],
  });
  const second = `answer-${turn}-b`;
  for (let i = 0; i < 19; i++) {
    out.push({
      sessionUpdate: 'agent_message_chunk',
      messageId: second,
      content: { type: 'text', text: sentence(turn * 5 + i, 7) },
    });
  }
  out.push({
    sessionUpdate: 'agent_message_chunk',
    messageId: second,
    content: { type: 'text', text: marker ? `\n\n${marker}` : 'Done.' },
  });
  out.push({
    sessionUpdate: 'usage_update',
    used: 1000 + turn * 40,
    size: 200000,
    cost: { amount: turn * 0.01, currency: 'USD' },
  });
  out.push({ sessionUpdate: 'turn_end', stopReason: 'end_turn' });
  return out;
}

/**
 * Yields exactly `count` normalized updates in journal order (seq 0…count−1), in batches. The last
 * turn (the one carrying `marker`) is always complete: earlier turns are cut to make room for it.
 */
export function* mixedTranscript(
  count: number,
  marker: string,
  batchSize = 5000,
  noisy = false,
): Generator<AgentSessionUpdate[]> {
  noise = noisy ? seeded(32) : undefined;
  const ids = new MessageIdSynthesizer();
  const last = turnUpdates(-1, marker);
  let seq = 0;
  let batch: AgentSessionUpdate[] = [];
  const emit = (raw: Raw): AgentSessionUpdate => {
    if (raw.sessionUpdate === 'turn_end') {
      ids.reset();
      return { kind: 'turn_end', turnEnd: { stopReason: String(raw.stopReason) }, raw, seq: seq++ };
    }
    if (raw.sessionUpdate === 'user_message_chunk') {
      const u = normalizeUpdate(raw, seq++, ids);
      return { ...u, timestamp: new Date(Date.UTC(2026, 0, 1) + u.seq! * 1000).toISOString() };
    }
    return normalizeUpdate(raw, seq++, ids);
  };
  for (let turn = 0; seq < count - last.length; turn++) {
    for (const raw of turnUpdates(turn, undefined)) {
      if (seq >= count - last.length) break;
      batch.push(emit(raw));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  for (const raw of last) batch.push(emit(raw));
  yield batch;
}
