/**
 * The config options a user chose in a session (mode, model, others): set on the agent, remembered
 * in the session's journal record, and set again after a restore when the agent came back with
 * something else (Codex answers `session/load` and `session/resume` with its defaults).
 */
import type { AgentSessionConfigOption } from '../src/types.ts';
import type { Journal } from './journal.ts';
import type { AgentLink } from './link.ts';
import type { LiveSessionState } from './state.ts';

type Value = string | boolean;

/**
 * Sets one option on the agent by the method its source needs (`session/set_mode`,
 * `session/set_model`, `session/set_config_option`) and applies what the agent accepted to `config`.
 * Rejects with the agent's coded error; `config` is then unchanged.
 */
export async function setOption(
  link: AgentLink,
  config: LiveSessionState,
  sessionId: string,
  option: AgentSessionConfigOption,
  value: Value,
): Promise<void> {
  if (option.source === 'mode') {
    await link.request('session/set_mode', { sessionId, modeId: String(value) });
    config.setMode(String(value));
  } else if (option.source === 'model') {
    await link.request('session/set_model', { sessionId, modelId: String(value) });
    config.setModel(String(value));
  } else {
    const params =
      typeof value === 'boolean'
        ? { sessionId, configId: option.id, type: 'boolean', value }
        : { sessionId, configId: option.id, value };
    config.applyResponse(await link.request('session/set_config_option', params));
  }
}

/** Remembers a choice the agent accepted, in the session's journal record. */
export async function rememberChoice(journal: Journal, sessionId: string, id: string, value: Value) {
  const record = await journal.session(sessionId);
  await journal.upsertSession(sessionId, { choices: { ...record?.choices, [id]: value } });
}

/**
 * After a restore: every remembered choice the agent's state no longer shows is set again, when the
 * agent still offers the option and the value. Resolves to the ids set again; a choice the agent
 * refuses now is left as the agent says (never throws).
 */
export async function reapplyChoices(
  link: AgentLink,
  journal: Journal,
  config: LiveSessionState,
  sessionId: string,
): Promise<string[]> {
  const choices = (await journal.session(sessionId))?.choices ?? {};
  const reapplied: string[] = [];
  for (const [id, value] of Object.entries(choices)) {
    const option = config.find(id);
    if (!option || option.currentValue === value) continue;
    if (option.type === 'select' && !option.options?.some((o) => o.value === value)) continue;
    if (option.type === 'boolean' && typeof value !== 'boolean') continue;
    try {
      await setOption(link, config, sessionId, option, value);
      reapplied.push(id);
    } catch {
      // Refused now: the agent's value stands.
    }
  }
  return reapplied;
}
