/**
 * Templates for each transcript row type. Every untrusted string reaches the DOM either as a Lit text
 * or attribute binding (escaped) or through the `markdown` directive (content/markdown.lazy.ts: sanitized); nothing
 * else reaches `unsafeHTML`. Each row renders exactly one root element (the virtualizer positions it).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type {
  AgentContentBlock,
  CompactionRow,
  ElicitationRow,
  MessageRow,
  NoticeRow,
  PlanRow,
  TranscriptRow,
  TurnStartRow,
  UnknownRow,
} from '../../../src/index.ts';
import { highlightCode } from '../../content/code.lazy.ts';
import { copyButton, onCodeCopyClick } from '../../content/copy.ts';
import { plainText } from '../../content/long-text.ts';
import { markdown } from '../../content/markdown.lazy.ts';
import { clipLabel } from '../../content/text-budget.ts';
import { loadElicitation } from '../../elicitation/silo-elicitation.chunk.ts';
import { clip, formatDuration, formatTime, safeClass, safeJson } from '../../shared/format.ts';
import { icon } from '../../shared/icons.ts';
import { ELICITATION_EXPORTPARTS } from '../../shared/parts.ts';
import { renderContentBlock } from './content-blocks.ts';
import { permissionOpen, permissionPrompt, permissionRow } from './permission-prompt.ts';
import type { RowContext } from './row-context.ts';
import { toolRow } from './tool-card.ts';
import { turnEndRow } from './turn-end.ts';

const KNOWN_SEVERITIES = new Set(['info', 'warning', 'error']);

/** Renders one row. `index` is its position, kept on the element for keyboard navigation. */
export function renderRow(row: TranscriptRow, index: number, ctx: RowContext): TemplateResult {
  switch (row.type) {
    case 'message':
      return messageRow(row, index, ctx);
    case 'tool': {
      // A subagent's rows are drawn with these templates, inside the card (index -1: not log rows).
      const nested = (rows: readonly TranscriptRow[]) => rows.map((r) => renderRow(r, -1, ctx));
      return row.permission
        ? toolRow(
            row,
            index,
            ctx,
            block,
            nested,
            permissionPrompt(row.permission, ctx, true),
            permissionOpen(row.permission, ctx),
          )
        : toolRow(row, index, ctx, block, nested);
    }
    case 'plan':
      return planRow(row, index, ctx);
    case 'compaction':
      return compactionRow(row, index, ctx);
    case 'notice':
      return noticeRow(row, index, ctx);
    case 'permission':
      return permissionRow(row, index, ctx);
    case 'elicitation':
      return elicitationRow(row, index, ctx);
    case 'turn-start':
      return turnStartRow(row, index, ctx);
    case 'turn-end':
      return turnEndRow(row, index, ctx);
    default:
      return unknownRow(row as UnknownRow, index, ctx);
  }
}

