/**
 * A subagent's work inside the card of the call that launched it (`ToolCallRow.subagent`): a native
 * `<details>`, folded by default (a card the user opened stays so while the page lives), whose
 * summary names the subagent, its step count and its state, over its task, its own rows (drawn by
 * the same row templates, passed in by rows.ts) and its answer. Its rows are not rows of the log:
 * keyboard navigation and find go by the log's own rows (rows/navigation.ts takes the outermost row).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SubagentView, ToolCallRow, TranscriptRow } from '../../../src/index.ts';
import { formatNumber, safeClass } from '../../shared/format.ts';
import type { BlockRenderer, RowContext } from './row-context.ts';

/** Draws a subagent's rows (rows.ts's row templates). */
export type NestedRows = (rows: readonly TranscriptRow[]) => unknown;

/** Open or closed as the user left each subagent, by card key (bounded: the oldest goes first). */
const userOpen = new Map<string, boolean>();
const USER_OPEN_CAPACITY = 500;

function onToggle(key: string) {
  return (e: Event) => {
    const open = (e.currentTarget as HTMLDetailsElement).open;
    if (open === (userOpen.get(key) ?? false)) return;
    userOpen.delete(key);
    userOpen.set(key, open);
    if (userOpen.size > USER_OPEN_CAPACITY) userOpen.delete(userOpen.keys().next().value!);
  };
}

/** The state the summary names: the child's work state, else the card's status. */
function stateOf(v: SubagentView, row: ToolCallRow, ctx: RowContext): string {
  const s = ctx.strings;
  if (v.state) return s.subagentState[v.state] ?? v.state;
  return s.toolStatus[row.toolCall.status] ?? row.toolCall.status;
}

/** The subagent of a tool card. */
export function subagentView(
  row: ToolCallRow,
  ctx: RowContext,
  block: BlockRenderer,
  nested: NestedRows,
): TemplateResult {
  const s = ctx.strings;
  const v = row.subagent!;
  const steps = v.rows.filter((r) => r.type !== 'turn-end').length;
  const text = (t: string, part: string) => block({ type: 'text', text: t }, v, ctx, `${row.key}#${part}`);
  return html`<details
    class="subagent"
    part="subagent"
    data-state=${safeClass(v.state ?? row.toolCall.status)}
    .open=${userOpen.get(row.key) ?? false}
    @toggle=${onToggle(row.key)}
  >
    <summary part="subagent-summary">
      <span class="title">${s.subagent(v.title ?? v.description ?? '')}</span>
      <span class="muted">${s.subagentSteps(formatNumber(steps, ctx.locale))}</span>
      <span class="muted">${stateOf(v, row, ctx)}</span>
    </summary>
    ${v.prompt ? html`<div class="subagent-task" part="subagent-task"><div class="label">${s.subagentTask}</div>${text(v.prompt, 'task')}</div>` : nothing}
    <div class="subagent-rows" part="subagent-rows">${nested(v.rows)}</div>
    ${v.reply ? html`<div class="subagent-answer" part="subagent-answer"><div class="label">${s.subagentAnswer}</div>${text(v.reply, 'answer')}</div>` : nothing}
  </details>`;
}
