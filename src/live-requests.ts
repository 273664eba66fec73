/**
 * The live requests of the page API: a permission request and a question the agent asks, as
 * `onPermission` and `onElicitation` (`AgentSessionConnectOptions`) get them. `src/api.ts` exports
 * them with the rest of the page API's interfaces; `src/session-handle.ts` makes them.
 */
import type {
  AgentElicitationQuestion,
  AgentRequestResolution,
  AgentToolCall,
  PermissionOption,
} from './types.ts';

/**
 * A live permission request (`session/request_permission`). Answer it exactly once with
 * {@link AgentPermissionRequest.choose} or {@link AgentPermissionRequest.cancel}; a request that is never
 * answered is answered `cancelled` when its turn is cancelled or the connection goes away.
 *
 * Every tab of the session is shown the request, the driving tab's and those following it: an
 * answer from a follower goes to the driving tab, the first answer from any tab wins, a later one
 * rejects with `closed`, and every tab's {@link AgentPermissionRequest.signal} aborts with how it ended.
 */
export interface AgentPermissionRequest {
  readonly id: string;
  readonly sessionId: string;
  readonly toolCall: AgentToolCall;
  /** Every option the agent offered, in its order. */
  readonly options: readonly PermissionOption[];
  /**
   * Aborts when the request ends (answered, turn cancelled, agent withdrew it, connection lost); its
   * `reason` is then the same value as {@link resolution}.
   */
  readonly signal: AbortSignal;
  /**
   * How the request ended, once {@link signal} aborted; `undefined` while it can be answered. Silo's
   * own requests always have it (optional only for objects a page builds itself).
   */
  readonly resolution?: AgentRequestResolution;
  /** Answers with one of {@link options}. Rejects with `invalid-params` for an unknown option id. */
  choose(optionId: string): Promise<void>;
  /** Answers `cancelled`. */
  cancel(): Promise<void>;
}

/** The value of one answer, as the agent receives it. */
export type AgentElicitationAnswer = string | number | boolean | readonly string[];

/**
 * A live question the agent asks (`elicitation/create`). For form mode, `questions` are normalized
 * from the schema; for url mode, `url` is what the user is asked to open (never opened by Silo).
 * Like a permission request it is shown in every tab of the session, and the first answer wins.
 */
export interface AgentElicitationRequest {
  readonly id: string;
  readonly sessionId?: string;
  readonly mode: 'form' | 'url' | string;
  readonly message: string;
  readonly questions: readonly AgentElicitationQuestion[];
  readonly acknowledgeOnly: boolean;
  readonly toolCallId?: string;
  readonly url?: string;
  /** True for an unknown mode or property type: it can only be declined or cancelled. */
  readonly unsupported: boolean;
  /** The request params as the agent sent them. */
  readonly raw: Readonly<Record<string, unknown>>;
  /**
   * Aborts when the question ends (answered, declined, cancelled, or no longer answerable: the
   * connection or the page went away); its `reason` is then the same value as {@link resolution}.
   */
  readonly signal: AbortSignal;
  /**
   * How the question ended, once {@link signal} aborted; `undefined` while it can be answered. Silo's
   * own requests always have it (optional only for objects a page builds itself).
   */
  readonly resolution?: AgentRequestResolution;
  /**
   * URL mode only, optional: settles `true` when the agent sends `elicitation/complete` for this
   * question (after the user consented with `answer({})`), or `false` when Silo stops waiting (the
   * connection closed, or `cancel()` was called after consent). Absent: the component keeps its
   * "open again" / "stop waiting" controls until the user dismisses them.
   */
  readonly completion?: Promise<boolean>;
  /**
   * Validates and sends the answers (keyed by question id). Rejects with `invalid-params` and
   * `data.errors` (question id → message) when an answer does not satisfy its question.
   */
  answer(answers: Readonly<Record<string, AgentElicitationAnswer>>): Promise<void>;
  decline(): Promise<void>;
  cancel(): Promise<void>;
}
