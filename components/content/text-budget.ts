/**
 * What one block of agent text may cost the page. Agent text is untrusted, and its size is part of
 * that: `marked` is superlinear on some shapes (a deep or long list, `*a` repeated), and the browser
 * then lays out whatever it is given (a deep list crashed Chromium's tab; a 2 MB line froze it). So a
 * text is rendered as Markdown only up to {@link markdownCut}: at most {@link MARKDOWN_LIMITS}
 * characters, lines, characters per line and list or quote nesting; what follows is plain text, cut
 * into {@link plainPieces} of at most {@link PIECE_CHARS} characters, shown collapsed behind "Show
 * all" (content/long-text.ts). The inline cost of the Markdown part is bounded while it is lexed
 * (content/markdown.ts). Pure functions, linear in what they read, and they read no further than the
 * limits: a 9 MB text costs what its first 32 KiB cost. Nothing is dropped: the journal, copy, find
 * and the exports keep the whole text. Limits and their measurements: docs/components.md.
 * @packageDocumentation
 */

/** What the Markdown part of one text may hold. */
export interface MarkdownLimits {
  /** Characters. */
  readonly chars: number;
  /** Characters of one line. */
  readonly lineChars: number;
  /** List and quote nesting of one line (markers, plus two columns of indentation per level). */
  readonly depth: number;
  /** Nesting summed over every line (a deep list costs `marked` its depth on each of its lines). */
  readonly depthSum: number;
  /**
   * Elements, as estimated line by line outside code blocks ({@link lineElements}): a block, two per
   * level of nesting, a cell per `|`, an element per pair of emphasis or code marks, per link,
   * tag, e-mail or web address. The browser's work grows with them (and faster than linearly for
   * list items in Chromium).
   */
  readonly elements: number;
}

/** The limits of the Markdown part of a message, a thought or a tool's text. */
export const MARKDOWN_LIMITS: MarkdownLimits = {
  chars: 32_768,
  lineChars: 8_192,
  depth: 12,
  depthSum: 2_048,
  elements: 2_048,
};

/** Plain text shown at once (a user's message, a tool's output); the rest is behind "Show all". */
export const PLAIN_SHOWN = 32_768;

/** Characters of one piece of plain text: each is its own block, laid out only when on screen. */
export const PIECE_CHARS = 4_096;

/** The "Show all" button of a collapsed long text (content/long-text.ts), for find to open it. */
export const CLOSED_LONG_TEXT = '.long-text[data-long-text="closed"] > .long-text-bar > .long-text-toggle';

/** A long text opened and still drawing its pieces (content/long-text.ts). */
export const DRAWING_LONG_TEXT = '.long-text[data-long-text="drawing"]';

/** Characters of a one-line label (a tool's title, a path, a plan entry); longer ones are clipped. */
export const LABEL_CHARS = 1_000;

/**
 * Where the Markdown part of `text` ends: the start of the first line that would break one of
 * `limits`, or `text.length` when all of it fits. Reads at most `limits.chars` characters and one
 * line past them. The last line counts as it is (a streaming text's open line may grow past a limit,
 * and the cut then moves before it). Lines inside fenced code count characters only; when the scan
 * cannot tell whether a line is still code, it counts it as Markdown (more, never less).
 */
export function markdownCut(text: string, limits: MarkdownLimits = MARKDOWN_LIMITS): number {
  const n = text.length;
  let start = 0;
  let depthSum = 0;
  let elements = 0;
  let fence: Fence | undefined;
  while (start < n) {
    // The line, read no further than one character past its limit.
    const window = text.slice(start, start + limits.lineChars + 1);
    const nl = window.indexOf('\n');
    const length = nl === -1 ? window.length : nl;
    if (length > limits.lineChars || start + length > limits.chars) return start;
    const end = start + length;
    const line = lineStart(text, start, end);
    if (fence && stillCode(fence, line, end)) {
      if (closesFence(fence, text, line, end)) fence = undefined;
      start = end + 1;
      continue;
    }
    fence = undefined;
    if (!line.blank) {
      fence = opensFence(text, line, end);
      depthSum += line.depth;
      // A code block is four elements (its wrapper, pre, code and copy button).
      elements += (fence ? 4 : 1) + 2 * line.depth + lineElements(text, line.content, end);
      if (line.depth > limits.depth || depthSum > limits.depthSum || elements > limits.elements) return start;
    }
    start = end + 1;
  }
  return n;
}

const SPACE = 32;
const TAB = 9;
const isBlank = (c: number) => c === SPACE || c === TAB;

/** How a line starts: its containers (`>` and list markers), and where its content begins. */
interface LineStart {
  readonly blank: boolean;
  /** Quote markers (`>`) before the content. */
  readonly quotes: number;
  /** List and quote nesting the line opens (see {@link lineDepth}). */
  readonly depth: number;
  /** Columns before the content (indentation and markers). */
  readonly column: number;
  /** Spaces between the last marker (or the line start) and the content. */
  readonly indent: number;
  /** Index of the content's first character. */
  readonly content: number;
}

/**
 * Reads a line's containers: quote markers (`>`), list markers (`-`, `*`, `+`, `1.`, `1)` followed by
 * a space) and the indentation around them.
 */
