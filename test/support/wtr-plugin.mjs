// A @web/test-runner plugin that starts the services browser tests need — the real bridge with the
// real reference agent (or the replay agent) — and hands them to tests through
// `executeServerCommand` (see test/support/bridge.ts for the typed browser-side wrappers).
//
// Commands (payload → result):
//   silo-bridge-start        {agentArgs?, replay?, replayFiles?, agentScript?, allowOrigin?, bridgeArgs?, sessionsDir?}
//                            → {id, url, token, origin, origins, connection, port, pid, sessionsDir}, or
//                            {id, pending: true} while the bridge has not announced itself yet: then
//                            silo-bridge-started {id} until it answers the first shape (see below)
//                            agentScript: a .ts agent under agent/test/ run instead of the reference agent
//                            Allowed origins default to the test page's origin (and its 127.0.0.1 twin).
//   silo-bridge-started      {id}          → as silo-bridge-start, for a start or restart still under way
//   silo-bridge-stop         {id, keep?}   → {stopped: true}   (keep: restartable later, sessions kept)
//   silo-bridge-restart      {id}          → same shapes as start; same port, token and sessions dir
//   silo-bridge-kill-agents  {id, signal?} → {killed: number[]}  (default SIGKILL: a crash)
//   silo-bridge-agent-count  {id}          → {count}  live agent processes
//   silo-bridge-spawned-count {id}         → {count}  agents spawned since (re)start
//   silo-bridge-log          {id}          → {lines}  the bridge's stderr (never message bodies)
//   silo-agent-sent          {id, sessionId} → {sent}  numbers of the updates the reference agent wrote to
//                            its stdout for that session (agent flag `--sent-log`; agent/options.ts)
//   silo-agent-calls         {id}          → {calls} `<method> <sessionId>` of each message the client sent
//                            the reference agent (agent flag `--calls-log`; agent/calls-log.ts)
//   silo-permission          {name, state} → {set: true}  sets a permission (`notifications`…) of the test
//                            page's origin to `granted`, `denied` or `prompt`, in the browser itself
//                            (puppeteer's BrowserContext.setPermission: CDP in Chromium, WebDriver BiDi
//                            in Firefox), so the page sees it as a user's choice
// Every bridge is stopped in serverStop.
//
// A start answers within STARTED_WAIT_MS, pending or not: the runner gives each command a fixed 20 s,
// and a bridge with its agent spawned through tsx takes longer than that on a loaded machine. The
// browser side (test/support/bridge.ts) asks again until the bridge is up or its start failed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startBridgeProcess } from './bridge-process.mjs';

/** A test agent script (only `agent/test/*.ts`) as a command. */
function scriptAgentCommand(script, args) {
  if (!/^agent\/test\/[\w-]+\.ts$/.test(script))
    throw new Error(`agentScript must be agent/test/<name>.ts: ${script}`);
  return [process.execPath, '--import', 'tsx', join(ROOT, script), ...args];
}

/** Environment a test may give an agent: only the reference agent's sign-in key. */
function agentEnv(env) {
  for (const name of Object.keys(env))
    if (name !== 'SILO_REFERENCE_API_KEY') throw new Error(`agentEnv may not set ${name}`);
  return env;
}

/** How long one start command waits for the bridge before answering `pending` (well under 20 s). */
const STARTED_WAIT_MS = 5000;

/** The start's outcome once it settles, or `pending` if it has not within STARTED_WAIT_MS. */
function answerWithin(started, pending) {
  let timer;
  const wait = new Promise((resolveWait) => {
    timer = setTimeout(() => resolveWait(pending), STARTED_WAIT_MS);
  });
  return Promise.race([started, wait]).finally(() => clearTimeout(timer));
}

