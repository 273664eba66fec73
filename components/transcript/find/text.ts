/**
 * The searchable text of transcript rows, for find in `<silo-transcript>`: what a reader sees of each
 * row, taken from the model (not the DOM, which holds only the rows the virtualizer renders), folded
 * to lower case and kept per row object while a find lasts ({@link RowTexts}: a patched row is a new
 * object, so the texts follow it).
 * @packageDocumentation
 */
import {
  type AgentContentBlock,
  type AgentToolCallContent,
  type TranscriptRow,
  terminalText,
} from '../../../src/index.ts';
import { markdownCut } from '../../content/text-budget.ts';
import { TAIL_CHARS } from '../../shared/terminal-limits.ts';

/**
 * Lower case, one UTF-16 unit for one (a character whose lower case is longer, such as `İ`, is kept
 * as it is), so offsets in the folded text are offsets in the original. Never throws.
 */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/** How many times `query` (folded, non-empty) occurs in `text` (folded), without overlaps. */
export function countIn(text: string, query: string): number {
  let n = 0;
  for (let i = text.indexOf(query); i !== -1; i = text.indexOf(query, i + query.length)) n++;
  return n;
}

/** The folded searchable text of `row`. Never throws: odd shapes give less text. */
export function rowText(row: TranscriptRow): string {
  try {
    return fold(plain(row));
  } catch {
    return '';
  }
}

/**
 * The folded texts of the rows one find has read, per row object, so a query typed one more character
 * reads no row's text again. A copy of the transcript's text once every row is read: made per find
 * and let go when it ends.
 */
export class RowTexts {
  readonly #texts = new WeakMap<object, string>();

  /** {@link rowText} of `row`, built the first time it is asked for. */
  of(row: TranscriptRow): string {
    let text = this.#texts.get(row);
    if (text === undefined) {
      text = rowText(row);
      this.#texts.set(row, text);
    }
    return text;
  }
}

/**
 * Markdown as it reads once rendered, approximately: link and image syntax reduced to their text,
 * block markers at line starts, emphasis and code markers dropped (so `**latest** answer` is found
 * as "latest answer"). A marker inside code is dropped too; a query rarely spells one.
 */
export function markdownText(md: string): string {
  return md
    .replace(/!?\[([^\]\n]{0,1000})\]\([^)\n]{0,2000}\)/g, '$1')
    .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+)/gm, '')
    .replace(/\*\*|__|~~|`+/g, '')
    .replace(/(^|[\s(])[*_](?=\S)|(?<=\S)[*_](?=$|[\s).,;:!?])/gm, '$1');
}

/**
 * Agent text as it reads: its Markdown part ({@link markdownText}), then the rest as the plain text it
 * is drawn as (content/text-budget.ts, content/long-text.ts), so find reaches the collapsed part too.
 */
function agentText(text: string): string {
  const cut = markdownCut(text);
  return cut === text.length ? markdownText(text) : `${markdownText(text.slice(0, cut))}${text.slice(cut)}`;
}

function plain(row: TranscriptRow): string {
  switch (row.type) {
    case 'message':
      return row.parts
        .map((p) => (p.type === 'text' ? (row.role === 'user' ? p.text : agentText(p.text)) : block(p.block)))
        .join('\n');
    case 'tool': {
      const call = row.toolCall;
      const out = [call.title ?? '', ...call.locations.map((l) => l.path ?? '')];
      for (const c of call.content) out.push(toolContent(c));
      if (call.content.length === 0 && call.rawOutput !== undefined && call.rawOutput !== null)
        out.push(typeof call.rawOutput === 'string' ? call.rawOutput : json(call.rawOutput));
      // A terminal's output as far as it is drawn (its end).
      for (const t of call.terminals ?? []) out.push(terminalText(t.output.slice(-TAIL_CHARS)));
      return out.join('\n');
    }
    case 'plan':
      return row.entries.map((e) => e.content).join('\n');
    case 'compaction':
      return [...row.summary.map(block), row.error ?? ''].join('\n');
    case 'notice':
      return `${row.title}\n${row.description ?? ''}`;
    case 'permission':
      return row.record.toolCall?.title ?? '';
    case 'elicitation': {
      const r = row.record;
      const questions = (r.questions ?? []).map((q) => {
        const f = q as unknown as Record<string, unknown>;
        return [f.title, f.description].filter((v) => typeof v === 'string').join('\n');
      });
      return [r.message ?? '', r.url ?? '', ...questions].join('\n');
    }
    case 'turn-start':
      return '';
    case 'turn-end':
      return row.error?.message ?? '';
    default:
      return String((row as { kind?: unknown }).kind ?? '');
  }
}

function block(b: AgentContentBlock): string {
  const f = b as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return agentText(String(f.text ?? ''));
    case 'resource_link':
      return [f.title ?? f.name ?? f.uri, f.description].filter((v) => typeof v === 'string').join('\n');
    case 'resource': {
      const r = (f.resource ?? {}) as Record<string, unknown>;
      return [r.uri, r.text].filter((v) => typeof v === 'string').join('\n');
    }
    default:
      return '';
  }
}

function toolContent(c: AgentToolCallContent): string {
  if (c.type === 'content') return block(c.content);
  if (c.type === 'diff') return [c.path, ...diffLines(c.oldText, c.newText)].join('\n');
  return '';
}

/**
 * A diff's searchable lines: the new text's, then the old text's lines the edit removed. Read from the
 * texts, not through the line differ, which loads lazily (content/code.lazy.ts) and stays out of the first paint.
 */
function diffLines(oldText: unknown, newText: unknown): string[] {
  const lines = (t: unknown) => (typeof t === 'string' ? t.split('\n').filter((l) => l !== '') : []);
  const added = lines(newText);
  const kept = new Set(added);
  return [...added, ...lines(oldText).filter((l) => !kept.has(l))];
}

function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return '';
  }
}
