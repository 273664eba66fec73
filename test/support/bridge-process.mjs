// Starts the real `silo-bridge` (its TypeScript source, bundled once by esbuild) with the real reference agent as a
// child process, for Node tests, the web-test-runner plugin and scripts. Plain JS so both the
// plugin (.mjs) and TypeScript tests can import it; types in bridge-process.d.mts.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = ['--import', 'tsx'];

const bundles = new Map();
/**
 * A TypeScript entry (`agent/cli.ts`, `bridge/cli.ts`) bundled by esbuild into one ES module, once
 * per test process; its packages stay imports, resolved from the repository's node_modules. A test
 * run starts hundreds of agents and dozens of bridges: through tsx each paid for tsx's loader again
 * (about 3× the start-up of plain JavaScript). Built from the sources at the first call, so never
 * stale; removed when the process exits.
 */
function bundled(entry) {
  let outfile = bundles.get(entry);
  if (outfile) return outfile;
  if (bundles.size === 0) {
    mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
    bundles.set('dir', mkdtempSync(join(ROOT, 'node_modules/.cache/silo-test-')));
    process.once('exit', () => rmSync(bundles.get('dir'), { recursive: true, force: true }));
  }
  outfile = join(bundles.get('dir'), `${entry.replace(/[/.]/g, '-')}.mjs`);
  buildSync({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  bundles.set(entry, outfile);
  return outfile;
}

/**
 * The command that runs the reference agent (or, with `replay`, agent/replay.ts through tsx: it
 * finds its fixtures next to its source) with `args`.
 */
export function referenceAgentCommand(args = [], { replay } = {}) {
  if (replay) return [process.execPath, ...TSX, join(ROOT, 'agent/replay.ts'), ...args];
  return [process.execPath, bundled('agent/cli.ts'), ...args];
}

/** A `kB` field of `/proc/<pid>/status` (`VmRSS`, `VmHWM` = peak RSS…), in KiB; 0 if absent. */
export function procStatusKiB(pid, key) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
}

/** Bytes a process has read and written through system calls so far (`/proc/<pid>/io`). */
export function procIo(pid) {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1]);
  return { read: field('rchar'), written: field('wchar') };
}

/** Pids whose parent is `pid` (Linux /proc). */
export function childPids(pid) {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] = state, fields[1] = ppid
      if (Number(fields[1]) === pid && fields[0] !== 'Z') pids.push(Number(name));
    } catch {
      // process went away
    }
  }
  return pids;
}

/** True while a process with this pid exists (and is not a zombie). */
export function processAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Starts a bridge. Options: `agentArgs` (flags for the reference agent), `replay` (run agent/replay.ts
 * instead), `agentCommand` (any other command, an array), `allowOrigin` (array), `bridgeArgs`
 * (extra bridge flags), `sessionsDir` (default: a fresh temp dir, removed by stop()), `env` (extra
 * environment for the bridge and its agents), `port`, `token`, `fdLimit` (the bridge's limit on open
 * descriptors, soft and hard, set with `ulimit -n` before it starts), `timeoutMs` (default 20000; 0:
 * no clock, the start is awaited until the bridge announces itself or exits).
 * Resolves when the bridge printed its SILO_BRIDGE line.
 */
export async function startBridgeProcess(options = {}) {
  const ownDir = !options.sessionsDir;
  const sessionsDir = options.sessionsDir ?? mkdtempSync(join(tmpdir(), 'silo-sessions-'));
  const agent =
    options.agentCommand ?? referenceAgentCommand(options.agentArgs ?? [], { replay: options.replay });
  const args = [
    bundled('bridge/cli.ts'),
    '--port',
    String(options.port ?? 0),
    ...(options.allowOrigin ?? []).flatMap((o) => ['--allow-origin', o]),
    ...(options.token ? ['--token', options.token] : []),
    ...(options.bridgeArgs ?? []),
    '--',
    ...agent,
  ];
  // `exec` keeps the pid: the shell becomes the bridge.
  const [command, commandArgs] = options.fdLimit
    ? ['sh', ['-c', `ulimit -n ${Number(options.fdLimit)} && exec "$@"`, 'sh', process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env, SILO_AGENT_SESSIONS_DIR: sessionsDir },
  });
  const log = [];
  let stderrRest = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderrRest += chunk;
    const lines = stderrRest.split('\n');
    stderrRest = lines.pop() ?? '';
    log.push(...lines);
    if (process.env.SILO_BRIDGE_LOG) for (const l of lines) process.stderr.write(`${l}\n`);
  });
  const exited = new Promise((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const announcement = await new Promise((resolveAnn, reject) => {
    let out = '';
    const timeoutMs = options.timeoutMs ?? 20000;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`bridge did not start within ${timeoutMs} ms:\n${log.join('\n')}`));
          }, timeoutMs)
        : undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('SILO_BRIDGE '));
      if (line) {
        clearTimeout(timer);
        resolveAnn(JSON.parse(line.slice('SILO_BRIDGE '.length)));
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`bridge exited (${code ?? signal}) before starting:\n${log.join('\n')}`));
    });
  });
  let stopped;
  return {
    ...announcement,
    child,
    sessionsDir,
    log,
    exited,
    /** Agents spawned so far, from the bridge's log. */
    spawnedCount: () => log.filter((l) => / agent spawned pid=/.test(l)).length,
    /** Live agent pids (children of the bridge). */
    agentPids: () => childPids(child.pid),
    /** SIGTERM, wait for a clean exit (SIGKILL after 10 s), remove an owned sessions dir. */
    stop() {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
          await exited;
          clearTimeout(timer);
        }
        if (ownDir) rmSync(sessionsDir, { recursive: true, force: true });
        return exited;
      })();
      return stopped;
    },
  };
}
