/**
 * The one registry of the reference agent's scenarios, built from the scenario files: each file
 * lists its own (name, arguments, description, implementation), and this concatenates them in the
 * order `/scenario list` and the demo's picker show them.
 */
import type { Scenario } from '../scenarios.ts';
import { scenarios as agents } from './agents.ts';
import { scenarios as attachments } from './attachments.ts';
import { scenarios as content } from './content.ts';
import { scenarios as endings } from './endings.ts';
import { scenarios as hugeText } from './huge-text.ts';
import { scenarios as interactive } from './interactive.ts';
import { scenarios as offers } from './offers.ts';
import { scenarios as perf } from './perf.ts';
import { scenarios as robustness } from './robustness.ts';
import { scenarios as subagent } from './subagent.ts';
import { scenarios as terminal } from './terminal.ts';
import { scenarios as tools } from './tools.ts';

/** Every scenario, in the order `/scenario list` and the demo's picker show them. */
export const SCENARIOS: readonly Scenario[] = [
  ...content,
  ...tools,
  ...terminal,
  ...subagent,
  ...interactive,
  ...endings,
  ...robustness,
  ...hugeText,
  ...perf,
  ...agents,
  ...attachments,
  ...offers,
];

/** The scenario named `name`, if there is one. */
export function scenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
