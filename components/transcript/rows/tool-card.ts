/**
 * A tool call's card: one line (kind icon, title, +/− line counts of its edits, status) that opens, as
 * a native `<details>` (Enter or Space on its summary), to its locations, content, diffs and output.
 * A failed call, and one whose permission waits for the user, opens by default; others start closed,
 * and a card the user opened or closed stays so while the page lives (also when the log scrolls it
 * out of the DOM and back). Output is never cut: long output wraps and scrolls inside the card.
 * Diffs are drawn by the lazily loaded differ, with old and new line numbers (drawn by CSS, so they
 * are never copied with the code), and both diffs and code are highlighted once the highlighter
 * arrives (content/code.lazy.ts). Every agent string reaches the DOM through Lit text or attribute bindings.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentToolCallContent, TerminalState, ToolCallRow } from '../../../src/index.ts';
import { highlightedText, highlightTemplate, withDiffer, withHighlighter } from '../../content/code.lazy.ts';
import type { LineDiff } from '../../content/line-diff.ts';
import { plainText } from '../../content/long-text.ts';
import { clipLabel, PLAIN_SHOWN } from '../../content/text-budget.ts';
import { formatNumber, safeClass, safeJson } from '../../shared/format.ts';
import { icon, TOOL_KIND_ICONS } from '../../shared/icons.ts';
import type { BlockRenderer, RowContext } from './row-context.ts';
import { type NestedRows, subagentView } from './subagent-view.ts';
import { ending, terminalBlock, terminalStatus } from './terminal-block.ts';

/** Open or closed as the user left each card, by row key (bounded: the oldest choice goes first). */
const userOpen = new Map<string, boolean>();
const USER_OPEN_CAPACITY = 2000;

function onToggle(key: string, fallback: boolean) {
  return (e: Event) => {
    const open = (e.currentTarget as HTMLDetailsElement).open;
    // The toggle event also fires when Lit sets `open` from the default: only a change is a choice.
    if (open === (userOpen.get(key) ?? fallback)) return;
    userOpen.delete(key);
    userOpen.set(key, open);
    if (userOpen.size > USER_OPEN_CAPACITY) userOpen.delete(userOpen.keys().next().value!);
  };
}

/**
 * Whether a card opens by default: it failed, `attention` (a permission waits in it), or a command
 * of it is still running (its terminal grows in sight).
 */
export function opensByDefault(row: ToolCallRow, attention: boolean): boolean {
  const running = row.toolCall.terminals?.some((t) => !t.exited && t.output !== '') ?? false;
  const live = row.toolCall.status === 'pending' || row.toolCall.status === 'in_progress';
  return attention || row.toolCall.status === 'failed' || (running && live);
}

/** Line diffs by diff content object (a patched row keeps the content objects it did not change). */
const diffs = new WeakMap<object, LineDiff>();

function diffOf(
  m: typeof import('../../content/line-diff.ts'),
  c: AgentToolCallContent & { type: 'diff' },
): LineDiff {
  let d = diffs.get(c);
  if (!d) {
    d = m.lineDiff(c.oldText, typeof c.newText === 'string' ? c.newText : '');
    diffs.set(c, d);
  }
  return d;
}

/**
 * One tool-call row. `inside` is drawn first in the card's body (a permission waiting in the card),
 * `attention` opens the card by default, and `nested` draws the rows of the subagent it launched.
 */
