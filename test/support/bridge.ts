/**
 * Browser-side helpers for tests: start and control real bridges through the test runner's
 * `silo-test-services` plugin (test/support/wtr-plugin.mjs).
 *
 * @example
 * ```ts
 * const bridge = await startBridge({ agentArgs: ['--no-load'] });
 * const socket = new WebSocket(bridge.url, bridgeProtocols(bridge.token));
 * …
 * await stopBridge(bridge.id);
 * ```
 */
import { executeServerCommand } from '@web/test-runner-commands';

/** Options of {@link startBridge}. */
export interface StartBridgeOptions {
  /** Flags for the reference agent (see agent/options.ts), or for the replay agent with `replay`. */
  agentArgs?: string[];
  /** Run agent/replay.ts instead of the reference agent. */
  replay?: boolean;
  /** A test agent under `agent/test/` (e.g. `agent/test/fuzz-agent.ts`) instead of the reference agent. */
  agentScript?: string;
  /** Recordings for the replay agent (`main`, `load`, `resume`); implies `replay`. */
  replayFiles?: string[];
  /** Allowed origins (default: the test page's origin). */
  allowOrigin?: string[];
  /** Extra bridge flags, e.g. `['--max-connections', '1']`. */
  bridgeArgs?: string[];
  /** Sessions directory of the agent (default: a fresh temp dir per bridge). */
  sessionsDir?: string;
  /** Environment for the agent (only `SILO_REFERENCE_API_KEY`, the reference agent's sign-in key). */
  agentEnv?: Record<string, string>;
}

/** A started bridge. */
export interface TestBridge {
  id: string;
  /** `ws://127.0.0.1:PORT` */
  url: string;
  token: string;
  /** The test page's origin, allowed by default. */
  origin: string;
  origins: string[];
  /** `url` and `token` in one string (`ws://…/#token=…`). */
  connection: string;
  port: number;
  /** Process id of the bridge. */
  pid: number;
  sessionsDir: string;
}

/** A start command's answer: the bridge, or `pending` while it has not announced itself yet. */
type Started = TestBridge | { id: string; pending: true };

/**
 * Asks again until a start or restart is done: the runner gives one command 20 s, which a bridge
 * started through tsx can take on a loaded machine, so the plugin answers `pending` before that.
 */
async function untilStarted(first: Promise<Started>): Promise<TestBridge> {
  let answer = await first;
  while ('pending' in answer)
    answer = await executeServerCommand<Started, { id: string }>('silo-bridge-started', { id: answer.id });
  return answer;
}

/** Starts a real bridge + agent; resolves once it listens, rejects if it exits before that. */
export function startBridge(options: StartBridgeOptions = {}): Promise<TestBridge> {
  return untilStarted(executeServerCommand<Started, StartBridgeOptions>('silo-bridge-start', options));
}

/** Stops a bridge and its agents. With `keep`, {@link restartBridge} can bring it back later. */
export async function stopBridge(id: string, keep = false): Promise<void> {
  await executeServerCommand('silo-bridge-stop', { id, keep });
}

/** Restarts a bridge on the same port, token and sessions dir (simulates a bridge restart). */
export function restartBridge(id: string): Promise<TestBridge> {
  return untilStarted(executeServerCommand<Started, { id: string }>('silo-bridge-restart', { id }));
}

/** Kills the bridge's agent processes (default SIGKILL, a crash); resolves with their pids. */
export async function killBridgeAgents(id: string, signal = 'SIGKILL'): Promise<number[]> {
  const r = await executeServerCommand<{ killed: number[] }, { id: string; signal: string }>(
    'silo-bridge-kill-agents',
    { id, signal },
  );
  return r.killed;
}

/** Live agent processes of the bridge. */
export async function bridgeAgentCount(id: string): Promise<number> {
  return (await executeServerCommand<{ count: number }, { id: string }>('silo-bridge-agent-count', { id }))
    .count;
}

/** Agents the bridge spawned since it (re)started. */
export async function bridgeSpawnedCount(id: string): Promise<number> {
  return (await executeServerCommand<{ count: number }, { id: string }>('silo-bridge-spawned-count', { id }))
    .count;
}

/** The bridge's log lines (no message bodies). */
export async function bridgeLog(id: string): Promise<string[]> {
  return (await executeServerCommand<{ lines: string[] }, { id: string }>('silo-bridge-log', { id })).lines;
}

/**
 * Numbers of the updates the reference agent wrote to its stdout pipe for `sessionId`, across every
 * agent process of the bridge (restarts included). Needs the agent flag `--sent-log`; each update
 * carries its number in `raw._meta["silo/sent"]`, so `sent − journaled` is what was lost.
 */
export async function agentSent(id: string, sessionId: string): Promise<string[]> {
  return (
    await executeServerCommand<{ sent: string[] }, { id: string; sessionId: string }>('silo-agent-sent', {
      id,
      sessionId,
    })
  ).sent;
}

/**
 * What the client asked of the reference agent, in order, across every agent process of the bridge:
 * `<method> <sessionId>` (`-` when the message names no session). Needs the agent flag `--calls-log`.
 */
export async function agentCalls(id: string): Promise<string[]> {
  return (await executeServerCommand<{ calls: string[] }, { id: string }>('silo-agent-calls', { id })).calls;
}

/** Alias of {@link TestBridge}. */
export type BridgeInfo = TestBridge;

/** Alias of {@link killBridgeAgents}. */
export const killAgents = killBridgeAgents;
