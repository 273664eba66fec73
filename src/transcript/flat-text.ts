/**
 * A message's text (and a terminal's output) is built chunk by chunk (`text + chunk`, thousands of
 * times for a long answer). V8 and SpiderMonkey keep such a string as a rope: a tree with a node for
 * every join over every piece, a few dozen bytes of overhead per chunk on top of its characters — for
 * a transcript of short chunks more memory than the text itself (docs/performance.md, what bounds
 * #3). Both engines flatten a rope in place, into one run of characters, the first time a character
 * is read from it; its pieces and nodes then become garbage.
 * @packageDocumentation
 */

import type { TranscriptRow } from './rows.ts';

/**
 * Flattens `text` in place (reads one character of it): the same string, equal in every way, held as
 * one run of characters from then on. Linear in its length, once (a flat string costs nothing); call
 * it on text that is done growing, never per chunk. Returns the code of the character read (0 for
 * ''), which the caller must keep, in a field of an object that lives on: a read whose value goes
 * unused is dead code that optimizing compilers drop (Chromium 156's does, and the rope stays), and
 * minifiers drop variables that nothing reads.
 */
export function flatText(text: string): number {
  return text.charCodeAt(0) | 0;
}

/**
 * Flattens the text a row built chunk by chunk once it is done growing ({@link flatText}): a
 * message's `text` and text parts (the same string when it has one), a tool card's terminal output.
 * The row is unchanged in value and identity; returns the codes read, for the caller to keep (see
 * {@link flatText}).
 */
export function settleRowText(row: TranscriptRow): number {
  let read = 0;
  if (row.type === 'message') {
    read = flatText(row.text);
    if (row.parts.length > 1) for (const p of row.parts) if (p.type === 'text') read |= flatText(p.text);
  } else if (row.type === 'tool') {
    for (const t of row.toolCall.terminals ?? []) read |= flatText(t.output);
  }
  return read;
}

/** About what a rope keeps per chunk joined in V8: a node, and the chunk's own string header. */
export const ROPE_BYTES_PER_CHUNK = 32;

/** The length of the text of a row that {@link settleRowText} flattens. */
export function streamedLength(row: TranscriptRow): number {
  if (row.type === 'message') return row.text.length;
  let length = 0;
  if (row.type === 'tool') for (const t of row.toolCall.terminals ?? []) length += t.output.length;
  return length;
}

/**
 * Whether a row that took `chunks` chunks since it was last flattened is due to be flattened again,
 * its streamed text being `length` long: once the rope's joins would weigh about as much as the
 * characters. Flattening copies the whole text, so a row that keeps growing while rows are pushed
 * (a long command's output beside the conversation) is copied about {@link ROPE_BYTES_PER_CHUNK}
 * bytes a chunk in all, not once per push, and keeps at most about its text again in joins.
 */
export function flattenDue(chunks: number, length: number): boolean {
  return chunks * ROPE_BYTES_PER_CHUNK >= length;
}

/**
 * Chunks joined into streamed texts since each was last flattened, by text (a row's index, a card's
 * field): says when a text is due to be flattened again ({@link flattenDue}).
 */
export class JoinCounts<K> {
  readonly #chunks = new Map<K, number>();

  /**
   * Counts one more chunk joined into text `id`, now `length` long. True when the text is due: its
   * count starts again then (the caller flattens it, at once or at its next push).
   */
  joined(id: K, length: number): boolean {
    const chunks = (this.#chunks.get(id) ?? 0) + 1;
    if (!flattenDue(chunks, length)) {
      this.#chunks.set(id, chunks);
      return false;
    }
    this.#chunks.delete(id);
    return true;
  }

  /** Forgets text `id`'s count (flattened, or replaced whole). */
  forget(id: K): void {
    this.#chunks.delete(id);
  }
}
