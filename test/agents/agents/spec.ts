/**
 * What one real agent module tells the runner: the npm package to install and pin, how to start the
 * agent offline against the mock model server (its command, environment and config files in a
 * private HOME), how it spells the script's tool calls, and which of the checks it offers.
 * @packageDocumentation
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { AgentTools } from '../models/script.ts';

/** Where the agent runs: its install, a private HOME, a working directory, the mock model's URL. */
export interface AgentPlace {
  /** The install folder (`~/.cache/silo-agents/<name>@<version>`), holding `node_modules/`. */
  readonly dir: string;
  /** A fresh temporary HOME, the agent's only home (its config files go here). */
  readonly home: string;
  /** A fresh temporary working directory, the sessions' `cwd`. */
  readonly cwd: string;
  /** The mock model server, `http://127.0.0.1:PORT`. */
  readonly modelUrl: string;
}

/** How to start the agent: its command line and its whole environment (PATH is added). */
export interface AgentLaunch {
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** One real agent. */
export interface AgentSpec {
  /** The name in the report and the cache (`claude-agent-acp`). */
  readonly name: string;
  /** The npm package and the pinned version installed. */
  readonly package: string;
  readonly version: string;
  /** Run once after `npm install` (npm 11 runs no install scripts). */
  postInstall?(dir: string): void;
  /** Writes the agent's config files into `place.home` and returns how to start it. */
  prepare(place: AgentPlace): AgentLaunch;
  /** The script's tool calls in this agent's vocabulary (`cwd`: the working directory). */
  tools(cwd: string): AgentTools;
  /**
   * A slash command that runs offline and ends its turn (its name without `/`), or undefined when
   * the agent offers no commands.
   */
  readonly command?: string;
  /**
   * How the agent loses a session whose process ended mid-turn (its own doing, not Silo's). A restore
   * check that then finds Silo honest about it (journal-only, saying so, the journal kept, no false
   * alarm) is `agent-lost`, not a failure.
   */
  readonly losesSessions?: string;
  /** Why a check cannot run with this agent, by check (shown as `not-offered`). */
  readonly notOffered?: Partial<Record<CheckName, string>>;
}

/** The checks, in the order they run and appear in the table. */
export const CHECKS = [
  'connect',
  'text',
  'thought',
  'permission',
  'shell',
  'slow-shell',
  'output-in-card',
  'cancel',
  'command',
  'question',
  'reload',
  'reload-open',
  'new-profile',
  'subagent',
  'fork',
] as const;

export type CheckName = (typeof CHECKS)[number];

/** The environment every agent gets besides its own: a private HOME, no colour, no telemetry. */
export function baseEnv(place: AgentPlace): Record<string, string> {
  return {
    HOME: place.home,
    USER: 'silo',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    XDG_CONFIG_HOME: `${place.home}/.config`,
    XDG_DATA_HOME: `${place.home}/.local/share`,
    XDG_CACHE_HOME: `${place.home}/.cache`,
    XDG_STATE_HOME: `${place.home}/.local/state`,
    TMPDIR: `${place.home}/tmp`,
  };
}

/**
 * Runs a package's own `postinstall.mjs` (npm 11 runs no install scripts): OpenCode's and Cline's
 * link their platform binary into place. Throws with its stderr when it fails.
 */
export function runPostinstall(dir: string, pkg: string): void {
  const r = spawnSync(process.execPath, ['postinstall.mjs'], {
    cwd: join(dir, 'node_modules', pkg),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${pkg} postinstall failed: ${r.stderr}`);
}
