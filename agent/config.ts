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

export function modeState(record: SessionRecord): SessionModeState {
  return { currentModeId: record.modeId, availableModes: MODES };
}

export function configOptions(record: SessionRecord, caps: ClientCapabilities): SessionConfigOption[] {
  const options: SessionConfigOption[] = [
    {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: record.modeId,
      options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })),
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
  if (!MODES.some((m) => m.id === modeId))
    throw RequestError.invalidParams({ modeId }, `unknown mode ${modeId}`);
  record.modeId = modeId;
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
