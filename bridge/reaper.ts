/**
 * Ends everything an agent started, including what left its process group. Each connection's agent
 * runs with `SILO_CONNECTION=<run>.<n>` (the bridge's random run id, the connection's number) in its
 * environment, which every descendant inherits, so a double-forked `setsid -f` daemon that no longer
 * belongs to the agent's tree or group is still found by scanning `/proc/<pid>/environ`. Linux only
 * (elsewhere the process group alone is ended). A descendant that replaces its environment
 * (`env -i`) is found only while it stays in the group; one that also leaves it, or runs as another
 * user, escapes. When the bridge itself is killed, `watchdog.ts` does the same for every agent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The environment variable that marks a connection's agent and its descendants. */
export const CONNECTION_ENV = 'SILO_CONNECTION';

/** Grace period between SIGTERM and SIGKILL when ending an agent's processes. */
export const KILL_GRACE_MS = 2000;

function stat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

function marked(pid: string, marker: Buffer): boolean {
  try {
    const env = readFileSync(`/proc/${pid}/environ`);
    return env.indexOf(marker) === 0 || env.indexOf(Buffer.concat([Buffer.from([0]), marker])) !== -1;
  } catch {
    return false;
  }
}

/**
 * Live (not zombie) pids in process group `pgid` or carrying `SILO_CONNECTION=<nonce>`, except this
 * process. Empty where `/proc` cannot be read.
 */
export function agentProcesses(pgid: number, nonce: string): number[] {
  const marker = Buffer.from(`${CONNECTION_ENV}=${nonce}\0`);
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const s = stat(name);
    if (!s || s.state === 'Z') continue;
    if (s.pgrp === pgid || marked(name, marker)) found.push(Number(name));
  }
  return found;
}

function signalAll(pgid: number, nonce: string, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // group empty
  }
  for (const pid of agentProcesses(pgid, nonce)) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Ends an agent's processes: SIGTERM to its group and to every process marked with `nonce`, then,
 * once `graceMs` passed with any of them alive, SIGKILL to all of them (the group too, even when its
 * leader has already exited), repeated until none is left. Resolves when none is left; never throws.
 */
export async function endAgentProcesses(pgid: number, nonce: string, graceMs = KILL_GRACE_MS): Promise<void> {
  signalAll(pgid, nonce, 'SIGTERM');
  if (!existsSync('/proc/self/stat')) {
    // No /proc to watch: the group gets SIGKILL once the grace period is over.
    await new Promise((r) => setTimeout(r, graceMs));
    signalAll(pgid, nonce, 'SIGKILL');
    return;
  }
  const deadline = Date.now() + graceMs;
  while (agentProcesses(pgid, nonce).length > 0) {
    if (Date.now() >= deadline) signalAll(pgid, nonce, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
  }
}
