/**
 * The row that ends a turn: how it ended ("Done", "Cancelled", …), then how long it took and the
 * tokens it used when they are known ("Done · 12 s · 3.4K tokens"; the full counts in the figure's
 * title), then its actions in one row: Retry / Continue on the last turn (`turn-actions`) and "Branch
 * from here" where the transcript offers branching.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { TurnEndRow } from '../../../src/index.ts';
import { clipLabel } from '../../content/text-budget.ts';
import { formatCompact, formatDuration, safeClass } from '../../shared/format.ts';
import { stopText } from '../../shared/strings/strings.ts';
import { tokensDetail } from '../usage.ts';
import type { RowContext } from './row-context.ts';

/**
 * The turn-end row (`part="row turn-end"`): `turn-duration` and `turn-tokens` beside the outcome, then
 * `turn-retry` / `turn-continue` (`ctx.turnActions`) and "Branch from here" (`branch`) when offered.
 */
export function turnEndRow(row: TurnEndRow, index: number, ctx: RowContext): TemplateResult {
  const s = ctx.strings;
  const reason = row.stopReason;
  const text = stopText(s, reason, reason === 'error' ? clipLabel(row.error?.message ?? '') : '');
  const actions = ctx.turnActions(row.key, reason);
  return html`<div class="row" data-index=${index} data-key=${row.key} tabindex="-1" role="article" aria-posinset=${index + 1 || nothing} aria-setsize=${ctx.rowCount} part="row turn-end">
    <div class="turn-end" data-stop-reason=${safeClass(reason)}><span><span>${text}</span>${
      row.durationMs !== undefined
        ? html`<span class="muted" part="turn-duration"> · ${formatDuration(row.durationMs, s, ctx.locale)}</span>`
        : nothing
    }${
      row.tokens
        ? html`<span class="muted" part="turn-tokens" title=${tokensDetail(row.tokens, ctx)}> · ${s.turnTokens(
            formatCompact(row.tokens.total, ctx.locale),
            row.tokens.input === undefined ? '' : formatCompact(row.tokens.input, ctx.locale),
            row.tokens.output === undefined ? '' : formatCompact(row.tokens.output, ctx.locale),
          )}</span>`
        : nothing
    }</span>${actions.map((a) =>
      a === 'continue'
        ? html` <button type="button" class="turn-action" part="turn-continue" title=${s.continueTurnLabel} @click=${() => ctx.turnAction(a)}>${s.continueTurn}</button>`
        : html` <button type="button" class="turn-action" part="turn-retry" title=${s.retryTurnLabel} @click=${() => ctx.turnAction(a)}>${s.retryTurn}</button>`,
    )}${
      ctx.branch && row.seq !== undefined
        ? html`<button type="button" class="branch" part="branch" title=${s.branchHint} @click=${() => ctx.branch?.(row.turn)}>${s.branch}</button>`
        : nothing
    }</div>
  </div>`;
}
