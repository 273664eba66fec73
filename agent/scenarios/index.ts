/** Name → implementation of every scenario listed in `agent/scenarios.ts`. */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Turn } from '../turn.ts';
import { background, modeSwitch, permissionFirst, rawOutput, reasoning, updateFirst } from './agents.ts';
import { contentBlocks, promptBlocks } from './attachments.ts';
import { config } from './config.ts';
import { defaultAnswer, demo, list, markdown, messageIds, thoughts } from './content.ts';
import { cancelError, crash, hang, slow, stop } from './endings.ts';
import {
  elicitCustom,
  elicitFormScenario,
  elicitUrl,
  permission,
  permissionTwice,
  withdraw,
} from './interactive.ts';
import { flood, paced } from './perf.ts';
import { big, hugeLine, malformed, unknown } from './robustness.ts';
import { commands, compaction, notice, plan, title, tools, usage } from './tools.ts';

export type ScenarioRun = (turn: Turn) => Promise<StopReason>;

export const RUNS: Record<string, ScenarioRun> = {
  default: defaultAnswer,
  list,
  demo,
  markdown: (t) => markdown(t, true),
  'markdown-no-id': (t) => markdown(t, false),
  'message-ids': messageIds,
  thoughts,
  tools,
  plan,
  usage,
  title,
  commands,
  config,
  notice,
  compaction,
  permission,
  'permission-twice': permissionTwice,
  withdraw,
  'elicit-form': elicitFormScenario,
  'elicit-custom': elicitCustom,
  'elicit-url': (t) => elicitUrl(t, true),
  'elicit-url-pending': (t) => elicitUrl(t, false),
  stop: (t) => stop(t, t.args[0] ?? 'end_turn'),
  'max-tokens': (t) => stop(t, 'max_tokens'),
  'max-turn-requests': (t) => stop(t, 'max_turn_requests'),
  refusal: (t) => stop(t, 'refusal'),
  slow,
  'cancel-error': cancelError,
  hang,
  crash,
  unknown,
  malformed,
  'huge-line': hugeLine,
  big,
  flood,
  paced,
  'permission-first': permissionFirst,
  'raw-output': rawOutput,
  'mode-switch': modeSwitch,
  reasoning,
  'update-first': updateFirst,
  background,
  'prompt-blocks': promptBlocks,
  'content-blocks': contentBlocks,
};
