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
import type { AgentElicitationAnswer } from './api.ts';
import type {
  AgentElicitationOption,
  AgentElicitationQuestion,
  AgentElicitationRecord,
  AgentElicitationResolution,
} from './types.ts';

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

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

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
    const questions = Object.entries(schema.properties ?? {}).map(([id, property]) =>
      normalizeQuestion(id, property, required.has(id)),
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

/** Why an answer does not satisfy its question. */
export type ElicitationIssueCode =
  | 'required'
  | 'type'
  | 'option'
  | 'integer'
  | 'minimum'
  | 'maximum'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'minItems'
  | 'maxItems'
  | 'unsupported';

/** One validation problem: a code and, for bounds, the limit (a number) or, for `format`, the format name. */
export interface ElicitationIssue {
  readonly code: ElicitationIssueCode;
  readonly limit?: number | string;
}

/** Turns an issue into a message for the user. Pass your own to {@link validateAnswers} to localize. */
export type ElicitationIssueFormatter = (
  issue: ElicitationIssue,
  question: AgentElicitationQuestion,
) => string;

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uri: 'a URL',
  date: 'a date',
  'date-time': 'a date and time',
};

/** The default English messages. */
export const formatElicitationIssue: ElicitationIssueFormatter = (issue, question) => {
  const n = issue.limit;
  const items = question.type === 'multi-select';
  switch (issue.code) {
    case 'required':
      return items ? 'Choose at least one option.' : 'This question needs an answer.';
    case 'type':
      return question.type === 'number' || question.type === 'integer'
        ? 'Enter a number.'
        : 'This answer has the wrong type.';
    case 'option':
      return 'Choose one of the offered options.';
    case 'integer':
      return 'Enter a whole number.';
    case 'minimum':
      return `Enter a number of at least ${n}.`;
    case 'maximum':
      return `Enter a number of at most ${n}.`;
    case 'minLength':
      return `Enter at least ${n} character${n === 1 ? '' : 's'}.`;
    case 'maxLength':
      return `Enter at most ${n} character${n === 1 ? '' : 's'}.`;
    case 'pattern':
      return 'This answer is not in the expected form.';
    case 'format':
      return `Enter ${FORMAT_NAMES[String(n)] ?? 'a valid value'}.`;
    case 'minItems':
      return `Choose at least ${n} option${n === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `Choose at most ${n} option${n === 1 ? '' : 's'}.`;
    case 'unsupported':
      return 'This question cannot be answered here.';
  }
};

/** Content values as the agent receives them. */
export type ElicitationContentValue = string | number | boolean | string[];

/** The result of {@link validateAnswers}. */
export type ElicitationValidation =
  | {
      readonly ok: true;
      /** What the agent receives: option values, numbers as numbers, arrays for multi-select. */
      readonly content: Record<string, ElicitationContentValue>;
      /** What the user saw, for answered questions only: labels, comma-joined labels, "Yes"/"No", typed text. */
      readonly text: Record<string, string>;
    }
  | {
      readonly ok: false;
      /** Question id → message (from the formatter). */
      readonly errors: Record<string, string>;
      /** Question id → issue, for callers that format messages themselves. */
      readonly issues: Record<string, ElicitationIssue>;
    };

/** Words used in answer text; replace to localize the durable `"Yes"`/`"No"` and the multi-select joiner. */
export interface ElicitationAnswerWords {
  readonly yes: string;
  readonly no: string;
  readonly separator: string;
}

export const DEFAULT_ANSWER_WORDS: ElicitationAnswerWords = { yes: 'Yes', no: 'No', separator: ', ' };

function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function codePoints(value: string): number {
  return [...value].length;
}

function matchesPattern(value: string, pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(value);
    } catch {
      // Not a valid pattern with these flags; try the next, and let the agent judge if none compiles.
    }
  }
  return true;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

/** True when `value` satisfies a JSON schema string `format` (unknown formats always pass). */
export function matchesFormat(value: string, format: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case 'uri':
      return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value) && parseUrl(value) !== undefined;
    case 'date': {
      const m = DATE.exec(value);
      return m !== null && validDate(m[1] as string, m[2] as string, m[3] as string);
    }
    case 'date-time': {
      const m = DATE_TIME.exec(value);
      return (
        m !== null &&
        validDate(m[1] as string, m[2] as string, m[3] as string) &&
        Number(m[4]) < 24 &&
        Number(m[5]) < 60 &&
        Number(m[6]) < 61
      );
    }
    default:
      return true;
  }
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

type Checked = { issue: ElicitationIssue } | { content: ElicitationContentValue; text: string };

function check(q: AgentElicitationQuestion, value: unknown, words: ElicitationAnswerWords): Checked {
  const fail = (code: ElicitationIssueCode, limit?: number | string): Checked => ({
    issue: limit === undefined ? { code } : { code, limit },
  });
  switch (q.type) {
    case 'single-select': {
      const option = q.options?.find((o) => o.value === value);
      return option ? { content: option.value, text: option.label } : fail('option');
    }
    case 'multi-select': {
      if (!Array.isArray(value)) return fail('type');
      const picked: AgentElicitationOption[] = [];
      for (const v of value) {
        const option = q.options?.find((o) => o.value === v);
        if (!option) return fail('option');
        if (!picked.includes(option)) picked.push(option);
      }
      if (q.minItems !== undefined && picked.length < q.minItems) return fail('minItems', q.minItems);
      if (q.maxItems !== undefined && picked.length > q.maxItems) return fail('maxItems', q.maxItems);
      return { content: picked.map((o) => o.value), text: picked.map((o) => o.label).join(words.separator) };
    }
    case 'boolean':
      return typeof value === 'boolean'
        ? { content: value, text: value ? words.yes : words.no }
        : fail('type');
    case 'number':
    case 'integer': {
      const n = toNumber(value);
      if (n === undefined) return fail('type');
      if (q.type === 'integer' && !Number.isInteger(n)) return fail('integer');
      if (q.minimum !== undefined && n < q.minimum) return fail('minimum', q.minimum);
      if (q.maximum !== undefined && n > q.maximum) return fail('maximum', q.maximum);
      return { content: n, text: typeof value === 'string' ? value.trim() : String(n) };
    }
    case 'text': {
      if (typeof value !== 'string') return fail('type');
      const length = codePoints(value);
      if (q.minLength !== undefined && length < q.minLength) return fail('minLength', q.minLength);
      if (q.maxLength !== undefined && length > q.maxLength) return fail('maxLength', q.maxLength);
      if (q.format !== undefined && !matchesFormat(value, q.format)) return fail('format', q.format);
      if (q.pattern !== undefined && !matchesPattern(value, q.pattern)) return fail('pattern');
      return { content: value, text: value };
    }
    default:
      return fail('unsupported');
  }
}

/**
 * Validates answers (keyed by question id) against their questions before anything is sent.
 *
 * An absent, `null`, blank-string or empty-array answer counts as unanswered: an error for a required
 * question, otherwise the question is simply left out of `content` and `text`. Answers for ids that are
 * not questions are ignored. Numbers may arrive as numeric strings (from an input) and are sent as numbers.
 * A question of type `"unsupported"` always fails when answered or required. Never throws.
 *
 * @param format turns each issue into the message in `errors` (default: English {@link formatElicitationIssue}).
 * @param words the words used in `text` for booleans and multi-select lists.
 */
export function validateAnswers(
  questions: readonly AgentElicitationQuestion[],
  answers: Readonly<Record<string, AgentElicitationAnswer | null | undefined>>,
  format: ElicitationIssueFormatter = formatElicitationIssue,
  words: ElicitationAnswerWords = DEFAULT_ANSWER_WORDS,
): ElicitationValidation {
  const content: Record<string, ElicitationContentValue> = {};
  const text: Record<string, string> = {};
  const issues: Record<string, ElicitationIssue> = {};
  const given: Readonly<Record<string, unknown>> = isObject(answers) ? answers : {};
  for (const q of questions) {
    const value = Object.hasOwn(given, q.id) ? given[q.id] : undefined;
    if (isBlank(value)) {
      if (q.required) issues[q.id] = { code: q.type === 'unsupported' ? 'unsupported' : 'required' };
      continue;
    }
    const result = check(q, value, words);
    if ('issue' in result) issues[q.id] = result.issue;
    else {
      content[q.id] = result.content;
      text[q.id] = result.text;
    }
  }
  const ids = Object.keys(issues);
  if (ids.length === 0) return { ok: true, content, text };
  const errors: Record<string, string> = {};
  for (const q of questions) {
    const issue = issues[q.id];
    if (issue) errors[q.id] = format(issue, q);
  }
  return { ok: false, errors, issues };
}

/**
 * The values a form starts with: each question's default, or nothing. Booleans without a default
 * start `false` (a checkbox has no "unanswered" state).
 */
export function initialAnswers(
  questions: readonly AgentElicitationQuestion[],
): Record<string, AgentElicitationAnswer> {
  const values: Record<string, AgentElicitationAnswer> = {};
  for (const q of questions) {
    if (q.type === 'unsupported') continue;
    if (q.default !== undefined) values[q.id] = Array.isArray(q.default) ? [...q.default] : q.default;
    else if (q.type === 'boolean') values[q.id] = false;
  }
  return values;
}

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

// ── URL mode ──────────────────────────────────────────────────────────────────────────────────────

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** True only for an absolute `http:` or `https:` URL: the only kind Silo lets a user open. */
export function isOpenableUrl(url: string): boolean {
  const parsed = parseUrl(url);
  return parsed !== undefined && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
}

/** A URL split for display: the host to emphasise between what comes before and after it. */
export interface ElicitationUrlParts {
  /** The full URL, as the URL parser serializes it (IDN hosts appear in punycode). */
  readonly href: string;
  readonly before: string;
  readonly host: string;
  readonly after: string;
  /** True for `http:`/`https:` only. */
  readonly openable: boolean;
  /** True when a host label is punycode (`xn--`): it may imitate another site. */
  readonly punycode: boolean;
}

/**
 * Splits a URL for display. An unparseable URL comes back whole in `before`, with no host, not openable.
 */
export function describeUrl(url: string): ElicitationUrlParts {
  const parsed = parseUrl(url);
  if (!parsed) return { href: url, before: url, host: '', after: '', openable: false, punycode: false };
  const href = parsed.href;
  const host = parsed.host;
  const userinfo =
    parsed.username || parsed.password
      ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@`
      : '';
  const prefix = `${parsed.protocol}//${userinfo}`;
  const at = host && href.startsWith(prefix + host) ? prefix.length : -1;
  const punycode = parsed.hostname.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
  const openable = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (at < 0) return { href, before: href, host: '', after: '', openable, punycode };
  return { href, before: href.slice(0, at), host, after: href.slice(at + host.length), openable, punycode };
}
