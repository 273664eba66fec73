/**
 * The scenario picker's content: the reference agent's scenarios (`SCENARIOS`), with the ones that
 * show a feature first under a friendly label. Clicking one sends `/scenario <name> [args]`.
 */

import { SCENARIOS } from '../agent/scenarios/index.ts';
import { type ScenarioInfo, scenarioPrompt } from '../agent/scenarios.ts';

/** One entry of the picker. */
export interface PickerEntry {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  /** The prompt that plays it. */
  readonly prompt: string;
}

/** Features first: what a visitor should see. `args` are filled in for scenarios that need them. */
const FEATURED: readonly { name: string; label: string; args?: (string | number)[] }[] = [
  { name: 'demo', label: 'Guided tour' },
  { name: 'tools', label: 'Tool calls & diffs' },
  { name: 'plan', label: 'Plan' },
  { name: 'permission', label: 'Permission' },
  { name: 'elicit-form', label: 'Question (form)' },
  { name: 'elicit-url', label: 'Question (URL)' },
  { name: 'notice', label: 'Notices' },
  { name: 'usage', label: 'Usage & cost' },
  { name: 'thoughts', label: 'Thoughts' },
  { name: 'markdown', label: 'Markdown' },
  { name: 'compaction', label: 'Compaction' },
  { name: 'config', label: 'Mode & model' },
  { name: 'commands', label: 'Slash commands' },
  { name: 'refusal', label: 'Refusal' },
  { name: 'slow', label: 'Slow stream (try Stop)' },
];

/** Default arguments for scenarios that need some. */
const DEFAULT_ARGS: Record<string, (string | number)[]> = {
  stop: ['end_turn'],
  paced: [20, 60],
  flood: [2000],
  big: [1],
};

/** Scenarios meant for tests only: they end or overload the agent on purpose. */
const HIDDEN = new Set(['huge-line', 'hang']);

function entry(
  info: ScenarioInfo,
  label: string,
  args: (string | number)[] = DEFAULT_ARGS[info.name] ?? [],
): PickerEntry {
  return {
    name: info.name,
    label,
    description: info.description,
    prompt: scenarioPrompt(info.name, ...args),
  };
}

/** The featured scenarios, in order. */
export const featuredScenarios: readonly PickerEntry[] = FEATURED.flatMap((f) => {
  const info = SCENARIOS.find((s) => s.name === f.name);
  return info ? [entry(info, f.label, f.args)] : [];
});

/** Every other scenario (edge cases and robustness), by name. */
export const moreScenarios: readonly PickerEntry[] = SCENARIOS.filter(
  (s) => !FEATURED.some((f) => f.name === s.name) && !HIDDEN.has(s.name),
).map((s) => entry(s, s.name));
