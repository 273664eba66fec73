/**
 * `silo-acp/export`: transcript export and import. JSONL is lossless: one journaled {@link AgentSessionUpdate} per line,
 * exactly as the journal holds it, so an export replays on another machine with no agent (render it
 * with `<silo-transcript src=…>` or import it with `AgentsService.importJsonl`). Markdown is for
 * people: it is derived from the transcript model and cannot be imported back.
 *
 * An entry of its own, apart from the main one (`silo-acp`), so that a page's first paint does not
 * load it or the `diff` package `toMarkdown` uses: `<silo-chat>` loads it with `import()` when a
 * transcript is exported as Markdown, `<silo-transcript>` when it reads a JSONL file or URL. Its
 * bundle takes `SiloError` and `TranscriptModel` from the main entry's (one copy of each class).
 * @packageDocumentation
 */
import { diffLines } from 'diff';
import { SiloError } from './errors.ts';
import { EXPORT_HEADER_KIND, type JsonlExportInfo, jsonlHeader, jsonlLines } from './jsonl.ts';
import { TranscriptModel } from './transcript/model.ts';
import type { TerminalState, ToolCallRow, TranscriptRow } from './transcript/rows.ts';
import { terminalText } from './transcript/terminal.ts';
import type { AgentSessionUpdate } from './types.ts';

export { EXPORT_HEADER_KIND, type JsonlExportInfo };

/**
 * Serializes updates as JSONL, one per line, with a trailing newline. With `info`, the first line is
 * a header `{"kind":"silo_export","agent":…,"sessionId":…,"title":…,"raw":{}}`: {@link parseJsonl} skips it and
 * {@link readJsonlExport} returns it (a reader older than the header shows it as an unknown update).
 */
export function toJsonl(updates: readonly AgentSessionUpdate[], info?: JsonlExportInfo): string {
  return `${info ? jsonlHeader(info) : ''}${jsonlLines(updates)}`;
}

/**
 * Parses a JSONL export into its updates and its header's information (empty for an export without
 * a header, as Silo wrote them before it had one). Fails as {@link parseJsonl} does.
 */
export function readJsonlExport(text: string): { updates: AgentSessionUpdate[]; info: JsonlExportInfo } {
  const all = parseJsonl(text, true);
  const head = all[0] as (AgentSessionUpdate & Record<keyof JsonlExportInfo, unknown>) | undefined;
  if (head?.kind !== EXPORT_HEADER_KIND) return { updates: all, info: {} };
  const info: Record<string, string> = {};
  for (const key of ['agent', 'sessionId', 'title'] as const) {
    const v = head[key];
    if (typeof v === 'string' && v) info[key] = v;
  }
  return { updates: all.slice(1), info };
}

/**
 * Parses a JSONL export back into updates. Lines may end in LF, CRLF or CR; blank lines, a byte-order
 * mark and spaces around a line are ignored. Rejects with a `SiloError` `invalid-params` naming the
 * first line that is not JSON or not an update (an object with a string `kind`), with `data.line`
 * (a last line cut short says so); nothing is returned then. `raw` defaults to `{}` when a line lacks
 * it. Updates are numbered in file order (`seq` 0, 1, …, what the file says is not kept: an export's
 * own numbers are these, and a hand-written file or two exports put end to end would otherwise lose
 * updates to the transcript model, which skips a `seq` it has passed). Export header lines (see
 * {@link toJsonl}) are skipped wherever they are; with `withHeader`, a header on the first line comes
 * first in the result, unnumbered.
 */
