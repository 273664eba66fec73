/**
 * Immutable row patches for the transcript model: each takes a row and an update's fields and returns
 * a new row (or the same row when nothing changes), so a renderer can compare rows by identity.
 * None of them throws on well-typed input; malformed raw fields are skipped.
 * @packageDocumentation
 */

import type { ReadonlyRaw as Raw } from '../json.ts';
import { isObject, str } from '../json.ts';
import type { AgentContentBlock, AgentPermissionRecord, AgentTerminal, AgentToolCall } from '../types.ts';
import type {
  CompactionRow,
  ElicitationRow,
  MessagePart,
  MessageRow,
  PermissionRow,
  SubagentView,
  TerminalState,
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
  // A message of one text part (most are) holds one string, not two equal ones built side by side.
  const only = parts.length === 1 ? parts[0] : undefined;
  return {
    ...row,
    parts: parts as MessagePart[],
    text: text === undefined ? row.text : only?.type === 'text' ? only.text : row.text + text,
    timestamp: row.timestamp ?? timestamp,
  };
}

/** The call of a new tool card, before any of its fields are applied: pending, kind `other`, empty. */
export function newToolCall(toolCallId: string): ToolCallRowCall {
  return { toolCallId, kind: 'other', status: 'pending', content: [], locations: [] };
}

/**
 * Applies a tool call's fields to its card: omitted or null means unchanged; content and locations
 * replace; a terminal report is folded into the card's terminal of its id ({@link foldTerminal}).
 */
export function patchToolCall(row: ToolCallRow, call: AgentToolCall): ToolCallRow {
  const next: Record<string, unknown> = { ...row.toolCall };
  for (const [field, value] of Object.entries(call)) {
    if (value === undefined || value === null || field === 'toolCallId') continue;
    if (field === 'terminal') next.terminals = foldTerminal(row.toolCall.terminals ?? [], value);
    else next[field] = value;
  }
  return { ...row, toolCall: next as unknown as ToolCallRowCall };
}

/**
 * The terminals with one report folded into the terminal of its id (a new one goes last): its
 * output replaces the output so far, or with `append` extends it; an exit is kept once it came.
 */
export function foldTerminal(
  terminals: readonly TerminalState[],
  t: AgentTerminal,
): readonly TerminalState[] {
  if (typeof t?.id !== 'string') return terminals;
  const at = terminals.findIndex((x) => x.id === t.id);
  const prev: TerminalState = terminals[at] ?? { id: t.id, output: '', exited: false };
  const output = typeof t.output === 'string' ? t.output : undefined;
  const next: TerminalState = {
    ...prev,
    output: output === undefined ? prev.output : t.append ? prev.output + output : output,
    ...(typeof t.cwd === 'string' ? { cwd: t.cwd } : {}),
    ...(t.exited ? { exited: true, exitCode: t.exitCode ?? null, signal: t.signal ?? null } : {}),
  };
  return at < 0 ? [...terminals, next] : terminals.map((x, i) => (i === at ? next : x));
}

/** The tool-call id of the card Silo opens for an ACP child session (its launch call is not shown). */
export function subagentCallId(sessionId: string): string {
  return `subagent:${sessionId}`;
}

/** A card's status from its child session's work state, or undefined (unknown, not told). */
function statusOfState(
  state: string | undefined,
  stopReason: string | undefined,
): ToolCallRowCall['status'] | undefined {
  if (state === 'running' || state === 'requires_action') return 'in_progress';
  if (state !== 'idle') return undefined;
  return stopReason === 'cancelled' ? 'cancelled' : stopReason === 'error' ? 'failed' : 'completed';
}

/**
 * A card with `patch` merged into its subagent view (an `undefined` in it clears the field); the
 * card Silo opened for a child session takes the child's title (else its description) and work state.
 */
export function patchSubagent(row: ToolCallRow, patch: Partial<SubagentView>): ToolCallRow {
  const subagent: SubagentView = { rows: [], ...row.subagent, ...patch };
  let toolCall = row.toolCall;
  if (subagent.sessionId !== undefined && toolCall.toolCallId === subagentCallId(subagent.sessionId)) {
    const title = subagent.title ?? subagent.description;
    const status = statusOfState(subagent.state, subagent.stopReason) ?? toolCall.status;
    toolCall = { ...toolCall, ...(title ? { title } : {}), status };
  }
  return { ...row, toolCall, subagent };
}

/**
 * The card shown `status` (`cancelled`, or `interrupted` when its turn was cut off) when its call is
 * still pending or in progress, else the same row.
 */
export function endIfRunning(row: ToolCallRow, status: 'cancelled' | 'interrupted'): ToolCallRow {
  return row.toolCall.status === 'pending' || row.toolCall.status === 'in_progress'
    ? { ...row, toolCall: { ...row.toolCall, status } }
    : row;
}

/**
 * The card of a call whose permission was granted (an `allow_*` option chosen) shown running when it
 * is still pending: an agent may never report `in_progress` (Claude's Bash), else the same row.
 */
export function runIfApproved(row: ToolCallRow, record: AgentPermissionRecord): ToolCallRow {
  if (record.resolution !== 'selected' || row.toolCall.status !== 'pending') return row;
  const kind = record.options?.find((o) => o.optionId === record.optionId)?.kind ?? '';
  return kind.startsWith('allow') ? { ...row, toolCall: { ...row.toolCall, status: 'in_progress' } } : row;
}

/** How far along each status is: a `tool_call` that comes after updates of its id never moves it back. */
const PROGRESS: Readonly<Record<string, number>> = { pending: 0, in_progress: 1 };

/**
 * Applies a `tool_call` that arrived after updates of the same id had already drawn its card (Cline
 * patches a call before announcing it): its fields fill what the card lacks, its content and
 * locations go before the card's, and its status counts only if it is further along.
 */
export function patchLateAnnouncement(row: ToolCallRow, call: AgentToolCall): ToolCallRow {
  const card = row.toolCall;
  const next: Record<string, unknown> = { ...card };
  for (const [field, value] of Object.entries(call)) {
    if (value === undefined || value === null || field === 'toolCallId') continue;
    if (field === 'content' || field === 'locations') {
      const theirs = value as readonly unknown[];
      const mine = card[field] as readonly unknown[];
      const known = new Set(mine.map((x) => JSON.stringify(x)));
      next[field] = [...theirs.filter((x) => !known.has(JSON.stringify(x))), ...mine];
    } else if (field === 'status') {
      if ((PROGRESS[String(value)] ?? 2) > (PROGRESS[card.status] ?? 2)) next.status = value;
    } else if (field === 'kind') {
      if (card.kind === 'other') next.kind = value;
    } else if (next[field] === undefined) next[field] = value;
  }
  return { ...row, toolCall: next as unknown as ToolCallRowCall };
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
