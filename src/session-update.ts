/**
 * The public data types of one session update (`AgentSessionUpdate`) and of what it carries: content
 * blocks, tool calls and their terminals, plans, usage, questions and permission requests as
 * transcript rows, turn starts and ends. Names and field meanings follow the specification of the
 * public surface. Everything here is plain, structured-cloneable data: it crosses the worker boundary
 * and is written to IndexedDB as it is.
 * @packageDocumentation
 */
import type { ContentBlock, PermissionOption, StopReason } from '@agentclientprotocol/sdk';

/** A content block as the agent sent it (text, image, audio, resource_link, resource, or a future type). */
export type AgentContentBlock = ContentBlock | { readonly type: string; readonly [key: string]: unknown };

/** ACP tool kinds; unknown values arrive as `"other"`. */
export type AgentToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other';

/**
 * ACP tool-call status, plus Silo's local `"cancelled"` for calls unfinished when their turn ended
 * (cancelled, refused, given up) and `"interrupted"` for calls unfinished when their turn was cut
 * off (the connection dropped, the page closed mid-turn).
 */
export type AgentToolCallStatus =
  | 'pending'
  | 'in_progress'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'interrupted';

/** One item of a tool call's content: a content block, a diff, or a terminal reference. */
export type AgentToolCallContent =
  | { readonly type: 'content'; readonly content: AgentContentBlock }
  | {
      readonly type: 'diff';
      readonly path: string;
      readonly oldText?: string | null;
      readonly newText: string;
    }
  | { readonly type: 'terminal'; readonly terminalId: string };

/** A file location a tool call touches (`line` is 1-based). */
export interface AgentToolCallLocation {
  readonly path: string;
  readonly line?: number;
}

/**
 * A command's terminal, as claude-agent-acp and codex-acp report it in a tool call's `_meta`
 * (`terminal_info`, `terminal_output`, `terminal_output_delta`, `terminal_exit`) once the client
 * advertises `clientCapabilities._meta.terminal_output` / `terminal_output_delta`, which Silo does.
 * On an update it is what that one update said; the transcript model folds them per `id`
 * (`ToolCallRowCall.terminals`). Output is the agent's text with its ANSI escapes, untrusted.
 */
export interface AgentTerminal {
  /** The terminal's id (`terminal_id`; the `terminalId` of the call's `{ type: "terminal" }` content). */
  readonly id: string;
  /**
   * Output this update carried: the whole output so far (`terminal_output`: replace), or with
   * `append` a chunk to add to it (`terminal_output_delta`). Absent when it carried none.
   */
  readonly output?: string;
  /** True when `output` extends the output so far rather than replacing it. */
  readonly append?: boolean;
  /** True once the command ended (`terminal_exit`). */
  readonly exited?: boolean;
  /** The exit code from `terminal_exit`; `null` when the agent does not know it. */
  readonly exitCode?: number | null;
  /** The signal that ended the command, from `terminal_exit`; `null` when none. */
  readonly signal?: string | null;
  /** The command's working directory (`terminal_info.cwd`, Codex). */
  readonly cwd?: string;
}

/**
 * A tool call as carried by `tool_call` and `tool_call_update` updates. On a `tool_call` update the
 * defaults the SDK does not apply are filled in (`kind: "other"`, `status: "pending"`); on a
 * `tool_call_update` only the fields the agent sent are present — patch the row keyed by
 * `toolCallId` in place (omitted or `null` means unchanged; `content`/`locations` replace).
 */
export interface AgentToolCall {
  readonly toolCallId: string;
  readonly title?: string;
  readonly name?: string;
  readonly kind?: AgentToolKind;
  readonly status?: AgentToolCallStatus;
  readonly content?: readonly AgentToolCallContent[];
  readonly locations?: readonly AgentToolCallLocation[];
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
  /** The command's terminal as this update reports it ({@link AgentTerminal}). */
  readonly terminal?: AgentTerminal;
}

/** One entry of the agent's plan. Entries have no ids: identity is by position. */
export interface AgentPlanEntry {
  readonly content: string;
  readonly priority: 'high' | 'medium' | 'low' | string;
  readonly status: 'pending' | 'in_progress' | 'completed' | string;
}

