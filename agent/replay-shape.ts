/**
 * `--replay-shape codex|gemini`: a `session/load` replay shaped the way codex-acp or Gemini CLI
 * replay a session, which differs from what they send live (docs/agents.md):
 * - `codex`: every tool call replayed once, already final (`completed` unless it failed; no
 *   pending → completed sequence); shell tool calls (kind `execute`) titled `exec_command` with no
 *   `kind`; each `plan` update replayed as an `update_plan` tool call (its steps in `rawInput.plan`);
 *   the agent text and thoughts of cancelled turns dropped;
 * - `gemini`: a hidden first user message `<session_context>…</session_context>`; each tool call as an
 *   agent chunk `[Function Call: <title>]` and a user chunk `[Function Response: <title>]`; the tool
 *   calls themselves grouped after the last turn; plans dropped; cancelled turns omitted.
 * Neither sends message ids. Pure: the stored history is never changed.
 */
import { randomUUID } from 'node:crypto';

/** A raw `session/update` object as stored in a session's history. */
export type HistoryUpdate = Record<string, unknown>;

/** Where a turn starts in the history (its first prompt chunk) and how it ended. */
export interface TurnMark {
  readonly at: number;
  readonly stopReason: string;
}

/** The replay shapes `--replay-shape` takes. */
export const REPLAY_SHAPES = ['codex', 'gemini'] as const;
export type ReplayShape = (typeof REPLAY_SHAPES)[number];

interface Turn {
  readonly updates: readonly HistoryUpdate[];
  readonly cancelled: boolean;
}

/** The history split at its turn marks (updates before the first mark form a turn of their own). */
function turnsOf(history: readonly HistoryUpdate[], marks: readonly TurnMark[]): Turn[] {
  const starts = [...marks].sort((a, b) => a.at - b.at);
  const turns: Turn[] = [];
  const first = starts[0]?.at ?? history.length;
  if (first > 0) turns.push({ updates: history.slice(0, first), cancelled: false });
  starts.forEach((mark, i) => {
    const end = starts[i + 1]?.at ?? history.length;
    turns.push({ updates: history.slice(mark.at, end), cancelled: mark.stopReason === 'cancelled' });
  });
  return turns;
}

/** Each tool call of `updates` with its later patches folded in, by id, in announcement order. */
function finalCalls(updates: readonly HistoryUpdate[]): Map<string, HistoryUpdate> {
  const calls = new Map<string, HistoryUpdate>();
  for (const u of updates) {
    const id = u.toolCallId;
    if (typeof id !== 'string') continue;
    if (u.sessionUpdate === 'tool_call') calls.set(id, { ...u });
    else if (u.sessionUpdate === 'tool_call_update') {
      const { sessionUpdate: _, ...patch } = u;
      const base = calls.get(id) ?? { sessionUpdate: 'tool_call', toolCallId: id, title: '' };
      const merged: HistoryUpdate = { ...base };
      for (const [k, v] of Object.entries(patch)) if (v !== undefined && v !== null) merged[k] = v;
      calls.set(id, merged);
    }
  }
  for (const call of calls.values()) if (call.status !== 'failed') call.status = 'completed';
  return calls;
}

function codex(turns: readonly Turn[]): HistoryUpdate[] {
  const out: HistoryUpdate[] = [];
  let plans = 0;
  for (const turn of turns) {
    const calls = finalCalls(turn.updates);
    for (const u of turn.updates) {
      const kind = u.sessionUpdate;
      if (kind === 'agent_message_chunk' || kind === 'agent_thought_chunk') {
        if (!turn.cancelled) out.push(u);
      } else if (kind === 'tool_call' || kind === 'tool_call_update') {
        const id = u.toolCallId as string;
        const call = calls.get(id);
        if (!call) continue; // already replayed once
        calls.delete(id);
        if (call.kind !== 'execute') out.push(call);
        else {
          const { kind: _, ...shell } = call;
          out.push({ ...shell, title: 'exec_command' });
        }
      } else if (kind === 'plan') {
        const entries = Array.isArray(u.entries) ? (u.entries as HistoryUpdate[]) : [];
        out.push({
          sessionUpdate: 'tool_call',
          toolCallId: `update_plan-${++plans}`,
          title: 'update_plan',
          status: 'completed',
          rawInput: { plan: entries.map((e) => ({ step: e.content, status: e.status })) },
        });
      } else out.push(u);
    }
  }
  return out;
}

/** The hidden context Gemini CLI replays as the session's first user message. */
export const GEMINI_SESSION_CONTEXT =
  '<session_context>\nThis is the Gemini CLI. The date is today; the working directory is the session cwd.\n</session_context>';

const text = (t: string) => ({ type: 'text', text: t });

function gemini(turns: readonly Turn[]): HistoryUpdate[] {
  const out: HistoryUpdate[] = [
    { sessionUpdate: 'user_message_chunk', content: text(GEMINI_SESSION_CONTEXT) },
  ];
  const grouped: HistoryUpdate[] = [];
  for (const turn of turns) {
    if (turn.cancelled) continue;
    const calls = finalCalls(turn.updates);
    for (const u of turn.updates) {
      const kind = u.sessionUpdate;
      if (kind === 'plan' || kind === 'tool_call_update') continue;
      if (kind !== 'tool_call') {
        out.push(u);
        continue;
      }
      const call = calls.get(u.toolCallId as string)!;
      const name = String(call.title ?? '');
      out.push({ sessionUpdate: 'agent_message_chunk', content: text(`\n[Function Call: ${name}]`) });
      out.push({ sessionUpdate: 'user_message_chunk', content: text(`[Function Response: ${name}]`) });
      grouped.push(call);
    }
  }
  return [...out, ...grouped];
}

/** The `session/load` replay of `history` in `shape`; `marks` say where each turn starts and how it ended. */
export function shapeReplay(
  history: readonly HistoryUpdate[],
  marks: readonly TurnMark[],
  shape: ReplayShape,
): HistoryUpdate[] {
  const turns = turnsOf(history, marks);
  // Neither agent sends message ids, live or replayed.
  return (shape === 'codex' ? codex(turns) : gemini(turns)).map(({ messageId: _, ...u }) => u);
}

/**
 * What `session/load` replays of a session: its history as stored, with fresh message ids under
 * `--new-ids-on-load`, or shaped under `--replay-shape`.
 */
export function loadReplay(
  record: { readonly history: readonly HistoryUpdate[]; readonly turns?: readonly TurnMark[] },
  options: { readonly newIdsOnLoad: boolean; readonly replayShape: ReplayShape | undefined },
): HistoryUpdate[] {
  if (options.replayShape) return shapeReplay(record.history, record.turns ?? [], options.replayShape);
  const ids = new Map<string, string>();
  return record.history.map((update) => {
    if (!options.newIdsOnLoad || typeof update.messageId !== 'string') return update;
    const old = update.messageId;
    if (!ids.has(old)) ids.set(old, `${old}-r${randomUUID().slice(0, 4)}`);
    return { ...update, messageId: ids.get(old) };
  });
}
