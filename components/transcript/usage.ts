/**
 * The usage header of `<silo-transcript>` (context meter and cost). Part of the first paint (it sits
 * above the log, so the log's place does not move when the rows' chunk arrives).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import { formatCost, formatNumber, formatPercent } from '../shared/format.ts';
import type { SiloTranscriptStrings } from '../shared/strings/strings.ts';

/** The usage header: a context meter (used/size) and the cumulative cost. */
export function renderUsage(
  usage: { used: number; size: number; cost?: { amount: number; currency: string } },
  ctx: { readonly strings: SiloTranscriptStrings; readonly locale: string | undefined },
): TemplateResult {
  const s = ctx.strings;
  const ratio = usage.size > 0 ? Math.min(1, usage.used / usage.size) : 0;
  const text = s.usage(
    formatNumber(usage.used, ctx.locale),
    formatNumber(usage.size, ctx.locale),
    formatPercent(ratio, ctx.locale),
  );
  return html`<div class="usage" part="usage">
    <meter part="usage-meter" min="0" max=${usage.size} value=${usage.used} low=${usage.size * 0.7} high=${usage.size * 0.9} optimum="0" aria-label=${s.contextUsed}></meter>
    <span class="usage-text">${text}</span>
    ${usage.cost ? html`<span class="cost" part="usage-cost">${s.cost(formatCost(usage.cost.amount, usage.cost.currency, ctx.locale))}</span>` : nothing}
  </div>`;
}
