/**
 * The transcript model: a pure, framework-free reducer that folds {@link AgentSessionUpdate}s into
 * {@link TranscriptRow}s. Incremental: applying one update replaces at most the row it patches
 * (found through a key → index map), so a transcript of 100,000 updates folds in linear time.
 * @packageDocumentation
 */

import { isObject, type ReadonlyRaw as Raw, str } from '../json.ts';
import {
  EMPTY_SESSION_STATE,
  reduceSessionState,
  SESSION_STATE_KINDS,
  type SessionState,
} from '../session-state.ts';
import type { AgentElicitationRecord, AgentPermissionRecord, AgentSessionUpdate } from '../types.ts';
import { TurnClock, timeOf } from './clock.ts';
import { appendToMessage, patchCompaction } from './patch.ts';
import { kindOf, originOf, planEntries, ROLE_OF_KIND, toolCallFromRaw } from './raw.ts';
import { RequestRows } from './request-rows.ts';
import type {
  CompactionRow,
  MessageRow,
  PlanRow,
  TranscriptState,
  TurnEndRow,
  TurnStartRow,
} from './rows.ts';
import { SubagentRouter } from './subagents.ts';

/** The part of {@link TranscriptState} the rows fold themselves. */
type TurnState = Pick<TranscriptState, 'plan' | 'inTurn' | 'turn'>;

/**
 * Folds updates into rows. Create one per transcript and call {@link TranscriptModel.apply} for every
 * update in journal order. Never throws on input: a malformed update becomes an `unknown` row.
 *
 * @example
 * ```ts
 * const model = new TranscriptModel();
 * model.applyAll(await handle.transcript());
 * handle.subscribe((batch) => model.applyAll(batch));
 * for (const row of model.rows) console.log(row.type, row.key);
 * ```
 */
export class TranscriptModel extends RequestRows {
  /** How many turns started (user messages opened) and ended (`turn_end`), for announcements. */
  turnsStarted = 0;
  turnsEnded = 0;

  /** What the rows say of the turns (the rest of {@link current} is the session reducer's). */
  private state: TurnState = { plan: [], inTurn: false, turn: 0 };
  /** The session state, as the one reducer (src/session-state.ts) folds it: usage, title, commands. */
  private session: SessionState = EMPTY_SESSION_STATE;
  /** {@link current} as last built, and the two states it was built from. */
  private view: { of: readonly [TurnState, SessionState]; state: TranscriptState } | undefined;
  private lastSeq = -1;
  private turnStart = 0;
  /** Turn and thought durations, from the journal's timestamps. */
  private readonly clock = new TurnClock();
  /** The row of the running turn the agent started by itself, if any. */
  private agentTurn: string | undefined;
  /** Routes subagents' work into their cards (the top model only: the models it nests never route). */
  private readonly subagents: SubagentRouter | undefined;

  /** `nested`: a subagent's transcript inside a card (subagents.ts), which routes nothing itself. */
  constructor(options: { readonly nested?: boolean } = {}) {
    super();
    this.subagents = options.nested
      ? undefined
      : new SubagentRouter(this, () => new TranscriptModel({ nested: true }));
  }

  protected get turnNumber(): number {
    return this.state.turn;
  }

  protected get inTurn(): boolean {
    return this.state.inTurn;
  }

  protected inSubagent(toolCallId: string): boolean {
    return this.subagents?.owns(toolCallId) ?? false;
  }

  /**
   * Session state carried beside the rows: the session reducer's usage, tokens, title and commands
   * (the worker's snapshot folds the same updates with it), with the latest plan and the turn.
   */
  get current(): TranscriptState {
    const { state, session } = this;
    if (this.view?.of[0] !== state || this.view.of[1] !== session) {
      const { usage, tokens, title, commands } = session;
      this.view = {
        of: [state, session],
        state: {
          ...state,
          ...(usage ? { usage } : {}),
          ...(tokens ? { tokens } : {}),
          ...(title !== undefined ? { title } : {}),
          commands,
        },
      };
    }
    return this.view.state;
  }

  /** Applies updates in order. */
  applyAll(updates: readonly AgentSessionUpdate[]): void {
    for (const u of updates) this.apply(u);
  }

