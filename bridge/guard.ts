/**
 * The checks every WebSocket upgrade passes *before* it is accepted, so a refused client never
 * spawns a process: path, Host (DNS rebinding), Origin (cross-site WebSocket hijacking), the token
 * in `Sec-WebSocket-Protocol` (failures counted per peer), and a cap on connections.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackHost } from './options.ts';
import { ACP_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from './protocol.ts';

/** What the guard compares an upgrade against. */
export interface GuardConfig {
  /** The port the bridge listens on (the Host header must name it). */
  port: number;
  /** Extra host names accepted besides loopback ones (the bind address when non-loopback). */
  extraHosts: string[];
  /** Exact allowed origins, normalized `scheme://host[:port]`. */
  origins: ReadonlySet<string>;
  allowMissingOrigin: boolean;
  token: string;
  maxConnections: number;
}

/** Why an upgrade was refused: HTTP status and a short reason without secrets. */
export interface Refusal {
  status: 400 | 401 | 403 | 404 | 429 | 503;
  reason: string;
}

/**
 * Failed token attempts of each peer (remote address) in a sliding window. It decides only how a
 * wrong token is answered (401, or 429 once the peer has `max` failures in the window): the right
 * token is never refused for anybody's failures, since every local user shares the loopback
 * addresses and a lockout would be theirs to impose on the user. Guessing is stopped by the token's
 * size (at least 128 bits; 256 by default). Holds at most `max` times for each of at most
 * {@link MAX_TRACKED_PEERS} peers, so an attacker's failures cost a bounded amount of memory.
 */
export class TokenFailures {
  private readonly peers = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Records one failure of `peer` at `now`. */
  record(peer: string, now: number): void {
    const times = this.peers.get(peer) ?? [];
    // Most recently failing last, so the first entry is the peer to forget first.
    this.peers.delete(peer);
    times.push(now);
    if (times.length > this.max) times.shift();
    this.peers.set(peer, times);
    if (this.peers.size > MAX_TRACKED_PEERS) this.peers.delete(this.peers.keys().next().value!);
  }

  /** True while `peer` has `max` failures within the window before `now`. */
  exceeded(peer: string, now: number): boolean {
    const times = this.peers.get(peer);
    return times !== undefined && times.length >= this.max && times[0]! > now - this.windowMs;
  }
}

/** Peers whose failures {@link TokenFailures} remembers (the least recently failing is forgotten first). */
export const MAX_TRACKED_PEERS = 1024;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Headers the guard reads that must appear at most once (Node keeps the first Host and joins Origins). */
const SINGLE_HEADERS = ['host', 'origin'];

/**
 * The first of {@link SINGLE_HEADERS} that `rawHeaders` (name, value, name, value…) carries more than
 * once, or undefined. A browser never sends two; a client that does is refused rather than have one
 * of them picked.
 */
export function duplicatedHeader(rawHeaders: readonly string[] | undefined): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < (rawHeaders?.length ?? 0); i += 2) {
    const name = rawHeaders![i]!.toLowerCase();
    if (!SINGLE_HEADERS.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** The offered subprotocols, trimmed. */
export function offeredProtocols(headers: IncomingHttpHeaders): string[] {
  return (header(headers, 'sec-websocket-protocol') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time token comparison (hashes first so lengths never leak). */
export function tokenMatches(candidate: string, token: string): boolean {
  return timingSafeEqual(digest(candidate), digest(token));
}

/** True if `hostHeader` is `<loopback name or extra host>:<port>`. */
export function hostAllowed(hostHeader: string | undefined, config: GuardConfig): boolean {
  if (!hostHeader) return false;
  let url: URL;
  try {
    url = new URL(`http://${hostHeader}`);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return false;
  if (url.port !== String(config.port)) return false;
  const name = url.hostname.toLowerCase();
  return isLoopbackHost(name) || config.extraHosts.some((h) => h.toLowerCase() === name);
}

/**
 * Decides whether an upgrade from `state.peer` may proceed. Returns `undefined` when it may, a
 * {@link Refusal} otherwise. A wrong, missing or doubled token is recorded in `failures` and answered
 * 401, or 429 once that peer is over its limit; the right token passes whatever the failures.
 */
export function checkUpgrade(
  req: { url?: string | undefined; headers: IncomingHttpHeaders; rawHeaders?: readonly string[] },
  config: GuardConfig,
  state: { failures: TokenFailures; peer: string; liveConnections: number; now: number },
): Refusal | undefined {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/') return { status: 404, reason: 'unknown path' };
  const duplicated = duplicatedHeader(req.rawHeaders);
  if (duplicated) return { status: 400, reason: `${duplicated} header sent more than once` };
  if (!hostAllowed(header(req.headers, 'host'), config)) {
    return { status: 403, reason: 'Host is not this bridge (loopback name and port expected)' };
  }
  const origin = header(req.headers, 'origin');
  if (origin === undefined) {
    if (!config.allowMissingOrigin) return { status: 403, reason: 'missing Origin' };
  } else if (!config.origins.has(origin)) {
    return { status: 403, reason: 'Origin not allowed' };
  }
  const offered = offeredProtocols(req.headers);
  const tokens = offered.filter((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX));
  // One guess per attempt: an upgrade that offers several tokens counts as a failure.
  const tokenProtocol = tokens.length === 1 ? tokens[0] : undefined;
  if (!tokenProtocol || !tokenMatches(tokenProtocol.slice(TOKEN_SUBPROTOCOL_PREFIX.length), config.token)) {
    const over = state.failures.exceeded(state.peer, state.now);
    state.failures.record(state.peer, state.now);
    if (over) return { status: 429, reason: 'too many failed token attempts' };
    return {
      status: 401,
      reason: tokens.length === 0 ? 'missing token' : tokens.length > 1 ? 'several tokens' : 'wrong token',
    };
  }
  if (!offered.includes(ACP_SUBPROTOCOL)) {
    return { status: 400, reason: `subprotocol "${ACP_SUBPROTOCOL}" must be offered` };
  }
  if (state.liveConnections >= config.maxConnections) {
    return { status: 503, reason: 'too many connections' };
  }
  return undefined;
}
