/**
 * Hostile agent text of the shapes that used to brick a transcript (issue #25 §3): what the
 * reference agent's `huge-text` scenario sends, and what the reliability tests compare the journal
 * with. Free of Node imports, so a page (the tests) can import it.
 */

/** The shapes `/scenario huge-text` sends. */
export const HUGE_TEXT_SHAPES = ['line', 'nested-list', 'emphasis', 'quotes', 'items', 'html'] as const;
export type HugeTextShape = (typeof HUGE_TEXT_SHAPES)[number];

/** What each shape is, and its default size. */
export const HUGE_TEXT_DEFAULTS: Readonly<Record<HugeTextShape, { size: number; what: string }>> = {
  line: { size: 2 * 1024 * 1024, what: 'one line of `x`, no space (size: characters)' },
  'nested-list': { size: 9 * 1024 * 1024, what: 'a list one level deeper on every line (size: characters)' },
  emphasis: { size: 100_000, what: '`*a` repeated (size: repetitions)' },
  quotes: { size: 1024 * 1024, what: '`> ` repeated on one line: nested quotes (size: characters)' },
  items: { size: 1024 * 1024, what: 'a flat list, one `- item` per line (size: characters)' },
  html: { size: 1024 * 1024, what: 'unclosed `<b title>` tags, then short paragraphs (size: characters)' },
};

/** The text of `shape` at `size` (its default when omitted); deterministic. */
export function hugeText(shape: HugeTextShape, size = HUGE_TEXT_DEFAULTS[shape].size): string {
  switch (shape) {
    case 'line':
      return 'x'.repeat(size);
    case 'nested-list':
      return grow(size, (i) => `${'  '.repeat(i)}- item ${i}\n`);
    case 'emphasis':
      return '*a'.repeat(size);
    case 'quotes':
      return `${'> '.repeat(Math.floor(size / 2))}x`;
    case 'items':
      return grow(size, (i) => `- item ${i}\n`);
    case 'html': {
      const tags = Array.from({ length: 2000 }, (_, i) => `<b title="${i}">`).join('');
      return grow(size, (i) => (i === 0 ? `${tags}\n\n` : `p${i}\n\n`));
    }
  }
}

/** Lines from `line(i)` until `size` characters, cut to exactly `size`. */
function grow(size: number, line: (i: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const l = line(i);
    parts.push(l);
    length += l.length;
  }
  return parts.join('').slice(0, size);
}
