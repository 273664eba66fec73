/**
 * The session-state reducer: the one place that folds updates into a session's state — its title,
 * usage, slash commands, config options and legacy mode. Pure and total: the worker's snapshot and the
 * transcript model both use it, so the page has one source of truth for each fact.
 *
 * It reads {@link AgentSessionUpdate}s as the worker journals them (and as older journals hold them):
 * `usage` normalized, and for the other state kinds the agent's fields under `raw`. Malformed fields
 * leave the state unchanged; nothing here throws.
 * @packageDocumentation
 */

import type { ReadonlyRaw as Raw } from './json.ts';
import type {
  AgentCommand,
  AgentSessionConfigOption,
  AgentSessionUpdate,
  AgentSessionUsage,
} from './types.ts';

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
  /** The latest `usage_update`. */
  readonly usage?: AgentSessionUsage;
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

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

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
      return usage ? { ...state, usage } : state;
    }
    case 'user_message_chunk': {
      if (state.prompted) return state;
      const named = typeof u.text === 'string' ? promptTitle(u.text) : undefined;
      if (!named) return state;
      if (named.command) return state.title === undefined ? titled(state, named.title, 'command') : state;
      const free = state.title === undefined || state.titleFrom === 'command';
      return { ...(free ? titled(state, named.title, 'prompt') : state), prompted: true };
    }
    case 'session_info_update':
      if (raw.title === null) {
        const { title: _, titleFrom: __, ...rest } = state;
        return rest;
      }
      return typeof raw.title === 'string' ? titled(state, raw.title, 'agent') : state;
    case 'available_commands_update':
      return Array.isArray(raw.availableCommands)
        ? { ...state, commands: mapCommands(raw.availableCommands) }
        : state;
    case 'config_option_update':
      return { ...state, config: mapConfigOptions(raw.configOptions) };
    case 'current_mode_update': {
      const modeId = typeof raw.currentModeId === 'string' ? raw.currentModeId : modeUpdateMarker(raw);
      return modeId !== undefined ? withMode(state, modeId) : state;
    }
    default:
      return state;
  }
}

const MODE_UPDATE = /^\[MODE_UPDATE\] (\S+)\s*$/;

/**
 * The mode id of Gemini CLI's mode announcement, an `agent_message_chunk` whose text is
 * `[MODE_UPDATE] <modeId>` (sent outside any turn); the worker journals it as a `current_mode_update`
 * with that raw chunk. `undefined` for anything else.
 */
export function modeUpdateMarker(raw: Raw): string | undefined {
  const content = isObject(raw.content) ? raw.content : undefined;
  const text = content?.type === 'text' ? str(content.text) : undefined;
  return text === undefined ? undefined : MODE_UPDATE.exec(text)?.[1];
}

function titled(state: SessionState, title: string, from: SessionState['titleFrom']): SessionState {
  return { ...state, title, titleFrom: from };
}

/** User text an agent adds to its own history after a cancelled turn (claude-agent-acp); never a prompt. */
export const AGENT_MADE_USER = /^\s*\[Request interrupted by user[^\]\n]*\]\s*$/;

