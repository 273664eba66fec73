/**
 * The conventions between `silo-bridge` and its clients (the Silo worker, tests, benchmarks).
 * Dependency-free so the worker, the bridge and Node scripts can all import it.
 *
 * - **Token.** Browsers cannot set headers on a WebSocket, so the per-launch token travels as a
 *   subprotocol: open the socket with `bridgeProtocols(token)` = `['acp', 'silo-token.<token>']`.
 *   The bridge answers with the subprotocol `acp` (never the token), which the browser requires to
 *   be one it offered.
 * - **Agent exit.** When the agent process ends, the bridge writes one extension notification
 *   {@link AGENT_EXITED_METHOD} (`_silo/agent_exited`, params {@link AgentExitedParams}) into the
 *   stream, then closes the socket with {@link CLOSE_AGENT_EXITED} (4000) and a reason such as
 *   `agent exited with code 3: <its last stderr line>`. An agent that exits before it answers
 *   `initialize` gets no notification (the SDK's bridge takes the first message as the answer), only
 *   that close code and reason. When the bridge itself had to end the agent because it broke a limit
 *   (a line over the bridge's maximum), the close code is {@link CLOSE_AGENT_LIMIT} (4001).
 * - **Connection string.** The bridge prints `ws://127.0.0.1:PORT/#token=TOKEN`; use
 *   {@link parseConnectionString} to split it into the socket URL and the token.
 * - **Machine-readable start line.** On stdout, one line `SILO_BRIDGE {"url","token","origins",
 *   "connection","port","pid"}` ({@link BridgeAnnouncement}).
 *
 * @example
 * ```ts
 * const { url, token } = parseConnectionString(pasted);
 * const socket = new WebSocket(url, bridgeProtocols(token));
 * ```
 */

/** The subprotocol the bridge selects for every accepted connection. */
export const ACP_SUBPROTOCOL = 'acp';

/** Prefix of the subprotocol that carries the token: `silo-token.<token>`. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'silo-token.';

/** Extension notification the bridge sends just before it closes the socket of an exited agent. */
export const AGENT_EXITED_METHOD = '_silo/agent_exited';

/** WebSocket close code: the agent process exited (code or signal in the reason). */
export const CLOSE_AGENT_EXITED = 4000;

/** WebSocket close code: the bridge ended the agent because it broke a limit (line too large). */
export const CLOSE_AGENT_LIMIT = 4001;

/** Prefix of the machine-readable line the bridge prints on stdout when it is ready. */
export const ANNOUNCEMENT_PREFIX = 'SILO_BRIDGE ';

/** Params of {@link AGENT_EXITED_METHOD}. `reason` is set when the bridge ended the agent itself. */
export interface AgentExitedParams {
  /** Exit code, or `null` when the process was ended by a signal. */
  code: number | null;
  /** Signal name (`SIGTERM`, `SIGKILL`…), or `null` for a normal exit. */
  signal: string | null;
  /** Why the bridge ended the agent, when it did (for example `agent message too large`). */
  reason?: string;
  /**
   * The last meaningful line the agent wrote on stderr — not one of Node's warnings, stack frames or
   * version line after it (bridge/stderr.ts) — else its last non-empty line; at most 200 characters.
   */
  stderr?: string;
}

/** What the bridge announces on start (the JSON after {@link ANNOUNCEMENT_PREFIX}). */
export interface BridgeAnnouncement {
  /** Socket URL, for example `ws://127.0.0.1:8123`. */
  url: string;
  /** The per-launch token. */
  token: string;
  /** Exact origins allowed to connect. */
  origins: string[];
  /** `url` and `token` in one pasteable string (see {@link formatConnectionString}). */
  connection: string;
  /** Port the bridge listens on. */
  port: number;
  /** Process id of the bridge. */
  pid: number;
}

/** Subprotocols to pass to `new WebSocket(url, protocols)` for a bridge with this token. */
export function bridgeProtocols(token: string): string[] {
  return [ACP_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${token}`];
}

/** `ws://host:port/#token=TOKEN`: the socket URL and the token in one string. */
export function formatConnectionString(url: string, token: string): string {
  const base = url.endsWith('/') ? url : `${url}/`;
  return `${base}#token=${encodeURIComponent(token)}`;
}

/**
 * Splits a connection string into the socket URL (without the fragment, which `WebSocket` refuses)
 * and the token. Returns `undefined` when the string is not a `ws:`/`wss:` URL with a `#token=`.
 */
export function parseConnectionString(text: string): { url: string; token: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return undefined;
  const token = new URLSearchParams(parsed.hash.replace(/^#/, '')).get('token');
  if (!token) return undefined;
  parsed.hash = '';
  return { url: parsed.href, token };
}
