/**
 * The pure elicitation model: turns an ACP `elicitation/create` request into questions a page can
 * render, validates the user's answers before anything is sent, and writes the durable row.
 *
 * Dependency-free apart from types, so it runs unchanged in the worker, on the page and in Node.
 * Nothing here throws: bad input becomes `unsupported` / `invalid` / validation issues.
 *
 * Decisions worth knowing:
 * - A `form` or `url` request while that mode is not advertised, a form without a `requestedSchema`
 *   object, or a url request without a parseable `url` / string `elicitationId` sets `invalid`: the
 *   worker answers it `-32602` and never shows it.
 * - Any other `mode` (custom `_vendor` or future) is `unsupported`: shown, never as a known control,
 *   and can only be declined or cancelled. Its raw payload is kept in `raw`.
 * - A property of an unknown `type` (or a multi-select whose items are of an unknown kind) becomes a
 *   question of type `"unsupported"` that keeps its schema in `raw`, and makes the whole request
 *   `unsupported`.
 * - A url-mode URL that parses but is not `http:`/`https:` (`javascript:`, `data:`, `file:` …) makes the
 *   request `unsupported`, not `invalid`: the user is told what the agent asked for, the URL is shown
 *   as inert text, is never clickable, and the request can only be declined or cancelled.
 * @packageDocumentation
 */

import { isObject, str } from '../json.ts';
import type {
  AgentElicitationOption,
  AgentElicitationQuestion,
  AgentElicitationRecord,
  AgentElicitationResolution,
} from '../types.ts';
import { isOpenableUrl, parseUrl } from './url.ts';

export * from './index.ts';
export * from './issues.ts';
export * from './url.ts';

/** Which elicitation modes the client advertised in `clientCapabilities.elicitation`. */
export interface AdvertisedElicitationModes {
  readonly form: boolean;
  readonly url: boolean;
}

/** An `elicitation/create` request, normalized. See {@link normalizeElicitation}. */
export interface NormalizedElicitation {
  /** The request's `mode` (`"form"`, `"url"`, or a custom / future string; `""` when absent). */
  readonly mode: string;
  /** The human-readable ask (`""` when the agent sent none). */
  readonly message: string;
  /** Form mode: one question per schema property, in the schema's order. Empty otherwise. */
  readonly questions: AgentElicitationQuestion[];
  /** A form with nothing to fill in: the user can only acknowledge (answer `{}`), decline or cancel. */
  readonly acknowledgeOnly: boolean;
  readonly toolCallId?: string;
  readonly sessionId?: string;
  /** Request scope: the id of the client's own in-flight request this question belongs to. */
  readonly requestId?: string | number;
  /** URL mode: the URL, as the agent sent it. */
  readonly url?: string;
  /** URL mode: the opaque id a later `elicitation/complete` names. */
  readonly elicitationId?: string;
  /** True when the request must not be rendered as a known control: it can only be declined or cancelled. */
  readonly unsupported: boolean;
  /**
   * Set (to an English diagnostic) when the request must be answered `-32602` instead of being shown:
   * an unadvertised mode, a missing or malformed schema, a missing or unparseable url or elicitationId.
   */
  readonly invalid?: string;
  /** The params as received (an empty object when they were not an object). */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** The string formats a text question validates (JSON schema `format`). */
export const ELICITATION_TEXT_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

type Json = Record<string, unknown>;

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Drops `undefined` members so rows stay small and deep-equal comparisons stay simple. */
function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = member;
  return out as T;
}

/**
 * Turns `elicitation/create` params into renderable questions. Total: never throws, whatever the
 * params are; see the module notes for what becomes `unsupported` and what becomes `invalid`.
 *
 * @example
 * ```ts
 * const n = normalizeElicitation(params, { form: true, url: true });
 * if (n.invalid) throw RequestError.invalidParams({ reason: n.invalid });
 * ```
 */
