/**
 * Keyboard navigation in `<silo-transcript>`'s log: ArrowUp/ArrowDown between turns (user messages),
 * Alt+ArrowUp/Alt+ArrowDown between pending prompts, Home/End to the first/last row. Pure: it only
 * picks the row; the element scrolls and focuses it.
 * @packageDocumentation
 */
import type { TranscriptRow } from '../src/index.ts';

/**
 * The row a key press in the log moves to: its index, `-1` for a handled key with nowhere to go, or
 * `undefined` for a key this navigation does not handle (Ctrl, Meta or Shift held; other keys).
 * `from` is the index of the row focus is in (`-1`: the log itself).
 */
export function navigationTarget(
  e: KeyboardEvent,
  rows: readonly TranscriptRow[],
  from: number,
  isPending: (row: TranscriptRow) => boolean,
): number | undefined {
  if (e.ctrlKey || e.metaKey || e.shiftKey) return undefined;
  const isTurn = (r: TranscriptRow) => r.type === 'message' && r.role === 'user';
  const match = e.altKey ? isPending : isTurn;
  if (e.key === 'ArrowDown') {
    for (let i = from + 1; i < rows.length; i++) if (match(rows[i]!)) return i;
    return -1;
  }
  if (e.key === 'ArrowUp') {
    for (let i = (from < 0 ? rows.length : from) - 1; i >= 0; i--) if (match(rows[i]!)) return i;
    return -1;
  }
  if (e.key === 'Home' && !e.altKey) return 0;
  if (e.key === 'End' && !e.altKey) return rows.length - 1;
  return undefined;
}
