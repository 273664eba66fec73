/**
 * Command-line options of `silo-bridge`: parsing and validation, nothing else (the usage text, the
 * version and option suggestions are in `usage.ts`).
 *
 * `silo-bridge [--port N] [--host H] [--allow-origin O]... [--token-file F] [limits…] -- <agent command> [args…]`
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { closestOption, USAGE } from './usage.ts';

/** The environment variable that may carry the token; never passed on to agents. */
export const TOKEN_ENV = 'SILO_BRIDGE_TOKEN';

/** `env` without {@link TOKEN_ENV}: the environment of everything the bridge starts. */
export function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [TOKEN_ENV]: _token, ...rest } = env;
  return rest;
}

/** Everything the bridge needs to start, after defaults are applied. */
export interface BridgeOptions {
  /** TCP port; 0 lets the OS choose. */
  port: number;
  /** Address to bind; loopback unless {@link BridgeOptions.allowNonLoopback}. */
  host: string;
  /** Explicit opt-in to bind a non-loopback address. */
  allowNonLoopback: boolean;
  /**
   * Host names (or addresses) clients may name in `Host` besides loopback ones: the names by which
   * other machines reach a non-loopback bridge (`--allow-host`). Needs {@link BridgeOptions.allowNonLoopback}.
   */
  allowHosts: string[];
  /** Exact origins (`scheme://host[:port]`) allowed to connect. */
  allowOrigins: string[];
  /** Accept upgrades without an `Origin` header (non-browser clients only; browsers always send one). */
  allowMissingOrigin: boolean;
  /** The per-launch token (random unless given). */
  token: string;
  /** Most simultaneous connections (= agent processes). */
  maxConnections: number;
  /** Connections not yet upgraded, in all; a newer one makes the oldest give way (`admission.ts`). */
  maxPending: number;
  /** Connections not yet upgraded from one remote address; a newer one makes that address's oldest give way. */
  maxPendingPerPeer: number;
  /** Failed token attempts per minute from one address before its wrong tokens are answered 429. */
  maxTokenFailures: number;
  /** Largest WebSocket frame a client may send (bytes); bigger ones close that socket with 1009. */
  maxFrameBytes: number;
  /** Largest line the agent may write on stdout (bytes); a bigger one ends that agent. */
  maxLineBytes: number;
  /**
   * Agent output held for a slow client before the agent is paused (bytes, counting 1 KiB per
   * message on top of its text).
   */
  maxBufferedBytes: number;
  /** A client that reads nothing of a full buffer for this long is disconnected (1008). */
  maxOutputStallMs: number;
  /** Log every frame, whole (message bodies are never logged otherwise). */
  debug: boolean;
  /** File to append every frame to, as JSON lines (`wire-log.ts`). */
  wireLog?: string;
  /** The agent command and its arguments, fixed for the bridge's lifetime. */
  agentCommand: string;
  agentArgs: string[];
}

/** An invalid command line; `message` is meant for the user. */
export class BridgeUsageError extends Error {
  override readonly name = 'BridgeUsageError';
}

const MiB = 1024 * 1024;

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * A host name or address as `URL` spells it in `hostname` (lower case, IPv6 bracketed and
 * compressed), which is how the guard compares the Host header. Throws {@link BridgeUsageError}.
 */
export function hostName(name: string): string {
  const bare = name.replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}`).hostname;
  } catch {
    throw new BridgeUsageError(`not a host name or address: ${name}`);
  }
}

/** Normalizes an origin to `scheme://host[:port]`; throws {@link BridgeUsageError} if it is not one. */
export function normalizeOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BridgeUsageError(`--allow-origin ${text}: not an origin like http://localhost:5173`);
  }
  if (url.origin === 'null' || url.pathname.length > 1 || url.search || url.hash || url.username) {
    throw new BridgeUsageError(`--allow-origin ${text}: give only scheme://host[:port]`);
  }
  return url.origin;
}

/** Generates a token of 256 random bits, base64url (valid in a subprotocol name). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The mode of the open file `fd` (`644`) when its group or other users may access it; else undefined. */
export function sharedMode(fd: number): string | undefined {
  const mode = fstatSync(fd).mode & 0o777;
  return mode & 0o077 ? mode.toString(8).padStart(3, '0') : undefined;
}

/**
 * The token in the first line of `file`. Refuses (like Jupyter does for its files) a file that a
 * group or other users may read or write, and an empty one, rather than fall back to a random token.
 */
export function readTokenFile(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new BridgeUsageError(`--token-file ${file}: ${(error as Error).message}`);
  }
  try {
    const mode = sharedMode(fd);
    if (mode) {
      throw new BridgeUsageError(
        `--token-file ${file} is accessible to other users (mode ${mode}): run chmod 600 ${file}`,
      );
    }
    const token = readFileSync(fd, 'utf8').split('\n')[0]!.trim();
    if (!token) throw new BridgeUsageError(`--token-file ${file} is empty: its first line must be the token`);
    return token;
  } finally {
    closeSync(fd);
  }
}

function intArg(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || n < min) {
    throw new BridgeUsageError(`${flag} needs an integer >= ${min}`);
  }
  return n;
}