export function parseJsonl(text: string, withHeader = false): AgentSessionUpdate[] {
  const out: AgentSessionUpdate[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  const last = lines.findLastIndex((l) => l.trim() !== '');
  let seq = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const cut = i === last ? ': the file ends in the middle of it (cut short?)' : '';
      throw new SiloError('invalid-params', `Line ${i + 1} of the transcript is not JSON${cut}`, {
        line: i + 1,
      });
    }
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as { kind?: unknown }).kind !== 'string'
    ) {
      throw new SiloError('invalid-params', `Line ${i + 1} of the transcript is not an update`, {
        line: i + 1,
      });
    }
    const u = value as AgentSessionUpdate;
    if (u.kind === EXPORT_HEADER_KIND) {
      if (withHeader && out.length === 0) out.push(u);
      continue;
    }
    const raw = typeof u.raw === 'object' && u.raw !== null ? u.raw : {};
    out.push(u.raw === raw && u.seq === seq ? u : { ...u, raw, seq });
    seq++;
  }
  return out;
}

/** Options for {@link toMarkdown}. */
export interface MarkdownExportOptions {
  /** The document title; default: the session title, else "Conversation". */
  readonly title?: string;
}

/** Renders a transcript as a Markdown document (messages, tool calls with diffs, plans, outcomes). */
export function toMarkdown(
  updates: readonly AgentSessionUpdate[],
  options: MarkdownExportOptions = {},
): string {
  const model = new TranscriptModel();
  model.applyAll(updates);
  const parts: string[] = [`# ${options.title ?? model.current.title ?? 'Conversation'}`];
  for (const row of model.rows) {
    const md = rowMarkdown(row);
    if (md) parts.push(md);
  }
  const { usage, tokens } = model.current;
  const totals = [
    usage ? `Context: ${usage.used} / ${usage.size} tokens` : '',
    usage?.cost ? `cost ${usage.cost.amount} ${usage.cost.currency}` : '',
    tokens ? `${tokens.total} tokens in all turns` : '',
  ].filter(Boolean);
  if (totals.length) parts.push(`---\n\n_${totals.join('; ')}._`);
  return `${parts.join('\n\n')}\n`;
}

/** `text` in a fenced block whose fence is longer than any run of backticks in it (one pass: linear). */
function fence(text: string, lang = ''): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

/** The lines of a file's text (a final newline ends the last line rather than starting one). */
function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.replace(/\r\n?/g, '\n').split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** Texts of more lines than this, together, are not diffed line by line (diffing them takes seconds). */
const MAX_DIFF_LINES = 10_000;

/**
 * A diff block's body: unchanged lines with a space, removed with `-`, added with `+`, in file order
 * (a new file is all `+`). Past 2,000 edits, or for texts of more than {@link MAX_DIFF_LINES} lines,
 * it falls back to all old lines removed, all new added.
 */