function messageRow(row: MessageRow, index: number, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  const who = row.role === 'user' ? s.you : row.role === 'agent' ? s.agent : s.thought;
  const time = row.timestamp ? formatTime(row.timestamp, ctx.locale) : undefined;
  // Agent text streams: its Markdown is rendered block by block, and complete blocks keep their HTML
  // (and so their DOM), so a frame costs the open block only (content/markdown-stream.ts). Past the
  // bounds (content/text-budget.ts) text is plain and collapsed (content/long-text.ts).
  const body = row.parts.map((p, i) =>
    p.type === 'text'
      ? row.role === 'user'
        ? html`<div class="plain">${plainText(`${row.key}#${i}`, p.text, s, ctx.locale)}</div>`
        : html`<div class="md" @click=${(e: Event) => onCodeCopyClick(e, s)} ${highlightCode()}>${markdown(`${row.key}#${i}`, row, p.text, s, undefined, ctx.locale)}</div>`
      : block(p.block, row, ctx, `${row.key}#${i}`),
  );
  const meta = html`${row.steered ? html`<span class="badge" part="steered">${s.steered}</span>` : nothing}${row.excluded ? html`<span class="badge excluded" part="excluded">${s.excluded}</span>` : nothing}`;
  if (row.role === 'thought') {
    const took = row.durationMs === undefined ? undefined : formatDuration(row.durationMs, s, ctx.locale);
    return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row thought">
      <details class="thought">
        <summary>${took === undefined ? who : html`<span part="thought-duration">${s.thoughtFor(took)}</span>`}</summary>
        ${body}
      </details>
      ${meta}
    </div>`;
  }
  return html`<div
    class="row msg ${row.role}"
    data-index=${index}
    data-key=${row.key}
    ?data-turn-start=${row.role === 'user' && !row.steered}
    tabindex="-1"
    role="article"
    aria-posinset=${index + 1 || nothing}
    aria-setsize=${ctx.rowCount}
    part="row message message-${row.role}"
  >
    <div class="bubble">
      <div class="who">
        <span>${who}</span>${time ? html`<time datetime=${row.timestamp!}>${time}</time>` : nothing}${meta}
        ${copyButton(() => row.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''), s)}
      </div>
      ${body}
    </div>
  </div>`;
}

/** One content block (transcript/rows/content-blocks.ts); `key` names it (a row's key and part). */
function block(b: AgentContentBlock, owner: object, ctx: RowContext, key: string): TemplateResult {
  return renderContentBlock(b, ctx.strings, key, ctx.locale, (text) =>
    markdown(undefined, owner, text, ctx.strings, key, ctx.locale),
  );
}

function planRow(row: PlanRow, index: number, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row plan">
    <div class="card plan">
      <div class="label">${s.plan}</div>
      <ul class="checklist" part="plan-list">
        ${row.entries.map(
          (e) => html`<li data-status=${safeClass(e.status)} data-priority=${safeClass(e.priority)}>
            <span class="check" aria-hidden="true">${e.status === 'completed' ? icon('check') : e.status === 'in_progress' ? icon('half') : ''}</span>
            <span class="sr-only">${s.planStatus[e.status] ?? e.status}:</span>
            <span class="entry">${clipLabel(e.content)}</span>
            ${e.priority === 'high' ? html`<span class="badge">${s.priority(e.priority)}</span>` : nothing}
          </li>`,
        )}
      </ul>
    </div>
  </div>`;
}

function compactionRow(row: CompactionRow, index: number, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row compaction">
    <div class="card compaction" data-status=${safeClass(row.status)}>
      <div class="label">${s.compactionStatus[row.status] ?? `${s.compaction} (${row.status})`}</div>
      ${row.summary.map((b, i) => block(b, row, ctx, `${row.key}#s${i}`))}
      ${row.error ? html`<div class="error">${row.error}</div>` : nothing}
    </div>
  </div>`;
}

function noticeRow(row: NoticeRow, index: number, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  const sev = KNOWN_SEVERITIES.has(row.severity) ? row.severity : 'other';
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row notice notice-${sev}">
    <div class="notice ${sev}" role="note">
      <strong>${s.notice[sev] ?? s.notice.other}${sev === 'other' && row.severity ? ` (${row.severity})` : ''}:</strong>
      <span class="title">${clipLabel(row.title)}</span>
      ${row.description ? html`<div class="description">${plainText(`${row.key}#d`, row.description, s, ctx.locale)}</div>` : nothing}
    </div>
  </div>`;
}

function elicitationRow(row: ElicitationRow, index: number, ctx: RowContext): TemplateResult {
  void loadElicitation().catch(() => undefined);
  const live = ctx.elicitation(row.record.id);
  const open = !row.record.resolution && live !== undefined && !live.signal.aborted;
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row elicitation">
    <div class="prompt" data-prompt=${row.record.id} ?data-pending=${open} tabindex="-1">
      <silo-elicitation
        exportparts=${ELICITATION_EXPORTPARTS}
        .record=${row.record}
        .request=${open ? live : undefined}
        .strings=${ctx.strings.elicitation}
        .locale=${ctx.locale}
      ></silo-elicitation>
    </div>
  </div>`;
}

function turnStartRow(row: TurnStartRow, index: number, ctx: RowContext): TemplateResult {
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" data-turn-start part="row turn-start">
    <div class="turn-start" data-origin=${row.origin}><span>${ctx.strings.agentTurn(row.reason)}</span></div>
  </div>`;
}

function unknownRow(row: UnknownRow, index: number, ctx: RowContext): TemplateResult {
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row unknown">
    <details class="unknown">
      <summary>${ctx.strings.unknownUpdate(row.kind)}</summary>
      <pre tabindex="0"><code>${clip(safeJson(row.raw), 4000)}</code></pre>
    </details>
  </div>`;
}
