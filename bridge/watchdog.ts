/**
 * The bridge's watchdog: ends the agents of a bridge that died without ending them itself (SIGKILL,
 * the OOM killer, a crash). Node has no `prctl(PR_SET_PDEATHSIG)`, and a death signal would reach only
 * the agent, not what the agent started; so each bridge starts one small `sh` process that holds the
 * other end of a pipe from the bridge (a lifeline) and a list of the agents' process groups:
 *
 * - the bridge writes `+<pgid>` when it spawns an agent and `-<pgid>` once that agent's processes
 *   are all gone (`bridge/reaper.ts`), so an ended group is never signalled again;
 * - when the pipe reaches end of file, the bridge is gone (the kernel closes a dead process's
 *   descriptors, however it died). The watchdog then sends SIGTERM to every group still listed and
 *   to every process whose environment carries this bridge's connection mark (Linux `/proc`: finds
 *   `setsid` daemons too), SIGKILL after {@link WATCHDOG_GRACE_MS}, and exits.
 *
 * The watchdog is double-forked (`( … ) &` in a shell that exits at once), so it is not the bridge's
 * child (tools that count the bridge's children count agents only), and it runs in a session of its
 * own, so closing the terminal (SIGHUP) or Ctrl-C (SIGINT) does not reach it. `sh` is the same on
 * Linux and macOS, starts in a millisecond and holds no memory to speak of; a Node process per bridge
 * would cost some 40 MB, and one per agent eight times that.
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { BridgeLog } from './connector.ts';

/** Time between the watchdog's SIGTERM and its SIGKILL (the same as the bridge's own). */
export const WATCHDOG_GRACE_MS = 2000;

/**
 * The watchdog, in POSIX sh, reading the lifeline on descriptor 3. `$1` is the mark (`SILO_CONNECTION=<run id>.`) every agent of this
 * bridge carries in its environment; `$2` is the number of 0.1 s steps of the grace period.
 */
const SCRIPT = `
(
  trap '' HUP INT
  mark=$1 steps=$2 groups=' '
  while IFS= read -r line <&3; do
    case $line in
      +*) groups="$groups\${line#+} " ;;
      -*) kept=' '
          for g in $groups; do [ "$g" = "\${line#-}" ] || kept="$kept$g "; done
          groups=$kept ;;
    esac
  done
  marked() {
    [ -r /proc/self/environ ] || return 0
    grep -laF -- "$mark" /proc/[0-9]*/environ 2>/dev/null | while IFS=/ read -r _ _ pid _; do echo "$pid"; done
  }
  signal() {
    for g in $groups; do kill -s "$1" -- "-$g" 2>/dev/null; done
    for p in $(marked); do kill -s "$1" "$p" 2>/dev/null; done
  }
  alive() {
    for g in $groups; do kill -0 -- "-$g" 2>/dev/null && return 0; done
    [ -n "$(marked)" ]
  }
  signal TERM
  n=0
  while [ $n -lt "$steps" ] && alive; do sleep 0.1; n=$((n + 1)); done
  n=0
  while [ $n -lt 20 ] && alive; do signal KILL; sleep 0.1; n=$((n + 1)); done
) &
`;

/** A running watchdog. Every method is a no-op when the watchdog could not be started. */
export interface Watchdog {
  /** Lists an agent's process group (its pid: agents lead their own group). */
  watch(pgid: number): void;
  /** Takes a group off the list once every process in it has ended. */
  unwatch(pgid: number): void;
  /** Ends the watchdog (closes the lifeline): it then ends whatever is still listed, and exits. */
  close(): void;
}

/**
 * Starts the watchdog for the agents whose environment carries `mark` (`SILO_CONNECTION=<run>.`), with
 * `env` as its own environment. Resolves once it runs on its own (the shell that started it has
 * exited); never rejects: without `sh` it logs why and resolves to a watchdog that does nothing
 * (agents then outlive a SIGKILL of the bridge).
 */
export function startWatchdog(mark: string, env: NodeJS.ProcessEnv, log: BridgeLog): Promise<Watchdog> {
  const child = spawn('sh', ['-c', SCRIPT, 'silo-bridge-watchdog', mark, String(WATCHDOG_GRACE_MS / 100)], {
    detached: true,
    // Not stdin: Node closes a child's stdin when the child exits, and this one exits at once.
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    env,
  });
  const lifeline = child.stdio[3] as Socket;
  lifeline.on('error', () => {});
  const send = (line: string) => {
    if (lifeline.writable) lifeline.write(`${line}\n`);
  };
  const running: Watchdog = {
    watch: (pgid) => send(`+${pgid}`),
    unwatch: (pgid) => send(`-${pgid}`),
    close: () => lifeline.end(),
  };
  return new Promise((resolve) => {
    child.once('error', (error) => {
      log(`warning: no watchdog (${error.message}): agents will outlive a SIGKILL of the bridge`);
      resolve({ watch() {}, unwatch() {}, close() {} });
    });
    child.once('exit', () => {
      // The lifeline must not keep the bridge's event loop alive.
      lifeline.unref();
      resolve(running);
    });
  });
}