function lineStart(text: string, start: number, end: number): LineStart {
  let i = start;
  let column = 0;
  let quotes = 0;
  let markers = 0;
  let firstIndent = -1;
  let indent = 0;
  const spaceAfter = (at: number) => at >= end || isBlank(text.charCodeAt(at));
  for (;;) {
    indent = 0;
    for (let c = text.charCodeAt(i); i < end && isBlank(c); c = text.charCodeAt(++i))
      indent += c === TAB ? 4 : 1;
    column += indent;
    if (firstIndent < 0) firstIndent = indent;
    if (i >= end) break;
    const c = text.charCodeAt(i);
    if (c === 62 /* > */) {
      quotes++;
      i++;
      column++;
      continue;
    }
    if ((c === 45 /* - */ || c === 42 /* * */ || c === 43) /* + */ && spaceAfter(i + 1)) {
      markers++;
      i++;
      column++;
      continue;
    }
    let j = i;
    while (j < end && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    const d = text.charCodeAt(j);
    if (j > i && (d === 46 /* . */ || d === 41) /* ) */ && spaceAfter(j + 1)) {
      markers++;
      column += j + 1 - i;
      i = j + 1;
      continue;
    }
    break;
  }
  const opened = quotes + markers;
  return {
    blank: i >= end,
    quotes,
    depth: opened === 0 ? 0 : opened + Math.floor(firstIndent / 2),
    column,
    indent,
    content: i,
  };
}

/**
 * The list and quote nesting a line opens: its markers (`>`, `-`, `*`, `+`, `1.`, `1)`), plus one
 * level per two columns of indentation before the first of them. A line without a marker opens none
 * (it continues what is open, or is code). An over-estimate for wider indentation styles.
 */
export function lineDepth(text: string, start = 0, end = text.length): number {
  return lineStart(text, start, end).depth;
}

/** An open fenced code block: its fence, and where its opening line's content began. */
interface Fence {
  readonly char: number;
  readonly length: number;
  readonly quotes: number;
  readonly column: number;
}

/** The fence a line opens (` ``` ` or `~~~`, at most 3 spaces in), if it opens one. */
function opensFence(text: string, line: LineStart, end: number): Fence | undefined {
  if (line.indent > 3) return undefined;
  const char = text.charCodeAt(line.content);
  if (char !== 96 /* ` */ && char !== 126 /* ~ */) return undefined;
  let i = line.content;
  while (i < end && text.charCodeAt(i) === char) i++;
  const length = i - line.content;
  if (length < 3) return undefined;
  // A backtick fence's info string has no backtick (else it is inline code).
  if (char === 96 && text.slice(i, end).includes('`')) return undefined;
  return { char, length, quotes: line.quotes, column: line.column };
}

/**
 * Whether a line can still be inside `fence`: blank, or in as many quotes and indented at least as
 * far as the fence's opening line. A line that is less indented may end the container holding the
 * code (a list item, a quote), and so the code: it is counted as Markdown then.
 */
function stillCode(fence: Fence, line: LineStart, end: number): boolean {
  return line.content >= end || (line.quotes >= fence.quotes && line.column >= fence.column);
}

/** Whether a line closes `fence`: the same character, at least as many, then only spaces. */
function closesFence(fence: Fence, text: string, line: LineStart, end: number): boolean {
  let i = line.content;
  while (i < end && text.charCodeAt(i) === fence.char) i++;
  if (i - line.content < fence.length) return false;
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  return i >= end;
}

/**
 * Inline elements a line may make, from `start` to `end`: one per two emphasis or code marks
 * (`*`, `_`, `~`, `` ` ``), one per link or image (`[`), tag (`<`), e-mail address (`@`), web address
 * (`://`, `www.`) and table cell (`|`). An estimate, never below what `marked` makes of them.
 */
export function lineElements(text: string, start: number, end: number): number {
  let marks = 0;
  let others = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 42 || c === 95 || c === 126 || c === 96) marks++;
    else if (c === 91 || c === 60 || c === 64 || c === 124) others++;
    else if (c === 58 /* : */ && text.charCodeAt(i + 1) === 47 && text.charCodeAt(i + 2) === 47) others++;
    else if (c === 119 /* w */ && text.startsWith('ww.', i + 1)) others++;
  }
  return Math.ceil(marks / 2) + others;
}

/** Whether cutting `text` at `at` would split a surrogate pair. */
const splitsPair = (text: string, at: number) =>
  at > 0 && at < text.length && (text.charCodeAt(at - 1) & 0xfc00) === 0xd800;

/**
 * `text` from `from` on, in pieces of at most `size` characters that end after a newline where one
 * is in the second half of the piece (else at `size`, never inside a surrogate pair). The pieces,
 * joined, are the text. Linear: each piece looks at its own characters only.
 */
export function plainPieces(text: string, from = 0, size = PIECE_CHARS): string[] {
  const out: string[] = [];
  let i = from;
  while (i < text.length) {
    if (text.length - i <= size) {
      out.push(text.slice(i));
      break;
    }
    const nl = text.slice(i, i + size).lastIndexOf('\n');
    let cut = nl >= size / 2 ? i + nl + 1 : i + size;
    if (splitsPair(text, cut)) cut--;
    out.push(text.slice(i, cut));
    i = cut;
  }
  return out;
}

/** Where plain text shown at once ends: {@link PLAIN_SHOWN} characters (never inside a surrogate pair). */
export function plainCut(text: string, shown = PLAIN_SHOWN): number {
  if (text.length <= shown) return text.length;
  return splitsPair(text, shown) ? shown - 1 : shown;
}

/** A one-line label cut to {@link LABEL_CHARS} characters, an ellipsis marking the cut. */
export function clipLabel(text: string, max = LABEL_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, splitsPair(text, max) ? max - 1 : max)}…`;
}
