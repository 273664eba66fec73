/**
 * What `silo-bridge` says about itself: its usage text (the one list of its options), its version,
 * and the closest option to a mistyped one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const USAGE = `usage: silo-bridge [options] -- <agent command> [args...]
       silo-bridge [options] --demo-agent [-- <reference agent flags>]

  --port N                 port to listen on (default 0: any free port)
  --host H                 address to bind (default 127.0.0.1; loopback only)
  --allow-non-loopback     allow a --host that is not loopback (exposes the agent to your network)
  --allow-host NAME        a name or address clients use to reach a non-loopback bridge, as it
                           appears in their Host header (repeatable, exact names only; needs
                           --allow-non-loopback)
  --allow-origin O         exact origin allowed to connect, e.g. http://localhost:5173 (repeatable)
  --allow-missing-origin   also accept clients that send no Origin header (non-browser tools)
  --token-file F           read the token to require from file F (first line; the file must be
                           readable by you only, chmod 600)
  --token T                token to require; WARNING: every local user sees it in ps. Prefer the
                           env SILO_BRIDGE_TOKEN or --token-file (default: 256 random bits)
  --max-connections N      simultaneous connections / agent processes (default 8)
  --max-pending N          connections not yet upgraded, in all (default 64; the oldest gives way)
  --max-pending-per-peer N connections not yet upgraded, from one address (default 16, at least
                           --max-connections)
  --max-token-failures N   failed token attempts per minute from one address before its wrong
                           tokens get 429 (default 20; the right token is always accepted)
  --max-frame-bytes N      largest client frame (default 16 MiB)
  --max-line-bytes N       largest agent stdout line (default 32 MiB)
  --max-buffered-bytes N   agent output held for a slow client, plus 1 KiB a message (default 64 MiB)
  --max-output-stall-ms N  disconnect a client that reads nothing of a full buffer for N ms (default 60000)
  --debug                  log every frame, whole (message bodies are not logged otherwise)
  --wire-log FILE          append every frame to FILE as JSON lines {t, conn, dir, frame} (mode 600)
  --demo-agent             run the package's reference agent (no agent command needed)
  -h, --help               print this help and exit
  --version                print the version and exit`;

/** Every option USAGE lists, e.g. `--port`, `-h`. */
export const OPTION_NAMES: readonly string[] = [...USAGE.matchAll(/^ {2}(-\w|--[\w-]+)(?:, (--[\w-]+))?/gm)]
  .flatMap((m) => [m[1]!, m[2]])
  .filter((name): name is string => name !== undefined);

/**
 * `help` or `version` when `argv` asks for it before any `--` (words after `--` are the agent's).
 * They win over every other option, so `silo-bridge --port 1 --help` prints the help.
 */
export function infoRequest(argv: readonly string[]): 'help' | 'version' | undefined {
  const sep = argv.indexOf('--');
  const flags = sep === -1 ? argv : argv.slice(0, sep);
  if (flags.some((f) => f === '-h' || f === '--help')) return 'help';
  if (flags.includes('--version')) return 'version';
  return undefined;
}

/** Edit distance between `a` and `b` (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The option closest to the unknown `flag` (`--allow-orgin` → `--allow-origin`), or undefined when
 * none is close: at most a third of the flag's length (and at least 2) edits away.
 */
export function closestOption(flag: string): string | undefined {
  const [name] = flag.split('=');
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name!.length / 3)) + 1;
  for (const option of OPTION_NAMES) {
    const d = distance(name!, option);
    if (d < bestDistance) {
      best = option;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The version in the package's `package.json` (named `silo-acp`), found by walking up from this
 * module: `bridge/` in a checkout, `dist/node/bridge/` in the installed package, a test bundle
 * anywhere below the repository. `unknown` if there is none.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'silo-acp' && pkg.version) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