/**
 * Context and cost state from `usage_update`: `used` tokens currently in context of a window of
 * `size`; `cost` is cumulative for the session, in `currency` (ISO 4217 or a unit such as "credits").
 */
export interface AgentSessionUsage {
  readonly used: number;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
}

/**
 * Token counts, of one turn or of a whole session (the sum of its turns). `total` is what the agent
 * reported as the total, else the sum of the counts it reported; the others are present when it sent
 * them (`cachedRead` / `cachedWrite`: prompt-cache reads and writes; `thought`: reasoning tokens).
 */
export interface AgentTokenCounts {
  readonly total: number;
  readonly input?: number;
  readonly output?: number;
  readonly thought?: number;
  readonly cachedRead?: number;
  readonly cachedWrite?: number;
}

/**
 * What one turn used, in every shape agents report it (docs/agents.md, "Usage"): `tokens` from the
 * prompt response's `usage` or `_meta.quota.token_count`, else the sum of the per-request usage the
 * agent sent during the turn (Qwen Code's `_meta.usage` on empty agent chunks); `durationMs` from the
 * prompt to the turn's end as Silo timed it, else the agent's own `durationMs` reports summed.
 */
export interface AgentTurnUsage {
  readonly tokens?: AgentTokenCounts;
  readonly durationMs?: number;
}

/** How a question the agent asked ended. */
export type AgentElicitationResolution = 'answered' | 'declined' | 'cancelled' | 'unanswerable';

/** The kind of control a question is rendered as. `"unsupported"` is never rendered as a known control. */
export type AgentElicitationQuestionType =
  | 'single-select'
  | 'multi-select'
  | 'boolean'
  | 'text'
  | 'number'
  | 'integer'
  | 'unsupported';

