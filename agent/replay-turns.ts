/**
 * A session's stored history read as turns, for the `session/load` replay shapes (replay-shape.ts):
 * where each turn starts and how it ended ({@link TurnMark}, kept with the session), whether its
 * prompt is one of the agent's own commands, and what became of its tool calls. Pure, and free of
 * Node imports like replay-shape.ts.
 */

/** A raw `session/update` object as stored in a session's history. */
export type HistoryUpdate = Record<string, unknown>;

/**
 * Where a turn starts in the history (its first prompt chunk) and how it ended: a stop reason, or
 * {@link OPEN_TURN} while its prompt has no answer (so for good when the process died meanwhile).
 */
export interface TurnMark {
  readonly at: number;
  readonly stopReason: string;
}

/** The {@link TurnMark} stop reason of a turn that has not ended. */
export const OPEN_TURN = 'open';

/**
 * The reference agent's commands besides `/scenario` (agent/scenarios/tools.ts `COMMANDS`): the
 * ones the shapes treat as run by the agent itself.
 */
export const AGENT_COMMANDS = ['review', 'web'] as const;

/** One turn of the history: its updates, from its first prompt chunk, and how it ended. */
export interface Turn {
  readonly updates: readonly HistoryUpdate[];
  readonly cancelled: boolean;
  /** It never ended: its process died with its prompt unanswered. */
  readonly open: boolean;
  /** Its prompt is one of {@link AGENT_COMMANDS}: the name and its arguments. */
  readonly command?: { readonly name: string; readonly args: string };
}

const COMMAND = new RegExp(`^\\s*/(${AGENT_COMMANDS.join('|')})(?:\\s+([\\s\\S]*))?$`);

/** The text of a chunk update (empty when it has none). */
export const textOf = (u: HistoryUpdate) => String((u.content as { text?: unknown } | undefined)?.text ?? '');

function commandOf(updates: readonly HistoryUpdate[]): Turn['command'] {
  const first = updates[0];
  if (first?.sessionUpdate !== 'user_message_chunk') return undefined;
  const m = COMMAND.exec(textOf(first));
  return m ? { name: m[1]!, args: (m[2] ?? '').trim() } : undefined;
}

/** The history split at its turn marks (updates before the first mark form a turn of their own). */
export function turnsOf(history: readonly HistoryUpdate[], marks: readonly TurnMark[]): Turn[] {
  const starts = [...marks].sort((a, b) => a.at - b.at);
  const turns: Turn[] = [];
  const first = starts[0]?.at ?? history.length;
  if (first > 0) turns.push({ updates: history.slice(0, first), cancelled: false, open: false });
  starts.forEach((mark, i) => {
    const updates = history.slice(mark.at, starts[i + 1]?.at ?? history.length);
    const command = commandOf(updates);
    turns.push({
      updates,
      cancelled: mark.stopReason === 'cancelled',
      open: mark.stopReason === OPEN_TURN,
      ...(command ? { command } : {}),
    });
  });
  return turns;
}

/** The turns without those of the agent's own commands (claude, codex and copilot keep none). */
export const withoutCommands = (turns: readonly Turn[]) => turns.filter((t) => !t.command);

/** Each tool call of `updates` with its later patches folded in, by id, in announcement order. */
export function finalCalls(updates: readonly HistoryUpdate[]): Map<string, HistoryUpdate> {
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

/** The ids of the calls in `updates` that reached `completed` or `failed`. */
export function finished(updates: readonly HistoryUpdate[]): Set<unknown> {
  const ids = new Set<unknown>();
  for (const u of updates) if (u.status === 'completed' || u.status === 'failed') ids.add(u.toolCallId);
  return ids;
}
