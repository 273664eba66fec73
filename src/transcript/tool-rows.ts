/**
 * The tool cards of the transcript model: one card per tool call, drawn by whichever update of it
 * comes first (a `tool_call`, a `tool_call_update`, or its permission request), patched in place by
 * the rest, and never left running once its turn is over.
 * @packageDocumentation
 */

import type { ReadonlyRaw as Raw } from '../json.ts';
import type { AgentPermissionRecord, AgentToolCall } from '../types.ts';
import {
  endIfRunning,
  newToolCall,
  patchLateAnnouncement,
  patchSubagent,
  patchToolCall,
  runIfApproved,
  subagentCallId,
} from './patch.ts';
import { sentFields } from './raw.ts';
import type { SubagentView, ToolCallRow } from './rows.ts';
import { RowStore } from './store.ts';
import type { SubagentHost } from './subagents.ts';

/**
 * Rows with tool cards; subclassed by the request rows (request-rows.ts) and through them by the
 * transcript model, which says which turn is running. The
 * cards are also what the subagent router (subagents.ts) draws a subagent's work in.
 */
export abstract class ToolRows extends RowStore implements Omit<SubagentHost, 'apply'> {
  /** Keys of the cards drawn in the running turn. */
  protected turnTools: string[] = [];
  /** Cards a `tool_call_update` drew before their `tool_call` came (Cline). */
  private readonly unannounced = new Set<string>();

  /** The current turn number. */
  protected abstract get turnNumber(): number;
  /** Whether a turn is running. */
  protected abstract get inTurn(): boolean;

  /**
   * A `tool_call` or `tool_call_update`. A repeated `tool_call` is an upsert: only the fields the
   * agent actually sent patch the card. A `tool_call` reusing the id of an earlier turn's call is a
   * new call with a card of its own. A `tool_call` after updates drew its card fills in what they
   * lacked and never moves the card back (see patchLateAnnouncement).
   */
  protected toolUpdate(kind: string, call: AgentToolCall, raw: Raw, seq: number | undefined): number {
    const card = this.toolRow(call.toolCallId);
    if (kind === 'tool_call' && card !== undefined && this.rows[card]!.turn !== this.turnNumber)
      return this.tool(call, seq, true);
    if (kind === 'tool_call' && card !== undefined && this.unannounced.delete(this.rows[card]!.key)) {
      this.rows[card] = patchLateAnnouncement(this.rows[card] as ToolCallRow, sentFields(call, raw));
      return card;
    }
    const at = this.tool(kind === 'tool_call' && card !== undefined ? sentFields(call, raw) : call, seq);
    if (kind === 'tool_call_update' && card === undefined) this.unannounced.add(this.rows[at]!.key);
    return at;
  }

  /** Upserts the newest card of `call`'s id (or a new one when `fresh`) with its fields. */
  protected tool(call: AgentToolCall, seq: number | undefined, fresh = false): number {
    let i = fresh ? undefined : this.toolRow(call.toolCallId);
    if (i === undefined) {
      const key = this.toolKey(call.toolCallId);
      i = this.push({
        type: 'tool',
        key,
        turn: this.turnNumber,
        seq,
        toolCall: newToolCall(call.toolCallId),
      });
      if (this.inTurn) this.turnTools.push(key);
    }
    this.rows[i] = patchToolCall(this.rows[i] as ToolCallRow, call);
    if (call.terminal?.append && call.terminal.output) this.grew(i);
    return i;
  }

  /**
   * A turn that ended leaves no tool call running: one with no final status (the user refused or
   * cancelled a permission asked before the call was announced, the agent gave up on it, the turn was
   * cancelled) is shown cancelled, or interrupted when the turn was cut off; never pending forever.
   */
  protected closeTurnTools(status: 'cancelled' | 'interrupted'): void {
    for (const key of this.turnTools) {
      const i = this.index.get(key);
      if (i !== undefined) this.rows[i] = endIfRunning(this.rows[i] as ToolCallRow, status);
    }
    this.turnTools = [];
  }

  /** An approved call the agent never reported running (Claude's Bash) runs once approved. */
  protected approved(record: AgentPermissionRecord, card: number | undefined): void {
    const row = card === undefined ? undefined : this.rows[card];
    if (row?.type === 'tool') this.rows[card!] = runIfApproved(row, record);
  }

  /** The index of the newest card of a tool-call id (for the subagent router). */
  cardIndex(toolCallId: string): number | undefined {
    return this.toolRow(toolCallId);
  }

  /** The key of a child session's card, opened here when it has none (for the subagent router). */
  subagentCard(sessionId: string, seq: number | undefined): string {
    const id = subagentCallId(sessionId);
    const i =
      this.toolRow(id) ??
      this.tool({ toolCallId: id, name: 'Agent', kind: 'other', status: 'in_progress' }, seq);
    return this.rows[i]!.key;
  }

  /** Merges `patch` into the subagent view of the card with `key`; its index, -1 when none. */
  setSubagent(key: string, patch: Partial<SubagentView>): number {
    const i = this.index.get(key);
    const row = i === undefined ? undefined : this.rows[i];
    if (row?.type !== 'tool') return -1;
    this.rows[i!] = patchSubagent(row, patch);
    return i!;
  }
}
