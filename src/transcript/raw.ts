/**
 * Readers of an update's raw payload for the transcript model. The payload is agent text and untrusted:
 * every reader checks types and returns `undefined` (or an empty value) on malformed input, never throws.
 * @packageDocumentation
 */

import { isObject, type ReadonlyRaw as Raw, str } from '../json.ts';
import type { AgentPlanEntry, AgentSessionUpdate, AgentToolCall } from '../types.ts';
import type { MessageRow } from './rows.ts';

/** The message role of each message-chunk kind; other kinds are absent. */
export const ROLE_OF_KIND: Readonly<Record<string, MessageRow['role']>> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
};

/** The update's kind, or `'invalid'` when it has none (a malformed update never throws). */
export function kindOf(u: AgentSessionUpdate): string {
  return typeof u?.kind === 'string' ? u.kind : 'invalid';
}

/** Fields of a tool call read from its `_meta`, not from a field of the same name. */
const META_FIELDS = new Set(['terminal']);

/**
 * The fields of a repeated `tool_call` the agent actually sent (present and non-null in `raw`, or
 * read from its `_meta`), so the upsert patches only those; `toolCallId` is always kept.
 */
export function sentFields(call: AgentToolCall, raw: Raw): AgentToolCall {
  const out: Record<string, unknown> = { toolCallId: call.toolCallId };
  for (const [k, v] of Object.entries(call))
    if ((raw[k] !== undefined && raw[k] !== null) || META_FIELDS.has(k)) out[k] = v;
  return out as unknown as AgentToolCall;
}

/** A minimal tool call (id and title) read from a raw payload; `undefined` when it has no string id. */
export function toolCallFromRaw(raw: Raw): AgentToolCall | undefined {
  const id = str(raw.toolCallId);
  if (id === undefined) return undefined;
  return { toolCallId: id, title: str(raw.title) };
}

/**
 * A `plan` update's entries: the parsed `plan`, else the raw `entries` that have string content
 * (others are dropped), else none.
 */
export function planEntries(u: AgentSessionUpdate, raw: Raw): readonly AgentPlanEntry[] {
  return (
    u.plan ??
    (Array.isArray(raw.entries)
      ? raw.entries.filter(
          (e): e is { content: string; priority: string; status: string } =>
            isObject(e) && typeof e.content === 'string',
        )
      : [])
  );
}

/**
 * What started a model turn, from the `_meta["_claude/origin"].kind` claude-agent-acp puts on a
 * turn's last `usage_update` (`human`, or `task-notification` for a turn it began when a background
 * task finished); undefined when absent.
 */
export function originOf(raw: Raw): string | undefined {
  const origin = isObject(raw._meta) ? raw._meta['_claude/origin'] : undefined;
  return isObject(origin) ? str(origin.kind) : undefined;
}
