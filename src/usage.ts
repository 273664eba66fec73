/**
 * Usage in every shape agents report it, read into one model ({@link AgentTurnUsage} per turn,
 * {@link AgentTokenCounts} per session). Pure and total: malformed counts are dropped, nothing throws.
 * The session-state reducer (src/session-state.ts) folds these into a session's state; the worker
 * journals each turn's usage with its end.
 *
 * The shapes (read from each agent's code; docs/agents.md, "Usage"):
 * - ACP `usage` on the prompt response (`totalTokens`, `inputTokens`, `outputTokens`, `thoughtTokens`,
 *   `cachedReadTokens`, `cachedWriteTokens`): claude-agent-acp, codex-acp, OpenCode, Copilot CLI;
 * - `_meta.quota.token_count` on the prompt response: camelCase in claude-agent-acp and codex-acp
 *   (`cachedInputTokens`, `cachedWriteTokens` / `cacheWriteInputTokens`, `reasoningOutputTokens`),
 *   snake_case with no total in Gemini CLI (`input_tokens`, `output_tokens`);
 * - Qwen Code: an `agent_message_chunk` with empty text and `_meta.usage` (ACP's counts, one per model
 *   request) and `_meta.durationMs` (that request's time), several per turn;
 * - `usage_update` (`used`, `size`, cumulative `cost`): the context meter, not a turn's tokens.
 * @packageDocumentation
 */
import { isObject, type ReadonlyRaw as Raw } from './json.ts';
import type { AgentTokenCounts, AgentTurnUsage } from './types.ts';

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/** The optional counts, in the order they are summed and shown. */
const PARTS = ['input', 'output', 'thought', 'cachedRead', 'cachedWrite'] as const;
type Part = (typeof PARTS)[number];

/** Each part's field names in the shapes agents send (then Silo's own), first match wins. */
const FIELDS: Readonly<Record<Part | 'total', readonly string[]>> = {
  total: ['totalTokens', 'total_tokens', 'total'],
  input: ['inputTokens', 'input_tokens', 'input'],
  output: ['outputTokens', 'output_tokens', 'output'],
  thought: ['thoughtTokens', 'reasoningOutputTokens', 'reasoning_output_tokens', 'thought'],
  cachedRead: ['cachedReadTokens', 'cachedInputTokens', 'cached_input_tokens', 'cachedRead'],
  cachedWrite: ['cachedWriteTokens', 'cacheWriteInputTokens', 'cachedWrite'],
};

function field(counts: Raw, names: readonly string[]): number | undefined {
  for (const name of names) {
    const n = count(counts[name]);
    if (n !== undefined) return n;
  }
  return undefined;
}

/**
 * Token counts from one counts object in any of the shapes above; `undefined` when it holds none.
 * Without a total, the total is input + output (Gemini CLI sends no total).
 */
export function readTokenCounts(counts: unknown): AgentTokenCounts | undefined {
  if (!isObject(counts)) return undefined;
  const out: { -readonly [K in keyof AgentTokenCounts]: AgentTokenCounts[K] } = { total: 0 };
  for (const part of PARTS) {
    const n = field(counts, FIELDS[part]);
    if (n !== undefined) out[part] = n;
  }
  const total = field(counts, FIELDS.total);
  if (total !== undefined) out.total = total;
  else if (out.input !== undefined || out.output !== undefined)
    out.total = (out.input ?? 0) + (out.output ?? 0);
  else return undefined;
  return out;
}

/** A prompt response's token counts: its `usage`, else its `_meta.quota.token_count`. */
export function responseTokens(response: Raw): AgentTokenCounts | undefined {
  const meta = isObject(response._meta) ? response._meta : undefined;
  const quota = meta && isObject(meta.quota) ? meta.quota : undefined;
  return readTokenCounts(response.usage) ?? readTokenCounts(quota?.token_count);
}

