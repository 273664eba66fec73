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
