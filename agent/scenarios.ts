/**
 * How a prompt picks one of the reference agent's scenarios: a leading `/scenario <name> [args]`;
 * any other prompt plays `default`. Free of Node imports so a page (the tests) can import it. The
 * scenarios themselves (name, arguments, description and implementation, side by side) live in
 * `agent/scenarios/`, one registry built from their files: `agent/scenarios/index.ts`.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Turn } from './turn.ts';

/** One scenario a prompt can pick. */
export interface ScenarioInfo {
  /** Name after `/scenario`. */
  name: string;
  /** Arguments it takes, for help text (`[n] [ms]`), empty if none. */
  args: string;
  /** One line saying what the agent sends. */
  description: string;
}

/** A scenario and what plays it. */
export interface Scenario extends ScenarioInfo {
  /** Plays the scenario in `turn`; resolves to the prompt's stop reason. */
  run(turn: Turn): Promise<StopReason>;
}

/** The prefix that picks a scenario. */
export const SCENARIO_COMMAND = '/scenario';

/**
 * Splits a prompt into a scenario name and its arguments: `/scenario flood 200` → `flood`, `['200']`.
 * Anything else → `default` with the whole text.
 */
export function pickScenario(text: string): { name: string; args: string[]; text: string } {
  const match = /^\s*\/scenario(?:\s+(\S+))?([^\n]*)\n?([\s\S]*)$/.exec(text);
  if (!match) return { name: 'default', args: [], text };
  const name = match[1] ?? 'list';
  return {
    name: name === 'help' ? 'list' : name,
    args: (match[2] ?? '').trim().split(/\s+/).filter(Boolean),
    text: match[3] ?? '',
  };
}

/** The prompt text that plays a scenario, e.g. `scenarioPrompt('flood', 200)`. */
export function scenarioPrompt(name: string, ...args: (string | number)[]): string {
  return [SCENARIO_COMMAND, name, ...args.map(String)].join(' ');
}
