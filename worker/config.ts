/**
 * Config options and legacy modes, mapped to {@link AgentSessionConfigOption}. Modes are surfaced as a
 * select option with `source: "mode"` unless the agent also sends a config option of category `mode`
 * (then only the config options are used, as the protocol recommends).
 */
import type { AgentSessionConfigOption } from '../src/types.ts';

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** Config options plus the mode option (dropped when a config option already covers modes). */
export class ConfigState {
  private config: AgentSessionConfigOption[] = [];
  private mode: AgentSessionConfigOption | undefined;

  get options(): AgentSessionConfigOption[] {
    const hasModeConfig = this.config.some((o) => o.category === 'mode');
    return this.mode && !hasModeConfig ? [...this.config, this.mode] : this.config;
  }

  /** Applies a session response (`session/new`, `load`, `resume`): fields present replace state. */
  applyResponse(response: unknown): void {
    if (!isObject(response)) return;
    if (response.configOptions !== undefined && response.configOptions !== null)
      this.config = mapConfigOptions(response.configOptions);
    if (response.modes !== undefined && response.modes !== null) this.mode = mapModes(response.modes);
  }

  /** Applies `config_option_update` / `current_mode_update`; returns true when something changed. */
  applyUpdate(raw: Raw): boolean {
    if (raw.sessionUpdate === 'config_option_update') {
      this.config = mapConfigOptions(raw.configOptions);
      return true;
    }
    if (raw.sessionUpdate === 'current_mode_update' && typeof raw.currentModeId === 'string' && this.mode) {
      this.mode = { ...this.mode, currentValue: raw.currentModeId };
      return true;
    }
    return false;
  }

  find(id: string): AgentSessionConfigOption | undefined {
    return this.options.find((o) => o.id === id);
  }

  /** Records a value the agent accepted for a legacy mode. */
  setMode(value: string): void {
    if (this.mode) this.mode = { ...this.mode, currentValue: value };
  }
}