  /**
   * Applies one update and returns the index of the row it created or patched, or -1 when it only
   * changed state (usage, title, commands) or was skipped. An update whose `seq` is not above the last
   * applied `seq` was already applied and is skipped, so overlapping deliveries are harmless.
   */
  apply(update: AgentSessionUpdate): number {
    if (typeof update?.seq === 'number') {
      if (update.seq <= this.lastSeq) return -1;
      this.lastSeq = update.seq;
    }
    try {
      return this.reduce(update);
    } catch {
      return this.push({
        type: 'unknown',
        key: this.nextKey('u'),
        turn: this.state.turn,
        kind: kindOf(update),
        raw: {},
      });
    }
  }

  private reduce(u: AgentSessionUpdate): number {
    const kind = kindOf(u);
    const raw: Raw = isObject(u.raw) ? u.raw : {};
    const routed = this.subagents?.route(u, raw);
    if (routed !== undefined) return routed;
    const role = ROLE_OF_KIND[kind];
    const at = timeOf(u);
    this.clock.arrived(this.rows, at, role === 'thought');
    if (role) {
      this.stateUpdate(u); // the first prompt may name the session; a chunk may report usage (Qwen Code)
      return this.clock.went(this.rows, this.message(u, role), role, at);
    }
    switch (kind) {
      case 'tool_call':
      case 'tool_call_update': {
        const call = u.toolCall ?? toolCallFromRaw(raw);
        return call ? this.toolUpdate(kind, call, raw, u.seq) : this.unknown(kind, raw, u.seq);
      }
      case 'plan':
        return this.plan(u, raw);
      case 'compaction_update':
      case 'compaction_summary_chunk':
        return this.compaction(kind, raw, u.seq);
      case 'notice':
        return this.push({
          type: 'notice',
          key: this.nextKey('n'),
          turn: this.state.turn,
          seq: u.seq,
          severity: str(raw.severity) ?? 'info',
          title: str(raw.title) ?? '',
          description: str(raw.description),
        });
      case 'permission':
      case 'permission_resolution':
        return this.permission(
          u.permission ?? (raw as unknown as AgentPermissionRecord),
          kind === 'permission',
          u.seq,
        );
      case 'elicitation':
      case 'elicitation_resolution':
      case 'elicitation_complete':
        return this.elicitation(
          u.elicitation ?? (raw as unknown as AgentElicitationRecord),
          kind === 'elicitation',
          u.seq,
        );
      case 'turn_start':
        this.stateUpdate(u); // the turn's usage starts
        return this.agentStart(u.seq);
      case 'turn_end':
        return this.turnEnd(u, raw);
      case 'agent_context': // a replayed message no user typed (Gemini CLI's <session_context>)
        return -1;
      default:
        if (SESSION_STATE_KINDS.has(kind)) {
          this.stateUpdate(u);
          if (kind === 'usage_update') this.origin(raw);
          return -1;
        }
        return this.unknown(kind, raw, u.seq);
    }
  }

  private message(u: AgentSessionUpdate, role: MessageRow['role']): number {
    const block = u.content ?? (u.text !== undefined ? { type: 'text', text: u.text } : undefined);
    const text =
      u.text ?? (block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined);
    const messageId = typeof u.messageId === 'string' ? u.messageId : undefined;
    let i = -1;
    if (messageId !== undefined) {
      i = this.index.get(`m:${role}:${messageId}`) ?? -1;
    } else {
      // No id: continue the previous row when it is an id-less message of the same role.
      const last = this.rows.length - 1;
      const prev = this.rows[last];
      if (prev?.type === 'message' && prev.role === role && prev.messageId === undefined) i = last;
    }
    if (i < 0 && role !== 'user' && (text === undefined ? !block : text.trim() === '')) {
      // Whitespace only (Codex opens every reasoning block with "\n\n") opens no row: the message
      // starts with its first visible chunk, so no empty bubble is ever drawn.
      return -1;
    }
    if (i < 0) {
      if (role === 'user' && !u.steered) this.startTurn(); // a message into the running turn starts none
      const key = messageId !== undefined ? `m:${role}:${messageId}` : this.nextKey(`m:${role}`);
      const row: MessageRow = {
        type: 'message',
        key,
        turn: this.state.turn,
        seq: u.seq,
        role,
        messageId,
        parts: [],
        text: '',
        timestamp: role === 'user' ? u.timestamp : undefined,
        ...(u.steered === true ? { steered: true } : {}),
      };
      i = this.push(row);
    }
    this.rows[i] = appendToMessage(
      this.rows[i] as MessageRow,
      text,
      block,
      role === 'user' ? u.timestamp : undefined,
    );
    this.grew(i);
    return i;
  }