export function normalizeElicitation(
  params: unknown,
  advertised: AdvertisedElicitationModes,
): NormalizedElicitation {
  const raw: Json = isObject(params) ? params : {};
  const mode = str(raw.mode) ?? '';
  const scope = compact({
    toolCallId: str(raw.toolCallId),
    sessionId: str(raw.sessionId),
    requestId:
      typeof raw.requestId === 'string' || finite(raw.requestId) !== undefined
        ? (raw.requestId as string | number)
        : undefined,
  });
  const base = { mode, message: str(raw.message) ?? '', ...scope, raw };
  const reject = (invalid: string): NormalizedElicitation => ({
    ...base,
    questions: [],
    acknowledgeOnly: false,
    unsupported: true,
    invalid,
  });

  if (!isObject(params)) return reject('elicitation/create params must be an object');
  if (mode === 'form') {
    if (!advertised.form) return reject('form elicitation was not advertised');
    const schema = raw.requestedSchema;
    if (!isObject(schema)) return reject('form elicitation needs a requestedSchema object');
    if (schema.properties !== undefined && !isObject(schema.properties)) {
      return reject('requestedSchema.properties must be an object');
    }
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
    );
    const questions = withOtherFields(
      Object.entries(schema.properties ?? {}).map(([id, property]) =>
        normalizeQuestion(id, property, required.has(id)),
      ),
    );
    return {
      ...base,
      questions,
      acknowledgeOnly: questions.length === 0,
      unsupported: questions.some((q) => q.type === 'unsupported'),
    };
  }
  if (mode === 'url') {
    if (!advertised.url) return reject('url elicitation was not advertised');
    const url = str(raw.url);
    const elicitationId = str(raw.elicitationId);
    if (url === undefined || parseUrl(url) === undefined) return reject('url elicitation needs a valid url');
    if (elicitationId === undefined) return reject('url elicitation needs an elicitationId');
    return {
      ...base,
      url,
      elicitationId,
      questions: [],
      acknowledgeOnly: false,
      unsupported: !isOpenableUrl(url),
    };
  }
  return { ...base, questions: [], acknowledgeOnly: false, unsupported: true };
}

/** The suffix of a select question's companion free-text field (claude-agent-acp's AskUserQuestion). */
const OTHER_SUFFIX = '_custom';

/**
 * Folds each `<id>_custom` text question into the select question `<id>` as its "Other…" field
 * (`other`), so it is shown, validated and journaled with that question. Any other question stays.
 */
function withOtherFields(questions: AgentElicitationQuestion[]): AgentElicitationQuestion[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const folded = new Set<string>();
  const out: AgentElicitationQuestion[] = [];
  for (const q of questions) {
    const other = byId.get(`${q.id}${OTHER_SUFFIX}`);
    const select = q.type === 'single-select' || q.type === 'multi-select';
    if (select && other?.type === 'text' && !other.other) {
      out.push({ ...q, other });
      folded.add(other.id);
    } else out.push(q);
  }
  return out.filter((q) => !folded.has(q.id));
}

function unsupportedQuestion(id: string, property: unknown, required: boolean): AgentElicitationQuestion {
  const schema = isObject(property) ? property : { value: property };
  return compact({
    id,
    type: 'unsupported' as const,
    title: str(schema.title) ?? id,
    description: str(schema.description),
    required,
    raw: schema,
  });
}

function titledOptions(list: unknown): AgentElicitationOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const options: AgentElicitationOption[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item.const !== 'string') continue;
    options.push(
      compact({
        value: item.const,
        label: str(item.title) ?? item.const,
        description: str(item.description),
      }),
    );
  }
  return options;
}

function plainOptions(list: unknown): AgentElicitationOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter((v): v is string => typeof v === 'string').map((value) => ({ value, label: value }));
}