export function toolRow(
  row: ToolCallRow,
  index: number,
  ctx: RowContext,
  block: BlockRenderer,
  nested: NestedRows,
  inside: TemplateResult | typeof nothing = nothing,
  attention = false,
): TemplateResult {
  const s = ctx.strings;
  const call = row.toolCall;
  const status = call.status;
  const title = clipLabel(call.title || s.untitledTool);
  const fallback = opensByDefault(row, attention);
  const open = attention || (userOpen.get(row.key) ?? fallback);
  const edits = call.content.filter((c): c is AgentToolCallContent & { type: 'diff' } => c.type === 'diff');
  const kind = s.toolKind[call.kind] ?? s.toolKind.other ?? '';
  // A diff names its file: a location of that file says it again.
  const edited = new Set(edits.map((c) => String(c.path ?? '')));
  const locations = call.locations.filter((l) => !edited.has(l.path));
  const file = call.kind === 'read' ? readPath(row) : undefined;
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row tool">
    <details
      class="card tool"
      data-status=${safeClass(status)}
      data-kind=${safeClass(call.kind)}
      .open=${open}
      @toggle=${onToggle(row.key, fallback)}
    >
      <summary class="tool-head" part="tool-summary">
        ${icon(TOOL_KIND_ICONS[call.kind] ?? 'wrench', 'kind-icon')}
        ${sayKind(title, kind) ? html`<span class="kind" part="tool-kind">${kind}</span>` : nothing}
        <span class="title" part="tool-title" title=${title}>${title}</span>
        ${edits.length ? lineCounts(edits, ctx) : nothing}
        ${exitBadge(call.terminals, ctx)}
        <span class="status status-${safeClass(status)}" part="tool-status">${s.toolStatus[status] ?? status}</span>
      </summary>
      <div class="tool-body" part="tool-body">
        ${inside}
        ${
          locations.length
            ? html`<ul class="locations" part="tool-locations">
              ${locations.map(
                (l) =>
                  html`<li><code>${clipLabel(String(l.path))}${typeof l.line === 'number' ? `:${l.line}` : ''}</code></li>`,
              )}
            </ul>`
            : nothing
        }
        ${call.content.map((c, i) => toolContent(c, row, ctx, block, `${row.key}#c${i}`, file))}
        ${unplaced(call.content, call.terminals).map((t) => terminalBlock(t, row.key, ctx))}
        ${call.content.length === 0 && !call.terminals?.length ? rawOutput(call.rawOutput, ctx, `${row.key}#out`) : nothing}
        ${row.subagent ? subagentView(row, ctx, block, nested) : nothing}
      </div>
    </details>
  </div>`;
}

/** The ended terminals' exit codes or signals, beside the status (a closed card shows them too). */
function exitBadge(terminals: readonly TerminalState[] | undefined, ctx: RowContext): unknown {
  const ended = terminals?.filter((t) => terminalStatus(t) === 'ok' || terminalStatus(t) === 'failed') ?? [];
  if (ended.length === 0) return nothing;
  return html`<span class="exit" part="tool-exit" data-status=${terminalStatus(ended.at(-1)!)}
    >${ended.map((t) => ending(t, ctx)).join(', ')}</span
  >`;
}

/** Terminals no `{ type: "terminal" }` content item places (Codex's read and search commands): drawn after the content. */
function unplaced(
  content: readonly AgentToolCallContent[],
  terminals: readonly TerminalState[] | undefined,
): readonly TerminalState[] {
  if (!terminals?.length) return [];
  const placed = new Set(content.flatMap((c) => (c.type === 'terminal' ? [c.terminalId] : [])));
  return terminals.filter((t) => !placed.has(t.id));
}

/** The summed +/− line counts of a call's diffs (once the differ is loaded). */
function lineCounts(edits: readonly (AgentToolCallContent & { type: 'diff' })[], ctx: RowContext): unknown {
  return withDiffer((m) => {
    let added = 0;
    let removed = 0;
    for (const c of edits) {
      const d = diffOf(m, c);
      added += d.added;
      removed += d.removed;
    }
    return counts(added, removed, ctx);
  });
}

function counts(added: number, removed: number, ctx: RowContext): TemplateResult {
  const a = formatNumber(added, ctx.locale);
  const r = formatNumber(removed, ctx.locale);
  return html`<span class="counts" part="tool-counts"
    ><span class="plus" aria-hidden="true">+${a}</span> <span class="minus" aria-hidden="true">−${r}</span
    ><span class="sr-only">${ctx.strings.linesChanged(a, r)}</span></span
  >`;
}

/**
 * A tool call's `rawOutput`, shown only when it has no content (Codex puts a command's output only
 * there when the client has no terminal): a string as text, anything else as JSON folded away. It
 * wraps and scrolls inside the card; past 32 KiB the rest is collapsed plain text (content/long-text.ts)
 * and JSON that long is not highlighted. `key` names it (its long text's open state).
 */
function rawOutput(value: unknown, ctx: RowContext, key: string): TemplateResult | typeof nothing {
  if (value === undefined || value === null) return nothing;
  const s = ctx.strings;
  if (typeof value === 'string')
    return html`<pre class="raw-output output" part="tool-output" tabindex="0"><code>${plainText(key, value, s, ctx.locale)}</code></pre>`;
  const json = safeJson(value);
  return html`<details class="raw-output" part="tool-output">
    <summary>${s.output}</summary>
    <pre class="output" tabindex="0"><code>${json.length > PLAIN_SHOWN ? plainText(key, json, s, ctx.locale) : highlightedText(json, 'json')}</code></pre>
  </details>`;
}

/**
 * Whether the summary writes the kind's name before the title: not when the title starts with that
 * word already ("Read README.md" is not "READ Read README.md"); the icon is there either way.
 */
function sayKind(title: string, kind: string): boolean {
  const t = title.trimStart().toLowerCase();
  const k = kind.toLowerCase();
  return !(t.startsWith(k) && !/[\p{L}\p{N}]/u.test(t.charAt(k.length)));
}

/**
 * The file a read call read, from its first location or its input's path (`path`, `file_path`,
 * `abs_path`: the names agents use), else `''` (its contents are still drawn as code).
 */
function readPath(row: ToolCallRow): string {
  const first = row.toolCall.locations[0]?.path;
  if (first) return first;
  const input = row.toolCall.rawInput as Record<string, unknown> | null | undefined;
  for (const key of ['path', 'file_path', 'abs_path']) {
    const v = typeof input === 'object' && input !== null ? input[key] : undefined;
    if (typeof v === 'string') return v;
  }
  return '';
}

/** A fence around the whole text (agents wrap a file's contents in one): its language and its code. */
const WHOLE_FENCE = /^(`{3,}|~{3,})([\w+#.-]*)[^\n]*\n([\s\S]*?)\n?\1[ \t]*\n?$/;

/**
 * A file's contents, as a read call returns them: code (never Markdown: a file's `# Title` is not a
 * heading), highlighted as the language of its path (or of the fence the agent wrapped it in).
 */
function fileContents(text: string, path: string, key: string, ctx: RowContext): TemplateResult {
  const fence = WHOLE_FENCE.exec(text);
  const code = fence ? fence[3]! : text;
  const named = fence?.[2] || undefined;
  // Past the plain-text bound, plain and in pieces like any long output (content/long-text.ts).
  const shown =
    code.length > PLAIN_SHOWN
      ? plainText(key, code, ctx.strings, ctx.locale)
      : highlightedFile(code, path, named);
  return html`<pre class="output file" part="tool-file" tabindex="0"><code>${shown}</code></pre>`;
}

function toolContent(
  c: AgentToolCallContent,
  owner: object,
  ctx: RowContext,
  block: BlockRenderer,
  key: string,
  file: string | undefined,
): TemplateResult {
  const s = ctx.strings;
  if (c.type === 'content' && file !== undefined && c.content.type === 'text')
    return fileContents(String((c.content as { text?: unknown }).text ?? ''), file, key, ctx);
  if (c.type === 'content')
    return html`<div class="tool-content" tabindex="0">${block(c.content, owner, ctx, key)}</div>`;
  if (c.type === 'terminal') {
    const row = owner as ToolCallRow;
    const t = row.toolCall.terminals?.find((x) => x.id === c.terminalId);
    return t
      ? terminalBlock(t, row.key, ctx)
      : html`<div class="placeholder">${s.terminal(String(c.terminalId))}</div>`;
  }
  if (c.type === 'diff') return diffView(c, ctx);
  return html`<div class="placeholder">${s.unknownBlock(String((c as { type?: unknown }).type))}</div>`;
}

/** A file's diff: its path, "new file", +/− counts, and its lines with old and new numbers. */
function diffView(c: AgentToolCallContent & { type: 'diff' }, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  const isNew = c.oldText === null || c.oldText === undefined;
  const path = clipLabel(String(c.path ?? ''));
  return html`<figure class="diff" part="diff">
    <figcaption>
      <code class="path">${path}</code>
      ${isNew ? html`<span class="badge new" part="diff-new">${s.newFile}</span>` : nothing}
      ${withDiffer((m) => {
        const d = diffOf(m, c);
        return counts(d.added, d.removed, ctx);
      })}
    </figcaption>
    <div class="lines" role="group" aria-label=${s.diffOf(path)} tabindex="0">
      ${withDiffer((m) => {
        const d = diffOf(m, c);
        return html`${d.lines.map(
          (l) =>
            html`<div class="line ${l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'ctx'}"><span class="ln" aria-hidden="true" data-old=${l.oldLine ?? ''} data-new=${l.newLine ?? ''}></span><span class="op" aria-hidden="true">${l.op}</span><span class="sr-only">${l.op === '+' ? 'added' : l.op === '-' ? 'removed' : ''}</span>${highlightedFile(l.text, path)}${l.clipped ? html`<span class="clipped" part="diff-clipped">${s.clippedLine(formatNumber(l.clipped, ctx.locale))}</span>` : nothing}</div>`,
        )}${d.hidden ? html`<div class="line more">${s.moreLines(formatNumber(d.hidden, ctx.locale))}</div>` : nothing}`;
      }, html`<div class="line loading">${s.loadingDiff}</div>`)}
    </div>
  </figure>`;
}

/**
 * `text` (a diff line, a file's contents), highlighted as `language` if given, else as the language
 * of `path`, once the highlighter is loaded; plain until then.
 */
function highlightedFile(text: string, path: string, language?: string): unknown {
  return withHighlighter((h) => {
    const nodes = h.highlight(text, language ?? h.languageOfPath(path));
    return nodes ? highlightTemplate(nodes) : text;
  }, text);
}
