/**
 * The session-state reducer: the one place that folds updates into a session's state — its title,
 * usage (context, cost, the tokens and time of each turn and of the session), slash commands, config
 * options and legacy mode. Pure and total: the worker's snapshot and the
 * transcript model both use it, so the page has one source of truth for each fact.
 *
 * It reads {@link AgentSessionUpdate}s as the worker journals them (and as older journals hold them):
 * `usage` normalized, and for the other state kinds the agent's fields under `raw`. Malformed fields
 * leave the state unchanged; nothing here throws. What a prompt names a session is read by
 * `prompt-title.ts`, the agent's options are mapped by `config-options.ts`.
 * @packageDocumentation
 */

import { mapConfigOptions, mapModels, mapModes } from './config-options.ts';
import { isObject, type ReadonlyRaw as Raw, str } from './json.ts';
import { isPromptId } from './prompt-ids.ts';
import { promptTitle } from './prompt-title.ts';
import type {
  AgentActivity,
  AgentCommand,
  AgentSessionConfigOption,
  AgentSessionUpdate,
  AgentSessionUsage,
  AgentTokenCounts,
  AgentTurnUsage,
} from './types.ts';
import { addTokens, addUsage, journaledUsage, requestUsage, type TurnReports, turnUsage } from './usage.ts';

/** What a session's updates say about it, beside the conversation. */
export interface SessionState {
  /**
   * From `session_info_update` (`null` there clears it); until the agent sends one, the first line
   * of the first prompt that says something (Codex never sends a title; its own session list does the
   * same), without protocol noise ({@link promptTitle}). A prompt that is only a slash command
   * (`/scenario tools`) names the session for the time being, without its slash (`scenario tools`),
   * until a prompt of words does.
   */
  readonly title?: string;
  /** Where {@link title} came from: the agent's `session_info_update`, a prompt, or a slash command. */
  readonly titleFrom?: 'agent' | 'prompt' | 'command';
  /** True once a prompt of words was seen (only the first one may name the session). */
  readonly prompted?: boolean;
  /**
   * The latest `usage_update` (context used of its size); `cost` is the latest cost reported, kept
   * when a later update carries none (it is cumulative).
   */
  readonly usage?: AgentSessionUsage;
  /** The session's tokens: the sum of its turns' (src/usage.ts). */
  readonly tokens?: AgentTokenCounts;
  /** The running turn: when its prompt was sent and what its requests reported so far. */
  readonly turn?: TurnReports & { readonly promptId?: string };
  /** What the last turn that ended used (journaled with its `turn_end`). */
  readonly lastTurn?: AgentTurnUsage;
  /** What the agent last said its session is doing (codex-acp's `threadStatus`). */
  readonly activity?: AgentActivity;
  /** The latest `available_commands_update`. */
  readonly commands: readonly AgentCommand[];
  /** The agent's config options (from a session response or `config_option_update`). */
  readonly config: readonly AgentSessionConfigOption[];
  /** The legacy mode as a select option (`source: "mode"`), if the agent has modes. */
  readonly mode?: AgentSessionConfigOption;
  /** The unstable `models` of a session response as a select option (`source: "model"`). */
  readonly model?: AgentSessionConfigOption;
}

/** The state before any update. */
export const EMPTY_SESSION_STATE: SessionState = { commands: [], config: [] };

/** Update kinds that change {@link SessionState} and draw no row. */
export const SESSION_STATE_KINDS: ReadonlySet<string> = new Set([
  'usage_update',
  'session_info_update',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
]);

/**
 * Applies one update. Returns `state` itself when the update changes nothing (any kind outside
 * {@link SESSION_STATE_KINDS} but the first prompt's text, or a malformed field), else a new state.
 */
export function reduceSessionState(state: SessionState, u: AgentSessionUpdate): SessionState {
  const raw: Raw = isObject(u?.raw) ? u.raw : {};
  switch (u?.kind) {
    case 'usage_update': {
      const usage =
        u.usage ??
        (typeof raw.used === 'number' && typeof raw.size === 'number'
          ? { used: raw.used, size: raw.size }
          : undefined);
      if (!usage) return state;
      const cost = usage.cost ?? state.usage?.cost;
      return { ...state, usage: cost ? { ...usage, cost } : usage };
    }
    case 'user_message_chunk':
      return promptTitled(turnStarted(state, u), u);
    case 'turn_start': // a turn the agent started by itself: timed and counted like a prompt's
      return { ...state, turn: u.timestamp ? { startedAt: u.timestamp } : {} };
    case 'agent_message_chunk': {
      const reported = requestUsage(u.kind, raw);
      return reported && state.turn
        ? { ...state, turn: { ...state.turn, reported: addUsage(state.turn.reported, reported) } }
        : state;
    }
    case 'turn_end': {
      const usage = journaledUsage(u.turnEnd?.usage) ?? turnUsage(state.turn, raw, u.timestamp);
      const { turn: _, lastTurn: __, ...rest } = state;
      const tokens = addTokens(state.tokens, usage?.tokens);
      return { ...rest, ...(tokens ? { tokens } : {}), ...(usage ? { lastTurn: usage } : {}) };
    }
    case 'session_info_update': {
      const activity = threadStatus(raw);
      const next = activity ? { ...state, activity } : state;
      if (raw.title === null) {
        const { title: _, titleFrom: __, ...rest } = next;
        return rest;
      }
      return typeof raw.title === 'string' ? titled(next, raw.title, 'agent') : next;
    }
    case 'available_commands_update':
      return Array.isArray(raw.availableCommands)
        ? { ...state, commands: mapCommands(raw.availableCommands) }
        : state;
    case 'config_option_update':
      return { ...state, config: mapConfigOptions(raw.configOptions) };
    case 'current_mode_update': // (Gemini CLI's mode marker, shaped as one, is the worker's: worker/state.ts)
      return typeof raw.currentModeId === 'string' ? withMode(state, raw.currentModeId) : state;
    default:
      return state;
  }
}

