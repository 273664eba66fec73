/**
 * The rows a transcript is drawn from. A row is plain, immutable data: when an update patches a row
 * the model replaces that one row object, so a renderer keyed by {@link TranscriptRowBase.key} can
 * tell exactly which row changed by identity.
 * @packageDocumentation
 */
import type {
  AgentCommand,
  AgentContentBlock,
  AgentElicitationRecord,
  AgentPermissionRecord,
  AgentPlanEntry,
  AgentSessionUsage,
  AgentTokenCounts,
  AgentToolCall,
  AgentToolCallContent,
  AgentToolCallLocation,
  AgentToolCallStatus,
  AgentToolKind,
} from '../types.ts';

/** What every row has. */
export interface TranscriptRowBase {
  /** Stable, unique key: the same for every version of the row. */
  readonly key: string;
  /** The turn the row belongs to (0 before the first prompt; a new user message starts the next). */
  readonly turn: number;
  /** Journal position of the update that opened the row, when it was journaled. */
  readonly seq?: number;
}

/** A run of text, or one non-text block (image, audio, resource link, resource, unknown type). */
export type MessagePart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'block'; readonly block: AgentContentBlock };

/** One message bubble: every chunk of one `messageId` of one role. */
export interface MessageRow extends TranscriptRowBase {
  readonly type: 'message';
  readonly role: 'user' | 'agent' | 'thought';
  readonly messageId?: string;
  readonly parts: readonly MessagePart[];
  /** All text parts concatenated (the Markdown source of an agent message). */
  readonly text: string;
  /** When Silo recorded it (the user's own prompt). */
  readonly timestamp?: string;
  /** The user's message went into the running turn (`_session/steering`), not a turn of its own. */
  readonly steered?: boolean;
  /**
   * A thought: how long the agent thought, in milliseconds — from each run of its chunks to the next
   * update, summed — when the journal holds their arrival times (live updates since Silo stamps them).
   */
  readonly durationMs?: number;
  /** True when its turn ended in `refusal`: the agent dropped it from its context. */
  readonly excluded?: boolean;
}

/**
 * A command's terminal with every update folded in: its whole output so far (ANSI escapes kept),
 * and how it ended once `terminal_exit` came.
 */
export interface TerminalState {
  readonly id: string;
  /** Everything the command wrote, as far as the agent sent it. */
  readonly output: string;
  /** True once the agent said the command ended. */
  readonly exited: boolean;
  /** The exit code; `null` when the agent does not know it (absent before the exit). */
  readonly exitCode?: number | null;
  /** The signal that ended it; `null` when none (absent before the exit). */
  readonly signal?: string | null;
  readonly cwd?: string;
}

/** A tool call with every patch applied. `kind`, `status`, `content` and `locations` are always set. */
export interface ToolCallRowCall extends Omit<AgentToolCall, 'terminal'> {
  readonly kind: AgentToolKind;
  readonly status: AgentToolCallStatus;
  readonly content: readonly AgentToolCallContent[];
  readonly locations: readonly AgentToolCallLocation[];
  /**
   * The call's terminals, folded per id in the order they first appeared (`terminal_output`
   * replaces a terminal's output, `terminal_output_delta` appends); absent when it has none.
   */
  readonly terminals?: readonly TerminalState[];
}

/**
 * A subagent's work, drawn inside the card of the call that launched it: either an ACP child session
 * (`subagent_update`, its own updates journaled with `subagentSessionId`), or the calls an agent
 * made inside a Task/Agent call (`parentToolCallId`) when it sends no child session.
 */
export interface SubagentView {
  /** The child session's id, for an ACP subagent. */
  readonly sessionId?: string;
  readonly title?: string;
  readonly description?: string;
  /** The child's work state (`running`, `requires_action`, `idle`, `unknown`), when the agent said it. */
  readonly state?: string;
  /** Why its work stopped (`end_turn`, `cancelled`, `error`…), with an `idle` state. */
  readonly stopReason?: string;
  /** The task the parent gave it (the parent's `session_message` to it). */
  readonly prompt?: string;
  /** Its answer to the parent (its `session_message` back). */
  readonly reply?: string;
  /** Its own transcript, folded as a session's is. */
  readonly rows: readonly TranscriptRow[];
}

