/**
 * The reference agent's session modes and config options: a mode select (mirroring the deprecated
 * modes), a model select with groups, and a boolean `thinking` option sent only to clients that
 * advertised `session.configOptions.boolean`.
 */
import {
  type ClientCapabilities,
  RequestError,
  type SessionConfigOption,
  type SessionModeState,
} from '@agentclientprotocol/sdk';
import type { SessionRecord } from './store.ts';

export const MODES = [
  { id: 'ask', name: 'Ask', description: 'Asks before every change' },
  { id: 'code', name: 'Code', description: 'Edits files freely' },
  { id: 'architect', name: 'Architect', description: 'Plans, never edits' },
];

export const MODELS = [
  { value: 'fast', name: 'Fast', description: 'Quick answers' },
  { value: 'smart', name: 'Smart', description: 'Careful answers' },
  { value: 'huge', name: 'Huge', description: 'Everything at once' },
];

/** The prefix of mode ids under `--url-mode-ids`: Copilot CLI's ids are URLs. */
export const MODE_URL = 'https://agentclientprotocol.com/protocol/session-modes#';
let urlModeIds = false;

/** Under `--url-mode-ids` (set once, at start) every mode id on the wire is a URL, as Copilot CLI's. */
export function useUrlModeIds(on: boolean): void {
  urlModeIds = on;
}

/** A mode's id as the wire carries it (the record keeps the short one). */
export function wireModeId(id: string): string {
  return urlModeIds ? `${MODE_URL}${id}` : id;
}

export function modeState(record: SessionRecord): SessionModeState {
  return {
    currentModeId: wireModeId(record.modeId),
    availableModes: MODES.map((m) => ({ ...m, id: wireModeId(m.id) })),
  };
}

export function configOptions(record: SessionRecord, caps: ClientCapabilities): SessionConfigOption[] {
  const options: SessionConfigOption[] = [
    {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: wireModeId(record.modeId),
      options: MODES.map((m) => ({ value: wireModeId(m.id), name: m.name, description: m.description })),
    },
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: record.model,
      options: [
        { group: 'standard', name: 'Standard', options: MODELS.slice(0, 2) },
        { group: 'experimental', name: 'Experimental', options: MODELS.slice(2) },
      ],
    },
  ];
  if (caps.session?.configOptions?.boolean) {
    options.push({
      id: 'thinking',
      name: 'Extended thinking',
      category: 'thought_level',
      type: 'boolean',
      currentValue: record.thinking,
    } as SessionConfigOption);
  }
  return options;
}

/** Applies `session/set_mode`; throws invalid params for an unknown mode. */
export function setMode(record: SessionRecord, modeId: string): void {
  const id = urlModeIds && modeId.startsWith(MODE_URL) ? modeId.slice(MODE_URL.length) : modeId;
  if (!MODES.some((m) => m.id === id)) throw RequestError.invalidParams({ modeId }, `unknown mode ${modeId}`);
  record.modeId = id;
}

/** Applies `session/set_config_option`; throws invalid params for an unknown id or value. */
export function setConfigOption(record: SessionRecord, configId: string, value: unknown): void {
  if (configId === 'mode' && typeof value === 'string') {
    setMode(record, value);
    return;
  }
  if (configId === 'model' && typeof value === 'string' && MODELS.some((m) => m.value === value)) {
    record.model = value;
    return;
  }
  if (configId === 'thinking' && typeof value === 'boolean') {
    record.thinking = value;
    return;
  }
  throw RequestError.invalidParams({ configId, value }, `cannot set ${configId} to ${JSON.stringify(value)}`);
}