const WAITING_ON: Readonly<Record<string, 'approval' | 'input'>> = {
  waitingOnApproval: 'approval',
  waitingOnUserInput: 'input',
};

/** codex-acp's `_meta.codex.threadStatus` ({type, activeFlags}) as an {@link AgentActivity}. */
function threadStatus(raw: Raw): AgentActivity | undefined {
  const meta = isObject(raw._meta) ? raw._meta : undefined;
  const codex = meta && isObject(meta.codex) ? meta.codex : undefined;
  const status = codex && isObject(codex.threadStatus) ? codex.threadStatus : undefined;
  if (typeof status?.type !== 'string') return undefined;
  const flags = Array.isArray(status.activeFlags) ? status.activeFlags : [];
  const waitingOn = [
    ...new Set(flags.flatMap((f) => (typeof f === 'string' && WAITING_ON[f] ? [WAITING_ON[f]] : []))),
  ];
  return waitingOn.length ? { status: status.type, waitingOn } : { status: status.type };
}

/** The first prompt of words names the session (until the agent does); a slash command for a while. */
function promptTitled(state: SessionState, u: AgentSessionUpdate): SessionState {
  if (state.prompted) return state;
  const named = typeof u.text === 'string' ? promptTitle(u.text) : undefined;
  if (!named) return state;
  if (named.command) return state.title === undefined ? titled(state, named.title, 'command') : state;
  const free = state.title === undefined || state.titleFrom === 'command';
  return { ...(free ? titled(state, named.title, 'prompt') : state), prompted: true };
}

/**
 * Silo's own prompt (a timestamped `silo-u…` user chunk, not one sent into a running turn) starts a
 * turn: its time is kept to time the turn, and the turn's reports start empty.
 */
function turnStarted(state: SessionState, u: AgentSessionUpdate): SessionState {
  const promptId = u.messageId;
  if (!u.timestamp || !isPromptId(promptId) || u.steered || state.turn?.promptId === promptId) return state;
  return { ...state, turn: { startedAt: u.timestamp, promptId } };
}

/**
 * What a turn used once its prompt response is in: the running turn's reports with the response's
 * counts, timed up to `endedAt` (the worker journals it with the turn's end).
 */
export function endingTurnUsage(
  state: SessionState,
  response: Raw,
  endedAt: string,
): AgentTurnUsage | undefined {
  return turnUsage(state.turn, response, endedAt);
}

function titled(state: SessionState, title: string, from: SessionState['titleFrom']): SessionState {
  return { ...state, title, titleFrom: from };
}

/** Folds updates in order from `state` (default: empty). */
export function reduceSessionStates(
  updates: readonly AgentSessionUpdate[],
  state: SessionState = EMPTY_SESSION_STATE,
): SessionState {
  return updates.reduce(reduceSessionState, state);
}

/**
 * Applies a session response (`session/new`, `session/load`, `session/resume`,
 * `session/set_config_option`): the config options and modes it carries replace the current ones.
 */
export function withSessionResponse(state: SessionState, response: unknown): SessionState {
  if (!isObject(response)) return state;
  let next = state;
  if (response.configOptions !== undefined && response.configOptions !== null)
    next = { ...next, config: mapConfigOptions(response.configOptions) };
  if (response.modes !== undefined && response.modes !== null) {
    const mode = mapModes(response.modes);
    next = mode ? { ...next, mode } : withoutMode(next);
  }
  if (response.models !== undefined && response.models !== null) {
    const model = mapModels(response.models);
    if (model) next = { ...next, model };
    else {
      const { model: _, ...rest } = next;
      next = rest;
    }
  }
  return next;
}

/**
 * Records the current mode: the legacy mode option's value, and the value of each mode config option
 * (category `mode`) that offers `modeId` — an agent that keeps both (Copilot CLI) announces a change
 * with `current_mode_update` only, and the picker shows the config option.
 */
export function withMode(state: SessionState, modeId: string): SessionState {
  const offers = (o: AgentSessionConfigOption) =>
    o.category === 'mode' &&
    o.type === 'select' &&
    o.currentValue !== modeId &&
    o.options?.some((v) => v.value === modeId);
  const next = state.config.some(offers)
    ? { ...state, config: state.config.map((o) => (offers(o) ? { ...o, currentValue: modeId } : o)) }
    : state;
  return next.mode ? { ...next, mode: { ...next.mode, currentValue: modeId } } : next;
}

/** Records the current model of the unstable `models` list (no change when the agent has none). */
export function withModel(state: SessionState, modelId: string): SessionState {
  return state.model ? { ...state, model: { ...state.model, currentValue: modelId } } : state;
}

/**
 * The options a page shows: config options, plus the mode and the model lists unless a config
 * option covers them.
 */
export function configOptionsOf(state: SessionState): AgentSessionConfigOption[] {
  const covered = (category: string) => state.config.some((o) => o.category === category);
  const out = [...state.config];
  if (state.mode && !covered('mode')) out.push(state.mode);
  if (state.model && !covered('model')) out.push(state.model);
  return out;
}

function withoutMode(state: SessionState): SessionState {
  const { mode: _, ...rest } = state;
  return rest;
}

function mapCommands(raw: readonly unknown[]): AgentCommand[] {
  const commands: AgentCommand[] = [];
  for (const c of raw) {
    if (!isObject(c) || typeof c.name !== 'string') continue;
    const hint = isObject(c.input) ? str(c.input.hint) : undefined;
    commands.push({ name: c.name, description: str(c.description) ?? '', ...(hint ? { hint } : {}) });
  }
  return commands;
}
