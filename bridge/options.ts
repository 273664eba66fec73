/**
 * Command-line options of `silo-bridge`: parsing and validation, nothing else.
 *
 * `silo-bridge [--port N] [--host H] [--allow-origin O]... [--token T] [limits…] -- <agent command> [args…]`
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

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
  /** Failed token attempts per minute before every upgrade is refused with 429 for the rest of the minute. */
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
  /** Log message bodies (never logged otherwise). */
  debug: boolean;
  /** The agent command and its arguments, fixed for the bridge's lifetime. */
  agentCommand: string;
  agentArgs: string[];
}

/** An invalid command line; `message` is meant for the user. */
export class BridgeUsageError extends Error {
  override readonly name = 'BridgeUsageError';
}

export const USAGE = `usage: silo-bridge [options] -- <agent command> [args...]
       silo-bridge [options] --demo-agent [-- <reference agent flags>]

  --port N                 port to listen on (default 0: any free port)
  --host H                 address to bind (default 127.0.0.1; loopback only)
  --allow-non-loopback     allow a --host that is not loopback (exposes the agent to your network)
  --allow-host NAME        a name or address clients use to reach a non-loopback bridge, as it
                           appears in their Host header (repeatable; needs --allow-non-loopback)
  --allow-origin O         exact origin allowed to connect, e.g. http://localhost:5173 (repeatable)
  --allow-missing-origin   also accept clients that send no Origin header (non-browser tools)
  --token-file F           read the token to require from file F (first line)
  --token T                token to require; WARNING: every local user sees it in ps. Prefer the
                           env SILO_BRIDGE_TOKEN or --token-file (default: 256 random bits)
  --max-connections N      simultaneous connections / agent processes (default 8)
  --max-token-failures N   failed token attempts per minute before refusing everyone (default 20)
  --max-frame-bytes N      largest client frame (default 16 MiB)
  --max-line-bytes N       largest agent stdout line (default 32 MiB)
  --max-buffered-bytes N   agent output held for a slow client, plus 1 KiB a message (default 64 MiB)
  --max-output-stall-ms N  disconnect a client that reads nothing of a full buffer for N ms (default 60000)
  --debug                  log message bodies (off by default)`;

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

function intArg(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || n < min) {
    throw new BridgeUsageError(`${flag} needs an integer >= ${min}`);
  }
  return n;
}

/**
 * Parses `argv` (without `node` and the script). Throws {@link BridgeUsageError} for unknown flags,
 * a missing agent command, a weak token or a non-loopback host without `--allow-non-loopback`.
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
    token: env.SILO_BRIDGE_TOKEN ?? '',
    maxConnections: 8,
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
        if (!name || /[\s/@?#]/.test(name))
          throw new BridgeUsageError('--allow-host needs a host name or address');
        o.allowHosts.push(hostName(name));
        break;
      }
      case '--token-file': {
        const file = next();
        if (!file) throw new BridgeUsageError('--token-file needs a file');
        try {
          o.token = readFileSync(file, 'utf8').split('\n')[0]!.trim();
        } catch (error) {
          throw new BridgeUsageError(`--token-file ${file}: ${(error as Error).message}`);
        }
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
        break;
      case '--max-connections':
        o.maxConnections = intArg(flag, next(), 1);
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
      case '-h':
      case '--help':
        throw new BridgeUsageError(USAGE);
      default:
        throw new BridgeUsageError(`unknown option ${flag}\n${USAGE}`);
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
  if (!o.token) o.token = generateToken();
  else if (!/^[A-Za-z0-9_-]{32,}$/.test(o.token)) {
    throw new BridgeUsageError('--token must be at least 32 characters of A-Z a-z 0-9 _ - (128+ bits)');
  }
  return o;
}
