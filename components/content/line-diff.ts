/**
 * A readable line diff of a tool call's `diff` content, built on `diff`'s `diffLines`. Bounded: past
 * `maxEditLength` edits, or for texts of more than {@link DIFF_LIMITS}`.diffLines` lines, the diff
 * degrades to "all old lines removed, all new lines added" instead of taking seconds; at most
 * `maxLines` lines and {@link DIFF_LIMITS}`.chars` characters are returned (the rest are counted), and
 * a line is cut to {@link DIFF_LIMITS}`.lineChars` characters (the cut ones counted). Loaded on demand
 * (content/code.lazy.ts), so neither it nor `diff` is in the first paint's bundle.
 * @packageDocumentation
 */
import { diffLines } from 'diff';

/** What one diff may show, and the texts it diffs line by line (longer ones degrade, see above). */
export const DIFF_LIMITS = { chars: 32_768, lineChars: 1_000, diffLines: 10_000 } as const;

/**
 * One line of a diff: added, removed or unchanged context, with its 1-based number in the old text
 * (removed and context lines) and in the new text (added and context lines). `text` is cut to
 * `DIFF_LIMITS.lineChars`; `clipped` counts the characters cut.
 */
export interface DiffLine {
  readonly op: '+' | '-' | ' ';
  readonly text: string;
  readonly oldLine?: number;
  readonly newLine?: number;
  readonly clipped?: number;
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

/** Whether `text` has more than `n` lines (reads up to its `n`-th newline). */
function moreLinesThan(text: string, n: number): boolean {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return false;
  }
  return true;
}

/** Diffs `oldText` (null or undefined: a new file) against `newText` line by line. Never throws. */
export function lineDiff(oldText: string | null | undefined, newText: string, maxLines = 400): LineDiff {
  const out: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  let total = 0;
  let oldLine = 0;
  let newLine = 0;
  let chars = 0;
  const add = (op: DiffLine['op'], line: string) => {
    total++;
    if (op !== '+') oldLine++;
    if (op !== '-') newLine++;
    if (op === '+') added++;
    if (op === '-') removed++;
    if (out.length >= maxLines || chars >= DIFF_LIMITS.chars) return;
    const text = line.length > DIFF_LIMITS.lineChars ? line.slice(0, DIFF_LIMITS.lineChars) : line;
    chars += text.length;
    out.push({
      op,
      text,
      ...(op !== '+' ? { oldLine } : {}),
      ...(op !== '-' ? { newLine } : {}),
      ...(text.length < line.length ? { clipped: line.length - text.length } : {}),
    });
  };
  const old = oldText ?? '';
  const small = !moreLinesThan(`${old}\n${newText}`, DIFF_LIMITS.diffLines);
  let changes: ReturnType<typeof diffLines> | undefined;
  try {
    changes = old === '' || !small ? undefined : diffLines(old, newText, { maxEditLength: 2000 });
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