  private startTurn(): void {
    // A turn whose end was never journaled (the page died mid-turn) is over once the next begins.
    if (this.state.inTurn) this.closeTurnTools('interrupted');
    this.state = { ...this.state, turn: this.state.turn + 1, inTurn: true };
    this.turnStart = this.rows.length;
    this.clock.startTurn();
    this.turnTools = [];
    this.agentTurn = undefined;
    this.turnsStarted++;
  }

  /** A turn the agent started by itself (Silo's `turn_start`): a row of its own says so. */
  private agentStart(seq: number | undefined): number {
    this.startTurn();
    const key = this.nextKey('start');
    this.agentTurn = key;
    const row: TurnStartRow = { type: 'turn-start', key, turn: this.state.turn, seq, origin: 'agent' };
    return this.push(row);
  }

  private plan(u: AgentSessionUpdate, raw: Raw): number {
    const entries = planEntries(u, raw);
    this.state = { ...this.state, plan: entries };
    const key = `plan:${this.state.turn}`;
    const i = this.index.get(key);
    if (i === undefined) return this.push({ type: 'plan', key, turn: this.state.turn, seq: u.seq, entries });
    this.rows[i] = { ...(this.rows[i] as PlanRow), entries };
    return i;
  }

  private compaction(kind: string, raw: Raw, seq: number | undefined): number {
    const compactionId = str(raw.compactionId);
    if (compactionId === undefined) return this.unknown(kind, raw, seq);
    const key = `c:${compactionId}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.push({
        type: 'compaction',
        key,
        turn: this.state.turn,
        seq,
        compactionId,
        status: 'in_progress',
        summary: [],
      });
    }
    this.rows[i] = patchCompaction(this.rows[i] as CompactionRow, kind, raw);
    return i;
  }

  private turnEnd(u: AgentSessionUpdate, raw: Raw): number {
    const end = u.turnEnd ?? (raw as { stopReason?: unknown; error?: TurnEndRow['error'] });
    const stopReason = typeof end.stopReason === 'string' ? end.stopReason : 'unknown';
    this.closeTurnTools(stopReason === 'interrupted' ? 'interrupted' : 'cancelled');
    if (stopReason === 'refusal') {
      // The refused prompt and everything after it leave the agent's context.
      for (let i = this.turnStart; i < this.rows.length; i++) {
        const row = this.rows[i];
        if (row?.type === 'message' && row.turn === this.state.turn)
          this.rows[i] = { ...row, excluded: true };
      }
    }
    this.state = { ...this.state, inTurn: false };
    this.agentTurn = undefined;
    this.turnsEnded++;
    this.stateUpdate(u); // the turn's usage and time, by the one reducer (src/usage.ts)
    const usage = this.session.lastTurn;
    return this.push({
      type: 'turn-end',
      key: this.nextKey('end'),
      turn: this.state.turn,
      seq: u.seq,
      stopReason,
      error: isObject(end.error) ? (end.error as TurnEndRow['error']) : undefined,
      ...(usage?.tokens ? { tokens: usage.tokens } : {}),
      ...(usage?.durationMs !== undefined ? { durationMs: usage.durationMs } : {}),
      ...(u.timestamp ? { timestamp: u.timestamp } : {}),
    });
  }

  /**
   * Claude marks the last usage of each model turn with what started it
   * (`_meta["_claude/origin"].kind`): on a turn the agent started, the row says why.
   */
  private origin(raw: Raw): void {
    const i = this.agentTurn === undefined ? undefined : this.index.get(this.agentTurn);
    const reason = originOf(raw);
    if (i !== undefined && reason !== undefined) this.rows[i] = { ...(this.rows[i] as TurnStartRow), reason };
  }

  /** Session state (title, usage, commands) comes from the one reducer the worker's snapshot uses. */
  private stateUpdate(u: AgentSessionUpdate): void {
    this.session = reduceSessionState(this.session, u);
  }

  protected unknown(kind: string, raw: Raw, seq: number | undefined): number {
    return this.push({ type: 'unknown', key: this.nextKey('u'), turn: this.state.turn, seq, kind, raw });
  }
}
