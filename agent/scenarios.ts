/**
 * The reference agent's scenarios: names and one-line descriptions only, free of Node imports so a
 * page (the demo's picker) can import it. A prompt picks one with a leading `/scenario <name> [args]`;
 * any other prompt plays `default`. The implementations live in `agent/scenarios/`.
 */

/** One scenario a prompt can pick. */
export interface ScenarioInfo {
  /** Name after `/scenario`. */
  name: string;
  /** Arguments it takes, for help text (`[n] [ms]`), empty if none. */
  args: string;
  /** One line saying what the agent sends. */
  description: string;
}

/** Every scenario, in the order the demo's picker shows them. */
export const SCENARIOS: readonly ScenarioInfo[] = [
  {
    name: 'default',
    args: '',
    description: 'Plain prompt: a thought, then a short markdown answer echoing the prompt.',
  },
  { name: 'list', args: '', description: 'Lists every scenario (also: /scenario help).' },
  {
    name: 'demo',
    args: '',
    description: 'A tour: title, plan, thoughts, markdown, tool calls with diffs, usage.',
  },
  {
    name: 'markdown',
    args: '',
    description: 'Streams rich markdown (headings, lists, code, table) in small chunks with a messageId.',
  },
  { name: 'markdown-no-id', args: '', description: 'The same markdown with no messageId on any chunk.' },
  {
    name: 'message-ids',
    args: '',
    description: 'Two same-kind messages back to back with different ids, then ids interleaved A, B, A.',
  },
  { name: 'thoughts', args: '', description: 'Thought chunks interleaved with message chunks.' },
  {
    name: 'tools',
    args: '',
    description:
      'Tool calls pending → in_progress → completed/failed, with content, diffs (new file, edit) and locations.',
  },
  { name: 'plan', args: '', description: 'A three-entry plan re-sent whole as each entry progresses.' },
  { name: 'usage', args: '', description: 'usage_update without cost, then with cost.' },
  { name: 'title', args: '[title]', description: 'session_info_update setting the title (and updatedAt).' },
  {
    name: 'commands',
    args: '',
    description: 'available_commands_update with commands, one with an input hint.',
  },
  {
    name: 'config',
    args: '',
    description: 'The agent changes its own mode and model: current_mode_update and config_option_update.',
  },
  {
    name: 'notice',
    args: '',
    description:
      'notice updates of each severity (or a plain message if the client did not advertise notices).',
  },
  {
    name: 'compaction',
    args: '',
    description: 'compaction_update in_progress → summary chunks → completed (if advertised).',
  },
  {
    name: 'permission',
    args: '[file] [hold]',
    description:
      'session/request_permission (to write file, default config.json) with every option kind; answers with what was chosen (hold: an allowed call runs until cancelled, as Claude’s Bash).',
  },
  {
    name: 'permission-twice',
    args: '',
    description: 'Two permission requests open at once; waits for both.',
  },
  {
    name: 'withdraw',
    args: '[ms]',
    description:
      'A permission request and a question, withdrawn with $/cancel_request after ms (default 300).',
  },
  {
    name: 'elicit-form',
    args: '[force] [tool]',
    description:
      'elicitation/create form mode with every property type; replies "You answered: {json}" (tool: for a tool call announced first, as Claude’s AskUserQuestion).',
  },
  { name: 'elicit-custom', args: '[force]', description: 'A form with an unknown property type `_slider`.' },
  {
    name: 'elicit-url',
    args: '[force]',
    description: 'URL-mode elicitation; sends elicitation/complete after accept.',
  },
  { name: 'elicit-url-pending', args: '[force]', description: 'URL-mode elicitation that never completes.' },
  {
    name: 'stop',
    args: '<reason>',
    description:
      'Ends the turn with the given stopReason (end_turn, max_tokens, max_turn_requests, refusal, or any string).',
  },
  { name: 'max-tokens', args: '', description: 'Some text, then stopReason max_tokens.' },
  { name: 'max-turn-requests', args: '', description: 'Some text, then stopReason max_turn_requests.' },
  { name: 'refusal', args: '', description: 'A short refusal, then stopReason refusal.' },
  {
    name: 'slow',
    args: '[chunks] [ms]',
    description: 'Streams slowly (default 50 chunks, 100 ms apart); session/cancel ends it with cancelled.',
  },
  {
    name: 'cancel-error',
    args: '',
    description: 'Streams slowly; on cancel answers the prompt with an error instead of cancelled.',
  },
  { name: 'hang', args: '', description: 'Sends one chunk, then never answers the prompt (ignores cancel).' },
  {
    name: 'crash',
    args: '[code]',
    description: 'Sends a chunk and a pending tool call, then exits with code 3 mid-turn.',
  },
  {
    name: 'unknown',
    args: '',
    description:
      'Unknown sessionUpdate `_vendor_thing`, vendor _meta, unknown fields, an unknown content block, `_vendor/ping`.',
  },
  {
    name: 'malformed',
    args: '',
    description: 'Writes one malformed JSON line to stdout, then continues normally.',
  },
  {
    name: 'huge-line',
    args: '[MB]',
    description: 'Writes one 40 MB session/update line (over the 32 MiB ndjson limit).',
  },
  { name: 'big', args: '[MB]', description: 'Sends one 10 MB agent message chunk (under the limits).' },
  {
    name: 'flood',
    args: '[n]',
    description: 'n chunks (default 10000) as fast as the pipe takes them; history keeps one summary.',
  },
  {
    name: 'paced',
    args: '<rate> <count>',
    description: 'count chunks at rate per second, each with _meta["silo/sentAt"] = Date.now().',
  },
  {
    name: 'permission-first',
    args: '',
    description:
      'Asks permission (Gemini option ids) for a tool call never announced; allowed: one completed update with only rawOutput; rejected: nothing more, end_turn.',
  },
  {
    name: 'raw-output',
    args: '',
    description: 'Two tool calls with no content, only rawOutput: a string with markup, and an object.',
  },
  {
    name: 'mode-switch',
    args: '[modeId]',
    description:
      'The agent switches its own mode (default architect) and announces it after the turn (as [MODE_UPDATE] text under --mode-update-marker).',
  },
  {
    name: 'reasoning',
    args: '',
    description:
      'Codex-style: id-less thought starting with "\\n\\n", usage/commands/config updates in its middle, then a message starting blank.',
  },
  {
    name: 'update-first',
    args: '',
    description:
      'Cline-style: a tool_call_update (in progress, with content) before the tool_call of its id, then its completion.',
  },
  {
    name: 'background',
    args: '[ms]',
    description:
      'Starts a background task; ms (default 50) after the turn the agent runs a turn of its own (Claude: a task notification).',
  },
  {
    name: 'prompt-blocks',
    args: '',
    description: 'Answers with the prompt’s content blocks as JSON, exactly as received (attachments).',
  },
  {
    name: 'content-blocks',
    args: '[base-url]',
    description:
      'An image, an image by URL under base-url, an embedded text resource and a resource link under base-url.',
  },
];

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