/** Normalizes one schema property. Unknown kinds become `type: "unsupported"` with the schema kept in `raw`. */
export function normalizeQuestion(
  id: string,
  property: unknown,
  required: boolean,
): AgentElicitationQuestion {
  if (!isObject(property)) return unsupportedQuestion(id, property, required);
  const common = { id, title: str(property.title) ?? id, description: str(property.description), required };
  switch (property.type) {
    case 'string': {
      const options = titledOptions(property.oneOf) ?? plainOptions(property.enum);
      if (options) {
        const fallback = str(property.default);
        return compact({
          ...common,
          type: 'single-select' as const,
          options,
          default: options.some((o) => o.value === fallback) ? fallback : undefined,
        });
      }
      const format = str(property.format);
      return compact({
        ...common,
        type: 'text' as const,
        format: (ELICITATION_TEXT_FORMATS as readonly string[]).includes(format ?? '') ? format : undefined,
        minLength: count(property.minLength),
        maxLength: count(property.maxLength),
        pattern: str(property.pattern),
        default: str(property.default),
      });
    }
    case 'number':
    case 'integer': {
      const fallback = finite(property.default);
      return compact({
        ...common,
        type: property.type,
        minimum: finite(property.minimum),
        maximum: finite(property.maximum),
        default: property.type === 'integer' && !Number.isInteger(fallback) ? undefined : fallback,
      });
    }
    case 'boolean':
      return compact({
        ...common,
        type: 'boolean' as const,
        default: typeof property.default === 'boolean' ? property.default : undefined,
      });
    case 'array': {
      const items = property.items;
      const options = !isObject(items)
        ? undefined
        : items.type === 'string'
          ? plainOptions(items.enum)
          : items.type === undefined
            ? titledOptions(items.anyOf)
            : undefined;
      if (!options) return unsupportedQuestion(id, property, required);
      const known = new Set(options.map((o) => o.value));
      const fallback = Array.isArray(property.default)
        ? property.default.filter((v): v is string => typeof v === 'string' && known.has(v))
        : undefined;
      return compact({
        ...common,
        type: 'multi-select' as const,
        options,
        minItems: count(property.minItems),
        maxItems: count(property.maxItems),
        default: fallback,
      });
    }
    default:
      return unsupportedQuestion(id, property, required);
  }
}

// ── Validation ────────────────────────────────────────────────────────────────────────────────────

// ── Durable rows ──────────────────────────────────────────────────────────────────────────────────

/**
 * The durable row journaled (as kind `"elicitation"`) when a question opens: the request without
 * callables, `raw`, or scope ids. `resolution` is absent: the question is still open.
 */
export function toRecord(normalized: NormalizedElicitation, id: string): AgentElicitationRecord {
  return compact({
    id,
    mode: normalized.mode,
    message: normalized.message,
    questions: normalized.questions,
    acknowledgeOnly: normalized.acknowledgeOnly,
    toolCallId: normalized.toolCallId,
    url: normalized.url,
    unsupported: normalized.unsupported || undefined,
  });
}

/**
 * The row journaled (as kind `"elicitation_resolution"`) when a question ends. `answers` (the text
 * the user saw, from {@link validateAnswers}) are kept only for an `"answered"` resolution, and only
 * when at least one question got an answer (a url consent or an acknowledgement has none).
 */
export function toResolutionRecord(
  id: string,
  resolution: AgentElicitationResolution,
  answers?: Readonly<Record<string, string>>,
): AgentElicitationRecord {
  return resolution === 'answered' && answers && Object.keys(answers).length > 0
    ? { id, resolution, answers: { ...answers } }
    : { id, resolution };
}

/** Patches an opening row with its resolution row (same `id`); returns the opening row otherwise unchanged. */
export function applyResolution(
  record: AgentElicitationRecord,
  resolution: AgentElicitationRecord,
): AgentElicitationRecord {
  if (resolution.id !== record.id || resolution.resolution === undefined) return record;
  return compact({ ...record, resolution: resolution.resolution, answers: resolution.answers });
}