function diffBody(oldText: string | null | undefined, newText: string): string {
  if (oldText == null || oldText === '')
    return lines(newText)
      .map((l) => `+${l}`)
      .join('\n');
  let changes: ReturnType<typeof diffLines> | undefined;
  try {
    changes =
      lines(oldText).length + lines(newText).length > MAX_DIFF_LINES
        ? undefined
        : diffLines(oldText.replace(/\r\n?/g, '\n'), newText.replace(/\r\n?/g, '\n'), {
            maxEditLength: 2000,
          });
  } catch {
    changes = undefined;
  }
  if (!changes)
    return [...lines(oldText).map((l) => `-${l}`), ...lines(newText).map((l) => `+${l}`)].join('\n');
  const out: string[] = [];
  for (const c of changes)
    for (const l of lines(c.value)) out.push(`${c.added ? '+' : c.removed ? '-' : ' '}${l}`);
  return out.join('\n');
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

/** A terminal: its output as plain text in a console block, then how it ended. */
function terminalMarkdown(t: TerminalState): string {
  const text = terminalText(t.output);
  const block = text ? `${fence(text, 'console')}\n` : '';
  const end = !t.exited
    ? '_Still running._'
    : t.signal
      ? `_Ended by signal ${t.signal}._`
      : typeof t.exitCode === 'number'
        ? `_Exit code ${t.exitCode}._`
        : '_Ended._';
  return `${block}${end}`;
}

/** A subagent's work: its title, task, rows and answer. */
function subagentMarkdown(row: ToolCallRow): string {
  const v = row.subagent!;
  const parts = [
    `**Subagent${v.title ? `: ${v.title}` : ''}**${v.state ? ` (${v.state}${v.stopReason ? `, ${v.stopReason}` : ''})` : ''}`,
  ];
  if (v.prompt) parts.push(`_Task:_ ${v.prompt}`);
  for (const r of v.rows) {
    const md = rowMarkdown(r);
    if (md) parts.push(md);
  }
  if (v.reply) parts.push(`_Answer:_ ${v.reply}`);
  return parts.join('\n\n');
}

function rowMarkdown(row: TranscriptRow): string | undefined {
  switch (row.type) {
    case 'message': {
      const text = row.parts
        .map((p) =>
          p.type === 'text'
            ? p.text
            : `[${p.block.type}${'uri' in p.block ? `: ${String(p.block.uri)}` : ''}]`,
        )
        .join('');
      const excluded = row.excluded ? ' _(refused: left out of the agent’s context)_' : '';
      if (row.role === 'user')
        return `## You${row.timestamp ? ` (${row.timestamp})` : ''}${excluded}\n\n${text}`;
      if (row.role === 'thought') return quote(`_Thinking:_ ${text}`);
      return `**Agent:**${excluded}\n\n${text}`;
    }
    case 'tool': {
      const c = row.toolCall;
      const lines = [`- **${c.kind}** ${c.title || c.name || c.toolCallId} — ${c.status}`];
      for (const l of c.locations) lines.push(`  - \`${l.path}${l.line ? `:${l.line}` : ''}\``);
      for (const item of c.content) {
        if (item.type === 'diff') {
          const body = diffBody(item.oldText, item.newText);
          lines.push(
            `\n${item.oldText == null ? 'New file' : 'Diff of'} \`${item.path}\`:\n\n${fence(body, 'diff')}`,
          );
        } else if (item.type === 'content' && item.content.type === 'text') {
          lines.push(`\n${String((item.content as { text?: unknown }).text ?? '')}`);
        }
      }
      for (const t of c.terminals ?? []) lines.push(`\n${terminalMarkdown(t)}`);
      if (row.subagent) lines.push(`\n${quote(subagentMarkdown(row))}`);
      if (row.permission) lines.push('', rowMarkdown(row.permission)!);
      return lines.join('\n');
    }
    case 'plan':
      return `**Plan:**\n\n${row.entries.map((e) => `- [${e.status === 'completed' ? 'x' : ' '}] ${e.content}${e.status === 'in_progress' ? ' _(in progress)_' : ''}`).join('\n')}`;
    case 'compaction':
      return quote(
        `**Compaction (${row.status})**${row.summary.length ? `\n${row.summary.map((b) => String((b as { text?: unknown }).text ?? `[${b.type}]`)).join('')}` : ''}${row.error ? `\nError: ${row.error}` : ''}`,
      );
    case 'notice':
      return quote(`**${row.severity}:** ${row.title}${row.description ? `\n${row.description}` : ''}`);
    case 'permission': {
      const r = row.record;
      const chosen = r.options?.find((o) => o.optionId === r.optionId)?.name ?? r.optionId;
      const outcome = r.resolution === 'selected' ? `answered “${chosen}”` : (r.resolution ?? 'not answered');
      return quote(`**Permission:** ${r.toolCall?.title ?? ''} — ${outcome}`);
    }
    case 'elicitation': {
      const r = row.record;
      const answers = r.answers
        ? Object.entries(r.answers)
            .map(([k, v]) => `\n- ${r.questions?.find((q) => q.id === k)?.title ?? k}: ${v}`)
            .join('')
        : '';
      return quote(`**Question:** ${r.message ?? ''} — ${r.resolution ?? 'not answered'}${answers}`);
    }
    case 'turn-start':
      return `_The agent started this turn by itself${row.reason ? ` (${row.reason})` : ''}._`;
    case 'turn-end':
      return row.stopReason === 'end_turn'
        ? undefined
        : `_Turn ended: ${row.stopReason}${row.error ? ` (${row.error.message})` : ''}._`;
    default:
      return `_Update of an unknown kind: ${row.kind}_`;
  }
}