/**
 * Parses `argv` (without `node` and the script). Throws {@link BridgeUsageError} for unknown flags
 * (naming the closest known one), a missing agent command, a weak or empty token, a token file others
 * can read, a wildcard `--allow-host` or a non-loopback host without `--allow-non-loopback`; and with
 * the usage text for `--help` (the CLI answers `--help` and `--version` before parsing, see `usage.ts`).
 */
export function parseBridgeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): BridgeOptions {
  const sep = argv.indexOf('--');
  const flags = sep === -1 ? argv : argv.slice(0, sep);
  const command = sep === -1 ? [] : argv.slice(sep + 1);
  const o: BridgeOptions = {
    port: 0,
    host: '127.0.0.1',
    allowNonLoopback: false,
    allowHosts: [],
    allowOrigins: [],
    allowMissingOrigin: false,
    token: env[TOKEN_ENV] ?? '',
    maxConnections: 8,
    maxPending: 64,
    maxPendingPerPeer: 16,
    maxTokenFailures: 20,
    maxFrameBytes: 16 * MiB,
    maxLineBytes: 32 * MiB,
    maxBufferedBytes: 64 * MiB,
    maxOutputStallMs: 60_000,
    debug: false,
    agentCommand: '',
    agentArgs: [],
  };
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    const next = (): string | undefined => flags[++i];
    switch (flag) {
      case '--port':
        o.port = intArg(flag, next(), 0);
        break;
      case '--host':
        o.host = next() ?? '';
        break;
      case '--allow-non-loopback':
        o.allowNonLoopback = true;
        break;
      case '--allow-host': {
        const name = (next() ?? '').trim().replace(/^\[|\]$/g, '');
        if (name.includes('*')) {
          throw new BridgeUsageError(
            `--allow-host ${name}: wildcards are not supported; give each exact name clients use (repeat the option)`,
          );
        }
        if (!name || /[\s/@?#]/.test(name))
          throw new BridgeUsageError('--allow-host needs a host name or address');
        o.allowHosts.push(hostName(name));
        break;
      }
      case '--token-file': {
        const file = next();
        if (!file) throw new BridgeUsageError('--token-file needs a file');
        o.token = readTokenFile(file);
        break;
      }
      case '--allow-origin':
        for (const origin of (next() ?? '').split(',')) {
          if (origin) o.allowOrigins.push(normalizeOrigin(origin));
        }
        break;
      case '--allow-missing-origin':
        o.allowMissingOrigin = true;
        break;
      case '--token':
        o.token = next() ?? '';
        if (!o.token) throw new BridgeUsageError('--token needs a token');
        break;
      case '--max-connections':
        o.maxConnections = intArg(flag, next(), 1);
        break;
      case '--max-pending':
        o.maxPending = intArg(flag, next(), 1);
        break;
      case '--max-pending-per-peer':
        o.maxPendingPerPeer = intArg(flag, next(), 1);
        break;
      case '--max-token-failures':
        o.maxTokenFailures = intArg(flag, next(), 1);
        break;
      case '--max-frame-bytes':
        o.maxFrameBytes = intArg(flag, next(), 1024);
        break;
      case '--max-line-bytes':
        o.maxLineBytes = intArg(flag, next(), 1024);
        break;
      case '--max-buffered-bytes':
        o.maxBufferedBytes = intArg(flag, next(), 1024);
        break;
      case '--max-output-stall-ms':
        o.maxOutputStallMs = Math.min(intArg(flag, next(), 100), 2_147_483_647);
        break;
      case '--debug':
        o.debug = true;
        break;
      case '--wire-log':
        o.wireLog = next();
        if (!o.wireLog) throw new BridgeUsageError('--wire-log needs a file');
        break;
      case '-h':
      case '--help':
        throw new BridgeUsageError(USAGE);
      default: {
        const near = closestOption(flag);
        throw new BridgeUsageError(
          `unknown option ${flag}${near ? ` (did you mean ${near}?)` : ''}; silo-bridge --help lists them`,
        );
      }
    }
  }
  if (command.length === 0) throw new BridgeUsageError(`missing agent command after --\n${USAGE}`);
  o.agentCommand = command[0]!;
  o.agentArgs = command.slice(1);
  if (!o.host) throw new BridgeUsageError('--host needs an address');
  if (!isLoopbackHost(o.host) && !o.allowNonLoopback) {
    throw new BridgeUsageError(
      `refusing to listen on ${o.host}: it is not a loopback address, so other machines could run your agent. ` +
        'Pass --allow-non-loopback if you mean it.',
    );
  }
  if (o.allowHosts.length > 0 && !o.allowNonLoopback) {
    throw new BridgeUsageError('--allow-host is for a non-loopback bridge: pass --allow-non-loopback too');
  }
  if (env[TOKEN_ENV] === '' && !o.token) {
    throw new BridgeUsageError(`${TOKEN_ENV} is set but empty: unset it for a random token, or give one`);
  }
  if (!o.token) o.token = generateToken();
  else if (!/^[A-Za-z0-9_-]{32,}$/.test(o.token)) {
    throw new BridgeUsageError('--token must be at least 32 characters of A-Z a-z 0-9 _ - (128+ bits)');
  }
  return o;
}
