/**
 * A readable line diff of a tool call's `diff` content, built on `diff`'s `diffLines`. Bounded: past
 * `maxEditLength` edits the diff degrades to "all old lines removed, all new lines added" instead of
 * taking seconds, and at most `maxLines` lines are returned (the rest are counted). Loaded on demand
 * (content/code.lazy.ts), so neither it nor `diff` is in the first paint's bundle.
 * @packageDocumentation
 */
import { diffLines } from 'diff';

/**
 * One line of a diff: added, removed or unchanged context, with its 1-based number in the old text
 * (removed and context lines) and in the new text (added and context lines).
 */
export interface DiffLine {
  readonly op: '+' | '-' | ' ';
  readonly text: string;
  readonly oldLine?: number;
  readonly newLine?: number;
}

/** A bounded line diff. `hidden` counts the lines beyond `maxLines`. */
export interface LineDiff {
  readonly lines: readonly DiffLine[];
  readonly hidden: number;
  readonly added: number;
  readonly removed: number;
}

function split(s: string): string[] {
  if (s === '') return [];
  const lines = s.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Diffs `oldText` (null or undefined: a new file) against `newText` line by line. Never throws. */
export function lineDiff(oldText: string | null | undefined, newText: string, maxLines = 400): LineDiff {
  const out: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  let total = 0;
  let oldLine = 0;
  let newLine = 0;
  const add = (op: DiffLine['op'], text: string) => {
    total++;
    if (op !== '+') oldLine++;
    if (op !== '-') newLine++;
    if (op === '+') added++;
    if (op === '-') removed++;
    if (out.length < maxLines)
      out.push({
        op,
        text,
        ...(op !== '+' ? { oldLine } : {}),
        ...(op !== '-' ? { newLine } : {}),
      });
  };
  const old = oldText ?? '';
  let changes: ReturnType<typeof diffLines> | undefined;
  try {
    changes = old === '' ? undefined : diffLines(old, newText, { maxEditLength: 2000 });
  } catch {
    changes = undefined;
  }
  if (changes) {
    for (const c of changes) for (const l of split(c.value)) add(c.added ? '+' : c.removed ? '-' : ' ', l);
  } else {
    for (const l of split(old)) add('-', l);
    for (const l of split(newText)) add('+', l);
  }
  return { lines: out, hidden: total - out.length, added, removed };
}