/**
 * The usage an update reports for one model request of the running turn: Qwen Code's
 * `agent_message_chunk` whose `_meta` holds `usage` (and `durationMs`). `undefined` for anything else.
 */
export function requestUsage(kind: string, raw: Raw): AgentTurnUsage | undefined {
  if (kind !== 'agent_message_chunk' || !isObject(raw._meta)) return undefined;
  const tokens = readTokenCounts(raw._meta.usage);
  if (!tokens) return undefined;
  const durationMs = count(raw._meta.durationMs);
  return durationMs === undefined ? { tokens } : { tokens, durationMs };
}

/** `a + b`, part by part (a part only one side has is kept as it is). */
export function addTokens(
  a: AgentTokenCounts | undefined,
  b: AgentTokenCounts | undefined,
): AgentTokenCounts | undefined {
  if (!a || !b) return a ?? b;
  const out: { -readonly [K in keyof AgentTokenCounts]: AgentTokenCounts[K] } = { total: a.total + b.total };
  for (const part of PARTS) {
    if (a[part] !== undefined || b[part] !== undefined) out[part] = (a[part] ?? 0) + (b[part] ?? 0);
  }
  return out;
}

/** `a − b`, part by part, or `undefined` when some part would fall below zero. */
export function subtractTokens(a: AgentTokenCounts, b: AgentTokenCounts): AgentTokenCounts | undefined {
  if (a.total < b.total) return undefined;
  const out: { -readonly [K in keyof AgentTokenCounts]: AgentTokenCounts[K] } = { total: a.total - b.total };
  for (const part of PARTS) {
    if (a[part] === undefined) continue;
    const d = a[part]! - (b[part] ?? 0);
    if (d < 0) return undefined;
    out[part] = d;
  }
  return out;
}

/** Adds one request's usage to what the turn reported so far. */
export function addUsage(a: AgentTurnUsage | undefined, b: AgentTurnUsage): AgentTurnUsage {
  const tokens = addTokens(a?.tokens, b.tokens);
  const durationMs =
    a?.durationMs !== undefined || b.durationMs !== undefined
      ? (a?.durationMs ?? 0) + (b.durationMs ?? 0)
      : undefined;
  return { ...(tokens ? { tokens } : {}), ...(durationMs !== undefined ? { durationMs } : {}) };
}

/** What a turn reported while it ran, and when it started (the prompt's time, as Silo recorded it). */
export interface TurnReports {
  readonly startedAt?: string;
  readonly reported?: AgentTurnUsage;
}

/**
 * A turn's usage when it ends: the prompt response's tokens, else the ones its requests reported;
 * the time from `startedAt` to `endedAt`, else the requests' own durations summed. `undefined` when
 * nothing is known.
 */
export function turnUsage(
  reports: TurnReports | undefined,
  response: Raw,
  endedAt: string | undefined,
): AgentTurnUsage | undefined {
  const tokens = responseTokens(response) ?? reports?.reported?.tokens;
  const start = reports?.startedAt ? Date.parse(reports.startedAt) : Number.NaN;
  const end = endedAt ? Date.parse(endedAt) : Number.NaN;
  const timed = end >= start ? end - start : undefined;
  const durationMs = timed ?? reports?.reported?.durationMs;
  if (!tokens && durationMs === undefined) return undefined;
  return { ...(tokens ? { tokens } : {}), ...(durationMs !== undefined ? { durationMs } : {}) };
}

/** A journaled turn end's usage, when it is well formed (a journal may hold anything). */
export function journaledUsage(usage: unknown): AgentTurnUsage | undefined {
  if (!isObject(usage)) return undefined;
  const tokens = readTokenCounts(usage.tokens);
  const durationMs = count(usage.durationMs);
  if (!tokens && durationMs === undefined) return undefined;
  return { ...(tokens ? { tokens } : {}), ...(durationMs !== undefined ? { durationMs } : {}) };
}
