/**
 * A user's prompt read back from its transcript row, to send it again (Retry) or to edit it.
 * @packageDocumentation
 */
import type { AgentContentBlock } from '../types.ts';
import type { MessageRow, TranscriptRow } from './rows.ts';

/**
 * The content blocks of a user's prompt, from its row: each part as a block (text parts as text
 * blocks). For a prompt Silo recorded, exactly the blocks that were sent (the model keeps each of
 * its blocks a part of its own).
 */
export function promptBlocks(row: MessageRow): AgentContentBlock[] {
  return row.parts.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : p.block));
}

/** The last user message among `rows` that holds anything (text or a block), if any. */
export function lastUserMessage(rows: readonly TranscriptRow[]): MessageRow | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (
      r.type === 'message' &&
      r.role === 'user' &&
      (r.text.trim() || r.parts.some((p) => p.type === 'block'))
    )
      return r;
  }
  return undefined;
}
