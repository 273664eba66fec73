/**
 * The usage header of `<silo-transcript>` (context meter, cost, the session's tokens), and the token
 * figures a turn's end shows. Part of the first paint (it sits above the log, so the log's place does
 * not move when the rows' chunk arrives).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentSessionUsage, AgentTokenCounts } from '../../src/index.ts';
import { formatCompact, formatCost, formatNumber, formatPercent } from '../shared/format.ts';
import type { SiloTranscriptStrings } from '../shared/strings/strings.ts';

/** What the usage header shows: the context meter and cost (`usage_update`), the session's tokens. */
export interface UsageView {
  readonly usage?: AgentSessionUsage;
  readonly tokens?: AgentTokenCounts;
}

interface UsageContext {
  readonly strings: SiloTranscriptStrings;
  readonly locale: string | undefined;
}

/** The full counts of `tokens` in words (a tooltip beside a short figure). */
export function tokensDetail(tokens: AgentTokenCounts, ctx: UsageContext): string {
  const n = (v: number | undefined) => (v === undefined ? '' : formatNumber(v, ctx.locale));
  return ctx.strings.tokensDetail(n(tokens.total), n(tokens.input), n(tokens.output));
}

/** The usage header, or nothing when neither the context nor the session's tokens are known. */
export function renderUsage(v: UsageView, ctx: UsageContext): TemplateResult | typeof nothing {
  const { usage, tokens } = v;
  if (!usage && !tokens) return nothing;
  const s = ctx.strings;
  const ratio = usage && usage.size > 0 ? Math.min(1, usage.used / usage.size) : 0;
  return html`<div class="usage" part="usage">
    ${
      usage
        ? html`<meter part="usage-meter" min="0" max=${usage.size} value=${usage.used} low=${usage.size * 0.7} high=${usage.size * 0.9} optimum="0" aria-label=${s.contextUsed}></meter>
          <span class="usage-text">${s.usage(formatNumber(usage.used, ctx.locale), formatNumber(usage.size, ctx.locale), formatPercent(ratio, ctx.locale))}</span>`
        : nothing
    }
    ${
      tokens
        ? html`<span class="session-tokens" part="usage-tokens" title=${tokensDetail(tokens, ctx)}>${s.sessionTokens(formatCompact(tokens.total, ctx.locale))}</span>`
        : nothing
    }
    ${usage?.cost ? html`<span class="cost" part="usage-cost">${s.cost(formatCost(usage.cost.amount, usage.cost.currency, ctx.locale))}</span>` : nothing}
  </div>`;
}
