/**
 * The permission requests and questions of the transcript model: one row per request (a permission
 * the first of its tool call asks is held by the call's card instead), found again by its id when
 * the request resolves, a new row when the same id asks again after resolving.
 * @packageDocumentation
 */

import type { ReadonlyRaw as Raw } from '../json.ts';
import type { AgentElicitationRecord, AgentPermissionRecord } from '../types.ts';
import { requestRowKey } from './keys.ts';
import { merge } from './patch.ts';
import type { ElicitationRow, PermissionRow, ToolCallRow } from './rows.ts';
import { ToolRows } from './tool-rows.ts';

/** Rows with tool cards, permission requests and questions; subclassed by the transcript model. */
export abstract class RequestRows extends ToolRows {
  /** Whether the tool call `toolCallId` is inside a subagent's card (the subagent router's). */
  protected abstract inSubagent(toolCallId: string): boolean;
  /** Pushes an `unknown` row for an update that cannot be read; its index. */
  protected abstract unknown(kind: string, raw: Raw, seq: number | undefined): number;

  protected permission(record: AgentPermissionRecord, opens: boolean, seq: number | undefined): number {
    if (typeof record?.id !== 'string') return this.unknown('permission', {}, seq);
    // A permission may be the first sight of its tool call: upsert the card from its fields. One for
    // a call inside a subagent's card is a row of its own, in sight, never inside a folded card.
    const callId = record.toolCall?.toolCallId;
    const card = callId && !this.inSubagent(callId) ? this.tool(record.toolCall!, seq) : undefined;
    const base = requestRowKey('permission', record.id);
    const i = this.requestRow(base, opens);
    if (i === undefined) {
      const row: PermissionRow = {
        type: 'permission',
        key: this.requestKey(base),
        turn: this.turnNumber,
        seq,
        record,
      };
      // The card holds its call's (first) permission: no row of its own, its key finds the card.
      const tool = card === undefined ? undefined : (this.rows[card] as ToolCallRow);
      if (opens && tool && tool.permission === undefined) {
        this.rows[card!] = { ...tool, permission: row };
        this.index.set(row.key, card!);
        return card!;
      }
      return this.push(row);
    }
    const at = this.rows[i]!;
    if (at.type === 'tool' && at.permission) {
      const held = at.permission;
      const merged = merge(held.record, record);
      this.rows[i] = { ...at, permission: { ...held, record: merged } };
      this.approved(merged, i);
      return i;
    }
    const row = at as PermissionRow;
    const merged = merge(row.record, record);
    this.rows[i] = { ...row, record: merged };
    const id = merged.toolCall?.toolCallId;
    this.approved(merged, id ? this.toolRow(id) : undefined);
    return i;
  }

  protected elicitation(record: AgentElicitationRecord, opens: boolean, seq: number | undefined): number {
    if (typeof record?.id !== 'string') return this.unknown('elicitation', {}, seq);
    const base = requestRowKey('elicitation', record.id);
    const i = this.requestRow(base, opens);
    if (i === undefined)
      return this.push({
        type: 'elicitation',
        key: this.requestKey(base),
        turn: this.turnNumber,
        seq,
        record,
      });
    const row = this.rows[i] as ElicitationRow;
    this.rows[i] = { ...row, record: merge(row.record, record) };
    return i;
  }
}
