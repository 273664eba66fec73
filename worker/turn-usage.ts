/**
 * The usage journaled with each turn's end ({@link AgentTurnEnd.usage}): what the running turn reported
 * and its prompt response said, read by the shared usage model (src/usage.ts), timed by Silo. Copilot
 * CLI's prompt response counts every token since its process started, not the turn's: for it, the
 * turn's tokens are the growth since the previous turn on the same connection.
 */
import type { ReadonlyRaw as Raw } from '../src/json.ts';
import { endingTurnUsage, type SessionState } from '../src/session-state.ts';
import type { AgentTokenCounts, AgentTurnEnd, AgentTurnUsage } from '../src/types.ts';
import { subtractTokens } from '../src/usage.ts';

/** `agentInfo.name`s whose prompt response `usage` is the process's running total (Copilot CLI 1.0.102). */
const PROCESS_TOTALS = new Set(['Copilot']);

/** Reads each turn's usage for one session. */
export class TurnUsageMeter {
  /** The last running total of an agent in {@link PROCESS_TOTALS}, and the link (process) it came on. */
  private last: { readonly link: number; readonly tokens: AgentTokenCounts } | undefined;

  /**
   * The usage of the turn that ended now with `response` (`{}` when it failed), from `state` (the
   * session state before the turn's end). `agent` is the agent's `agentInfo.name`, `link` the serial
   * of the connection the turn ran on.
   */
  ended(
    state: SessionState,
    response: Raw,
    endedAt: string,
    agent: string,
    link: number,
  ): AgentTurnEnd['usage'] {
    const usage = endingTurnUsage(state, response, endedAt);
    if (!usage?.tokens || !PROCESS_TOTALS.has(agent)) return usage;
    const total = usage.tokens;
    const before = this.last?.link === link ? this.last.tokens : undefined;
    this.last = { link, tokens: total };
    const tokens = before ? (subtractTokens(total, before) ?? total) : total;
    return { ...usage, tokens } satisfies AgentTurnUsage;
  }
}