export function siloTestServices() {
  /** @type {Map<string, {options: object, process?: Awaited<ReturnType<typeof startBridgeProcess>>, ownDir: boolean}>} */
  const bridges = new Map();
  let origins = [];
  let nextId = 1;

  function describe(id, entry) {
    const p = entry.process;
    return {
      id,
      url: p.url,
      token: p.token,
      origin: origins[0],
      origins: p.origins,
      connection: p.connection,
      port: p.port,
      pid: p.pid,
      sessionsDir: entry.options.sessionsDir,
    };
  }

  function entryFor(payload) {
    const entry = bridges.get(payload?.id);
    if (!entry) throw new Error(`no bridge with id ${payload?.id}`);
    return entry;
  }

  async function start(payload = {}) {
    const ownDir = !payload.sessionsDir;
    const agentArgs = [...(payload.agentArgs ?? [])];
    if (payload.replayFiles) agentArgs.push('--files', payload.replayFiles.join(','));
    const options = {
      agentArgs,
      replay: Boolean(payload.replay || payload.replayFiles),
      ...(payload.agentScript ? { agentCommand: scriptAgentCommand(payload.agentScript, agentArgs) } : {}),
      allowOrigin: payload.allowOrigin ?? origins,
      bridgeArgs: payload.bridgeArgs ?? [],
      ...(payload.agentEnv ? { env: agentEnv(payload.agentEnv) } : {}),
      sessionsDir: payload.sessionsDir ?? mkdtempSync(join(tmpdir(), 'silo-wtr-sessions-')),
    };
    const id = `bridge-${nextId++}`;
    const entry = { options, ownDir };
    bridges.set(id, entry);
    return launch(id, entry, options);
  }

  /** Starts (or restarts) entry's bridge process; answers like `started`. */
  function launch(id, entry, options) {
    entry.starting = startBridgeProcess({ ...options, timeoutMs: 0 }).then((p) => {
      entry.process = p;
      return describe(id, entry);
    });
    return started(id);
  }

  /** The bridge's description once its start is done, or `{id, pending}` after STARTED_WAIT_MS. */
  function started(id) {
    return answerWithin(entryFor({ id }).starting, { id, pending: true });
  }

  async function stop(id, entry, keep) {
    // A start still under way is let finish, so its process is stopped, not left behind.
    await entry.starting?.catch(() => undefined);
    if (entry.process) {
      // Remembered so silo-bridge-restart can bring it back on the same port with the same token.
      entry.port = entry.process.port;
      entry.token = entry.process.token;
    }
    await entry.process?.stop();
    entry.process = undefined;
    if (!keep) {
      bridges.delete(id);
      if (entry.ownDir) rmSync(entry.options.sessionsDir, { recursive: true, force: true });
    }
  }

  return {
    name: 'silo-test-services',

    serverStart({ config }) {
      const scheme = config.http2 ? 'https' : 'http';
      const host = config.hostname ?? 'localhost';
      origins = [`${scheme}://${host}:${config.port}`];
      if (host === 'localhost') origins.push(`${scheme}://127.0.0.1:${config.port}`);
    },

    async serverStop() {
      await Promise.all([...bridges].map(([id, entry]) => stop(id, entry, false)));
    },

    async executeCommand({ command, payload, session }) {
      switch (command) {
        case 'silo-bridge-start':
          return start(payload);
        case 'silo-bridge-stop': {
          await stop(payload?.id, entryFor(payload), Boolean(payload?.keep));
          return { stopped: true };
        }
        case 'silo-bridge-started':
          return started(payload?.id);
        case 'silo-bridge-restart': {
          const entry = entryFor(payload);
          await entry.starting?.catch(() => undefined);
          const previous = entry.process;
          const port = previous?.port ?? entry.port;
          const token = previous?.token ?? entry.token;
          await previous?.stop();
          entry.process = undefined;
          entry.port = port;
          entry.token = token;
          return launch(payload.id, entry, { ...entry.options, port, token });
        }
        case 'silo-bridge-kill-agents': {
          const entry = entryFor(payload);
          const killed = entry.process ? entry.process.agentPids() : [];
          for (const pid of killed) {
            try {
              process.kill(pid, payload?.signal ?? 'SIGKILL');
            } catch {
              // already gone
            }
          }
          return { killed };
        }
        case 'silo-bridge-agent-count':
          return { count: entryFor(payload).process?.agentPids().length ?? 0 };
        case 'silo-bridge-spawned-count':
          return { count: entryFor(payload).process?.spawnedCount() ?? 0 };
        case 'silo-bridge-log':
          return { lines: [...(entryFor(payload).process?.log ?? [])] };
        case 'silo-agent-sent': {
          const file = join(entryFor(payload).options.sessionsDir, 'sent.log');
          const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
          const prefix = `${payload.sessionId} `;
          return { sent: lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length)) };
        }
        case 'silo-permission': {
          const page = session.browser.getPage(session.id);
          const origin = new URL(page.url()).origin;
          await page
            .browserContext()
            .setPermission(origin, { permission: { name: payload.name }, state: payload.state });
          return { set: true };
        }
        case 'silo-agent-calls': {
          const file = join(entryFor(payload).options.sessionsDir, 'calls.log');
          return { calls: existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [] };
        }
        default:
          return undefined;
      }
    },
  };
}
