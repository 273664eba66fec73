/**
 * Silo's one error type. Every failure that reaches the page is a {@link SiloError} with a `code`;
 * page code branches on `code`, never on `instanceof` (errors cross the worker boundary).
 */

/** Every code a {@link SiloError} can carry. */
export type SiloErrorCode =
  /** The connection is closed (socket closed, agent exited, handle closed). */
  | 'closed'
  /** The bridge could not be reached, or refused the page (origin, host or token). */
  | 'unreachable'
  /** The agent answered a protocol version Silo does not speak. */
  | 'protocol-version'
  /**
   * The agent needs a sign-in; `data.authMethods` lists every method it offers (`AgentAuthMethod`,
   * `usable` ones can be passed as `authenticate` to `connect()`).
   */
  | 'auth-required'
  /** The agent does not know the session. */
  | 'session-not-found'
  /** Bad parameters, in either direction. */
  | 'invalid-params'
  /** The session is read-only from the journal: continue it in a new session (`startFresh`). */
  | 'journal-only'
  /** The turn was cut off by a dropped connection or a dead agent. */
  | 'interrupted'
  /** Another tab owns this session; this one follows it read-only. */
  | 'not-owner'
  /** IndexedDB refused a write (quota, blocked upgrade): nothing after the last committed update was kept. */
  | 'journal-write'
  /** Something in Silo or the agent failed unexpectedly. */
  | 'internal';

/** A coded error. `data` is structured-cloneable detail (for example the agent's auth methods). */
export class SiloError extends Error {
  override readonly name = 'SiloError';
  constructor(
    readonly code: SiloErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static closed(message = 'The connection to the agent is closed', data?: unknown): SiloError {
    return new SiloError('closed', message, data);
  }
  static internal(message: string, data?: unknown): SiloError {
    return new SiloError('internal', message, data);
  }

  /** Turns anything thrown (a SiloError, an SDK RequestError, a DOM Event, a string) into a SiloError. */
  static from(error: unknown): SiloError {
    if (error instanceof SiloError) return error;
    if (isCoded(error)) return new SiloError(error.code, error.message, error.data);
    if (typeof Event !== 'undefined' && error instanceof Event) {
      return new SiloError('unreachable', `WebSocket ${error.type}: the bridge could not be reached`);
    }
    const rpc = rpcCode(error);
    const message = error instanceof Error ? error.message : String(error);
    if (rpc !== undefined) return new SiloError(codeForRpc(rpc), message, (error as { data?: unknown }).data);
    if (message === 'ACP connection closed') return SiloError.closed();
    return SiloError.internal(message);
  }
}

/** Maps a JSON-RPC error code to a Silo code. */
export function codeForRpc(code: number): SiloErrorCode {
  switch (code) {
    case -32000:
      return 'auth-required';
    case -32002:
      return 'session-not-found';
    case -32602:
      return 'invalid-params';
    case -32022:
      return 'protocol-version';
    default:
      return 'internal';
  }
}

function rpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function isCoded(error: unknown): error is { code: SiloErrorCode; message: string; data?: unknown } {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'SiloError' &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

/** Plain form of a SiloError, as it crosses `postMessage`. */
export interface SerializedSiloError {
  readonly name: 'SiloError';
  readonly code: SiloErrorCode;
  readonly message: string;
  readonly data?: unknown;
}

export function serializeError(error: unknown): SerializedSiloError {
  const e = SiloError.from(error);
  return { name: 'SiloError', code: e.code, message: e.message, data: e.data };
}
