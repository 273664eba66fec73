/**
 * The agent's session options as Silo shows them: its `configOptions`, legacy `modes` and unstable
 * `models`, each mapped to {@link AgentSessionConfigOption}s. Malformed entries are left out; nothing
 * here throws.
 * @packageDocumentation
 */
import { isObject } from './json.ts';
import type { AgentSessionConfigOption } from './types.ts';

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

/** The two legacy pickers as one select option each: where the agent puts the current and the list. */
const LEGACY = {
  model: { current: 'currentModelId', list: 'availableModels', idKey: 'modelId', name: 'Model' },
  mode: { current: 'currentModeId', list: 'availableModes', idKey: 'id', name: 'Mode' },
} as const;

/** Maps a legacy picker (`models` or `modes`) to one select option, or none when it is malformed. */
function mapLegacy(which: 'model' | 'mode', raw: unknown): AgentSessionConfigOption | undefined {
  const { current, list, idKey, name } = LEGACY[which];
  if (!isObject(raw) || typeof raw[current] !== 'string' || !Array.isArray(raw[list])) return undefined;
  const options = (raw[list] as unknown[]).flatMap((m) =>
    isObject(m) && typeof m[idKey] === 'string'
      ? [
          {
            value: m[idKey],
            name: typeof m.name === 'string' ? m.name : m[idKey],
            ...(typeof m.description === 'string' ? { description: m.description } : {}),
          },
        ]
      : [],
  );
  return {
    id: which,
    name,
    category: which,
    type: 'select',
    currentValue: raw[current],
    options,
    source: which,
  };
}

/**
 * Maps the unstable `models` ({currentModelId, availableModels: [{modelId, name, description}]}) to
 * one select option, or none.
 */
export function mapModels(raw: unknown): AgentSessionConfigOption | undefined {
  return mapLegacy('model', raw);
}

/** Maps legacy `modes` ({currentModeId, availableModes}) to one select option, or none. */
export function mapModes(raw: unknown): AgentSessionConfigOption | undefined {
  return mapLegacy('mode', raw);
}