/** Longest title taken from a prompt, in characters. */
const PROMPT_TITLE_MAX = 80;
/** A block of markup around context a client or agent adds to a prompt (`<session_context>…</…>`). */
const TAGGED_BLOCK = /<([a-z][\w-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi;
/** A fenced block (a file's contents in a prompt). */
const FENCED_BLOCK = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
/** A slash command at the start of a line, and what follows it. */
const COMMAND = /^\/([\w:.-]+)(.*)$/;

/**
 * What a prompt's text names a session: its first line that says something, clipped to
 * {@link PROMPT_TITLE_MAX}, after the protocol noise is dropped — tagged context blocks
 * (`<session_context>…</session_context>`, `<system-reminder>…`), fenced file contents — with
 * `command` set when that line is a slash command (the title is then the command without its slash).
 * None when nothing is left, and for the user text an agent adds itself ({@link AGENT_MADE_USER}).
 */
export function promptTitle(text: string): { title: string; command: boolean } | undefined {
  if (AGENT_MADE_USER.test(text)) return undefined;
  const line = text
    .replace(TAGGED_BLOCK, '')
    .replace(FENCED_BLOCK, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return undefined;
  const command = COMMAND.exec(line);
  const words = command ? `${command[1]}${command[2]}`.trim() : line;
  const title = words.length > PROMPT_TITLE_MAX ? `${words.slice(0, PROMPT_TITLE_MAX - 1)}…` : words;
  return { title, command: command !== null };
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

/** Records the current legacy mode (no change when the agent has no modes). */
export function withMode(state: SessionState, modeId: string): SessionState {
  return state.mode ? { ...state, mode: { ...state.mode, currentValue: modeId } } : state;
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

function selectOptions(raw: unknown): AgentSessionConfigOption['options'] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((o) => {
    if (!isObject(o)) return [];
    if (Array.isArray(o.options)) {
      const group = typeof o.name === 'string' ? o.name : String(o.group ?? '');
      return (selectOptions(o.options) ?? []).map((x) => ({ ...x, group }));
    }
    if (typeof o.value !== 'string') return [];
    const name = typeof o.name === 'string' ? o.name : o.value;
    return [
      typeof o.description === 'string'
        ? { value: o.value, name, description: o.description }
        : { value: o.value, name },
    ];
  });
}

/** Maps the agent's `configOptions` (unknown option types are ignored). */
export function mapConfigOptions(raw: unknown): AgentSessionConfigOption[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((o): AgentSessionConfigOption[] => {
    if (!isObject(o) || typeof o.id !== 'string') return [];
    const common = {
      id: o.id,
      name: typeof o.name === 'string' ? o.name : o.id,
      ...(typeof o.description === 'string' ? { description: o.description } : {}),
      ...(typeof o.category === 'string' ? { category: o.category } : {}),
      source: 'config' as const,
    };
    if (o.type === 'boolean' && typeof o.currentValue === 'boolean') {
      return [{ ...common, type: 'boolean', currentValue: o.currentValue }];
    }
    if ((o.type === 'select' || o.type === undefined) && typeof o.currentValue === 'string') {
      return [{ ...common, type: 'select', currentValue: o.currentValue, options: selectOptions(o.options) }];
    }
    return [];
  });
}

/**
 * Maps the unstable `models` ({currentModelId, availableModels: [{modelId, name, description}]}) to
 * one select option, or none.
 */
export function mapModels(raw: unknown): AgentSessionConfigOption | undefined {
  if (!isObject(raw) || typeof raw.currentModelId !== 'string' || !Array.isArray(raw.availableModels))
    return undefined;
  const options = raw.availableModels.flatMap((m) =>
    isObject(m) && typeof m.modelId === 'string'
      ? [
          {
            value: m.modelId,
            name: typeof m.name === 'string' ? m.name : m.modelId,
            ...(typeof m.description === 'string' ? { description: m.description } : {}),
          },
        ]
      : [],
  );
  return {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: raw.currentModelId,
    options,
    source: 'model',
  };
}

/** Maps legacy `modes` ({currentModeId, availableModes}) to one select option, or none. */
export function mapModes(raw: unknown): AgentSessionConfigOption | undefined {
  if (!isObject(raw) || typeof raw.currentModeId !== 'string' || !Array.isArray(raw.availableModes))
    return undefined;
  const options = raw.availableModes.flatMap((m) =>
    isObject(m) && typeof m.id === 'string'
      ? [
          {
            value: m.id,
            name: typeof m.name === 'string' ? m.name : m.id,
            ...(typeof m.description === 'string' ? { description: m.description } : {}),
          },
        ]
      : [],
  );
  return {
    id: 'mode',
    name: 'Mode',
    category: 'mode',
    type: 'select',
    currentValue: raw.currentModeId,
    options,
    source: 'mode',
  };
}
