/**
 * Immutable row patches for the transcript model: each takes a row and an update's fields and returns
 * a new row (or the same row when nothing changes), so a renderer can compare rows by identity.
 * None of them throws on well-typed input; malformed raw fields are skipped.
 * @packageDocumentation
 */

import type { ReadonlyRaw as Raw } from '../json.ts';
import type { AgentContentBlock, AgentToolCall } from '../types.ts';
import { isObject, str } from './raw.ts';
import type {
  CompactionRow,
  ElicitationRow,
  MessagePart,
  MessageRow,
  PermissionRow,
  ToolCallRow,
  ToolCallRowCall,
  TranscriptRow,
} from './rows.ts';

/**
 * Appends one chunk to a message: text extends the last text part (or opens one), a non-text block
 * becomes a part of its own. A chunk Silo recorded of the user's prompt (it has a `timestamp`) is one
 * whole content block of it, so its text opens a part of its own too: the parts of a prompt are its
 * blocks (what Retry sends again). The row keeps its first timestamp.
 */
export function appendToMessage(
  row: MessageRow,
  text: string | undefined,
  block: AgentContentBlock | undefined,
  timestamp: string | undefined,
): MessageRow {
  let parts = row.parts;
  if (text !== undefined) {
    const lastPart = parts[parts.length - 1];
    const whole = row.role === 'user' && timestamp !== undefined;
    parts =
      lastPart?.type === 'text' && !whole
        ? [...parts.slice(0, -1), { type: 'text', text: lastPart.text + text }]
        : [...parts, { type: 'text', text }];
  } else if (block) {
    parts = [...parts, { type: 'block', block }];
  }
  return {
    ...row,
    parts: parts as MessagePart[],
    text: text !== undefined ? row.text + text : row.text,
    timestamp: row.timestamp ?? timestamp,
  };
}

/** The call of a new tool card, before any of its fields are applied: pending, kind `other`, empty. */
export function newToolCall(toolCallId: string): ToolCallRowCall {
  return { toolCallId, kind: 'other', status: 'pending', content: [], locations: [] };
}

/** Applies a tool call's fields to its card: omitted or null means unchanged; content and locations replace. */
export function patchToolCall(row: ToolCallRow, call: AgentToolCall): ToolCallRow {
  const next: Record<string, unknown> = { ...row.toolCall };
  for (const [field, value] of Object.entries(call)) {
    if (value !== undefined && value !== null && field !== 'toolCallId') next[field] = value;
  }
  return { ...row, toolCall: next as unknown as ToolCallRowCall };
}

/** The card shown cancelled when its call is still pending or in progress, else the same row. */
export function cancelIfRunning(row: ToolCallRow): ToolCallRow {
  return row.toolCall.status === 'pending' || row.toolCall.status === 'in_progress'
    ? { ...row, toolCall: { ...row.toolCall, status: 'cancelled' } }
    : row;
}

/**
 * Applies a compaction update: a `compaction_summary_chunk` appends its content block (a non-object
 * is ignored); a `compaction_update` sets the status and replaces (or, with null, clears) the summary
 * and error it carries.
 */
export function patchCompaction(row: CompactionRow, kind: string, raw: Raw): CompactionRow {
  let next: CompactionRow = row;
  if (kind === 'compaction_summary_chunk') {
    if (isObject(raw.content)) next = { ...row, summary: [...row.summary, raw.content as AgentContentBlock] };
  } else {
    next = { ...row, status: str(raw.status) ?? row.status };
    if (raw.summary === null) next = { ...next, summary: [] };
    else if (Array.isArray(raw.summary))
      next = { ...next, summary: raw.summary.filter(isObject) as AgentContentBlock[] };
    if (raw.error === null) next = { ...next, error: undefined };
    else if (typeof raw.error === 'string') next = { ...next, error: raw.error };
  }
  return next;
}

/** Overlays the defined fields of `patch` onto `base` (undefined and null mean unchanged). */
export function merge<T extends object>(base: T, patch: T): T {
  const out: Record<string, unknown> = { ...(base as object) };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined && v !== null) out[k] = v;
  return out as T;
}

/** The request record a row holds: a tool card's permission, or a request row's own record. */
export function requestRecordOf(row: TranscriptRow): { readonly resolution?: unknown } | undefined {
  return row.type === 'tool' ? row.permission?.record : (row as PermissionRow | ElicitationRow).record;
}