/** One option of a select question: the `value` the agent receives and the `label` the user sees. */
export interface AgentElicitationOption {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/** One question of a form elicitation, normalized from its JSON schema property. */
export interface AgentElicitationQuestion {
  /** The schema property name; answers are keyed by it. */
  readonly id: string;
  readonly type: AgentElicitationQuestionType;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
  readonly options?: readonly AgentElicitationOption[];
  readonly default?: string | number | boolean | readonly string[];
  /** For text: `email`, `uri`, `date` or `date-time` when the schema says so. */
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** The property schema as the agent sent it (kept for unsupported types). */
  readonly raw?: Readonly<Record<string, unknown>>;
  /**
   * A select question's own free-text "Other…" answer: the agent's companion text field, keyed
   * `<id>_custom` (claude-agent-acp's AskUserQuestion), shown with the question instead of as one of
   * its own. Its answer goes to the agent under its own `id`; the record keeps it with this question.
   */
  readonly other?: AgentElicitationQuestion;
}

/**
 * A question the agent asked, as a durable transcript row: {@link AgentElicitationRequest}
 * with every callable member removed. On an `"elicitation_resolution"` update only `id` and
 * `resolution` (and `answers` for an answered one) are meaningful.
 */
export interface AgentElicitationRecord {
  readonly id: string;
  readonly message?: string;
  readonly mode?: 'form' | 'url' | string;
  readonly questions?: readonly AgentElicitationQuestion[];
  readonly acknowledgeOnly?: boolean;
  readonly toolCallId?: string;
  /** URL mode: the URL the agent asks the user to open. */
  readonly url?: string;
  /** True when the request cannot be rendered as a known control (unknown mode or property type). */
  readonly unsupported?: boolean;
  readonly resolution?: AgentElicitationResolution;
  readonly answers?: Readonly<Record<string, string>>;
  /** URL mode: true once the agent sent `elicitation/complete` for it (the external flow finished). */
  readonly completed?: boolean;
}

/** How a permission request ended. */
export type AgentPermissionResolution = 'selected' | 'cancelled' | 'unanswerable';

/** How a live permission request or question ended (told to the page when it ends). */
export type AgentRequestResolution = AgentPermissionResolution | AgentElicitationResolution;

/** A permission request as a durable transcript row (kinds `"permission"` / `"permission_resolution"`). */
export interface AgentPermissionRecord {
  readonly id: string;
  readonly toolCall?: AgentToolCall;
  readonly options?: readonly PermissionOption[];
  readonly resolution?: AgentPermissionResolution;
  /** The chosen option, on a `"selected"` resolution. */
  readonly optionId?: string;
}

/**
 * The end of a turn (kind `"turn_end"`). `stopReason` is the agent's (`end_turn`, `max_tokens`,
 * `max_turn_requests`, `refusal`, `cancelled`, or an unknown string), or Silo's own `"interrupted"`
 * when the connection or agent went away mid-turn, or `"error"` when the agent answered with an error.
 */
export interface AgentTurnEnd {
  readonly stopReason: StopReason | 'interrupted' | 'error' | string;
  readonly error?: { readonly code: string; readonly message: string };
  /** What the turn used (tokens, duration), as Silo read it from the agent's reports; absent when unknown. */
  readonly usage?: AgentTurnUsage;
}

/**
 * The start of a turn the agent began by itself (kind `"turn_start"`), with no prompt: agent content
 * arriving after a turn ended (Claude runs a model turn when a background task finishes). It ends
 * with a `turn_end` like any turn.
 */
export interface AgentTurnStart {
  readonly origin: 'agent';
}

/**
 * One `session/update` from a session, lightly normalized, or an update Silo recorded
 * itself. Switch on the kinds you render and ignore the rest; never treat an unknown kind as an error.
 *
 * Silo-recorded kinds: `user_message_chunk` with `timestamp` (the user's prompt), `turn_start` (a
 * turn the agent began by itself), `turn_end`,
 * `permission` / `permission_resolution`, `elicitation` / `elicitation_resolution`, and
 * `agent_context` (a user chunk an agent replays that no user typed, such as Gemini CLI's
 * `<session_context>`; `raw` is the agent's chunk and nothing is drawn for it).
 */
export interface AgentSessionUpdate {
  /** The ACP `sessionUpdate` discriminator, or one of Silo's own kinds. */
  readonly kind: string;
  /** Text payload of a streaming-text kind whose block is text. */
  readonly text?: string;
  /** The whole content block a streaming-text kind carried. */
  readonly content?: AgentContentBlock;
  /** Stable id of the run of chunks this update belongs to (synthesized when the agent omits it). */
  readonly messageId?: string;
  /**
   * ISO 8601 time Silo recorded this update: on updates Silo itself records, and on the first update
   * of each run the agent sends live (never on the agent's own `user_message_chunk`s, so a timestamped
   * user chunk is always Silo's prompt).
   */
  readonly timestamp?: string;
  /**
   * On Silo's own `user_message_chunk`: the message went to the agent during a running turn, into
   * that turn (the agent's `_session/steering`), instead of waiting for the turn to end. It starts no
   * turn of its own.
   */
  readonly steered?: boolean;
  readonly toolCall?: AgentToolCall;
  readonly plan?: readonly AgentPlanEntry[];
  readonly usage?: AgentSessionUsage;
  readonly elicitation?: AgentElicitationRecord;
  readonly permission?: AgentPermissionRecord;
  readonly turnEnd?: AgentTurnEnd;
  readonly turnStart?: AgentTurnStart;
  /** The raw ACP update object, unstripped; for Silo's own kinds, the record it wrote. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** Position in the session's journal (0-based, gapless), when the update was journaled. */
  readonly seq?: number;
  /**
   * The subagent this update is the work of: the child session (ACP `subagent_update`) the agent
   * sent it for, journaled in its parent's journal. Absent for the session's own updates.
   */
  readonly subagentSessionId?: string;
  /**
   * The tool call (a Task or Agent call) whose subagent this update is the work of, in the same
   * session: claude-agent-acp's `_meta.claudeCode.parentToolUseId` (its subagents' text, thoughts
   * and tool calls). The transcript model draws such updates inside that call's card.
   */
  readonly parentToolCallId?: string;
}