/** One tool call, patched in place by every update for its `toolCallId`. */
export interface ToolCallRow extends TranscriptRowBase {
  readonly type: 'tool';
  readonly toolCall: ToolCallRowCall;
  /**
   * The permission asked for this call, held in its card instead of a row of its own (the first one
   * asked; another for the same call gets its own row). Its key (`p:<id>`) finds this row through
   * `TranscriptModel.get` and `indexOf`, and its resolution patches it here.
   */
  readonly permission?: PermissionRow;
  /** The subagent this call launched, when the agent reports its work. */
  readonly subagent?: SubagentView;
}

/** The agent's plan in a turn; each `plan` update replaces its entries. */
export interface PlanRow extends TranscriptRowBase {
  readonly type: 'plan';
  readonly entries: readonly AgentPlanEntry[];
}

/** A context compaction, fixed at the position of its first update and patched in place. */
export interface CompactionRow extends TranscriptRowBase {
  readonly type: 'compaction';
  readonly compactionId: string;
  /** `in_progress`, `completed`, `failed`, `cancelled` or an unknown string. */
  readonly status: string;
  readonly summary: readonly AgentContentBlock[];
  readonly error?: string;
}

/** A notice (`info`, `warning`, `error`, or another severity). */
export interface NoticeRow extends TranscriptRowBase {
  readonly type: 'notice';
  readonly severity: string;
  readonly title: string;
  readonly description?: string;
}

/**
 * A permission request and, once it ended, its resolution: a row of its own when it names no tool
 * call, else held by its tool call's row ({@link ToolCallRow.permission}).
 */
export interface PermissionRow extends TranscriptRowBase {
  readonly type: 'permission';
  readonly record: AgentPermissionRecord;
}

/** A question the agent asked and, once it ended, its resolution. */
export interface ElicitationRow extends TranscriptRowBase {
  readonly type: 'elicitation';
  readonly record: AgentElicitationRecord;
}

/**
 * The start of a turn the agent began by itself, with no prompt (Claude runs a model turn when a
 * background task finishes); its end is a {@link TurnEndRow} as for any turn.
 */
export interface TurnStartRow extends TranscriptRowBase {
  readonly type: 'turn-start';
  readonly origin: 'agent';
  /** What made the agent start it, once it said (`task-notification`: a background task finished). */
  readonly reason?: string;
}

/** The end of a turn and why it ended. */
export interface TurnEndRow extends TranscriptRowBase {
  readonly type: 'turn-end';
  readonly stopReason: string;
  readonly error?: { readonly code: string; readonly message: string };
  /**
   * The turn's tokens, in whichever shape the agent reported them (the prompt response's `usage` or
   * `_meta.quota.token_count`, or Qwen Code's per-request `_meta.usage`; src/usage.ts).
   */
  readonly tokens?: TurnTokens;
  /**
   * How long the turn took, in milliseconds: from its prompt to its end, or as the agent timed its
   * requests (src/usage.ts; the session state's `lastTurn`, the one source of a turn's time).
   */
  readonly durationMs?: number;
  /** When Silo recorded the turn's end. */
  readonly timestamp?: string;
}

/** Token counts of one turn (the same as {@link AgentTokenCounts}). */
export type TurnTokens = AgentTokenCounts;

/** An update of a kind the model does not know (or a malformed one): shown generically. */
export interface UnknownRow extends TranscriptRowBase {
  readonly type: 'unknown';
  readonly kind: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Every row type. Switch on `type`. */
export type TranscriptRow =
  | MessageRow
  | ToolCallRow
  | PlanRow
  | CompactionRow
  | NoticeRow
  | PermissionRow
  | ElicitationRow
  | TurnStartRow
  | TurnEndRow
  | UnknownRow;

/** Session state a transcript carries beside its rows. */
export interface TranscriptState {
  /** The latest `usage_update` (current context use, the latest cumulative cost). */
  readonly usage?: AgentSessionUsage;
  /** The session's tokens: the sum of its turns'. */
  readonly tokens?: AgentTokenCounts;
  /** The session title from `session_info_update` (`null` there clears it). */
  readonly title?: string;
  /** The agent's slash commands from the latest `available_commands_update`. */
  readonly commands: readonly AgentCommand[];
  /** The latest plan, wherever it is drawn. */
  readonly plan: readonly AgentPlanEntry[];
  /** True between a turn's start (a user message, or the agent's own start) and its `turn_end`. */
  readonly inTurn: boolean;
  /** The current turn number. */
  readonly turn: number;
}
