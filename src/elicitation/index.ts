/**
 * `silo-acp/elicitation`: answers to an elicitation, validated against their questions before
 * anything is sent (each issue coded, its message localizable), and turned into the values the agent
 * receives and the text the user saw. Pure; nothing here throws.
 *
 * An entry of its own, apart from the main one (`silo-acp`), so that a page's first paint does not
 * load the validators: `<silo-elicitation>` loads them with its own chunk. The default messages and
 * words ({@link formatElicitationIssue}, {@link DEFAULT_ANSWER_WORDS}) stay in the main entry.
 * @packageDocumentation
 */
import type { AgentElicitationAnswer } from '../api.ts';
import type { AgentElicitationOption, AgentElicitationQuestion } from '../types.ts';
import {
  DEFAULT_ANSWER_WORDS,
  type ElicitationAnswerWords,
  type ElicitationIssue,
  type ElicitationIssueCode,
  type ElicitationIssueFormatter,
  formatElicitationIssue,
} from './issues.ts';
import { parseUrl } from './url.ts';

export type {
  ElicitationAnswerWords,
  ElicitationIssue,
  ElicitationIssueCode,
  ElicitationIssueFormatter,
} from './issues.ts';

/**
 * src/json.ts's check, kept here: this entry (`silo-acp/elicitation`) takes page-API modules from the
 * main bundle, which exports no such helper (scripts/build.mjs).
 */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
 * question, otherwise the question is simply left out of `content` and `text`. A question's "Other…"
 * field (`other`) is answered under its own id in `content` and joined to its question's `text`
 * (`SQLite, Other: with WAL`); text there answers a required question. Answers for ids that are not
 * questions are ignored. Numbers may arrive as numeric strings (from an input) and are sent as numbers.
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
  const answerOf = (id: string) => (Object.hasOwn(given, id) ? given[id] : undefined);
  for (const q of questions) {
    const value = answerOf(q.id);
    const otherValue = q.other ? answerOf(q.other.id) : undefined;
    const seen: string[] = [];
    if (!isBlank(otherValue) && q.other) {
      // The question's own "Other…" text: sent under its id, kept in this question's answer.
      const result = check(q.other, otherValue, words);
      if ('issue' in result) issues[q.other.id] = result.issue;
      else {
        content[q.other.id] = result.content;
        seen.push(`${words.other ?? DEFAULT_ANSWER_WORDS.other}: ${result.text}`);
      }
    }
    if (isBlank(value)) {
      if (q.required && seen.length === 0 && !(q.other && issues[q.other.id]))
        issues[q.id] = { code: q.type === 'unsupported' ? 'unsupported' : 'required' };
    } else {
      const result = check(q, value, words);
      if ('issue' in result) issues[q.id] = result.issue;
      else {
        content[q.id] = result.content;
        seen.unshift(result.text);
      }
    }
    if (seen.length > 0) text[q.id] = seen.join(words.separator);
  }
  const ids = Object.keys(issues);
  if (ids.length === 0) return { ok: true, content, text };
  const errors: Record<string, string> = {};
  for (const q of formFields(questions)) {
    const issue = issues[q.id];
    if (issue) errors[q.id] = format(issue, q);
  }
  return { ok: false, errors, issues };
}

/** Every field of a form, in order: each question, then its own "Other…" field when it has one. */
export function formFields(questions: readonly AgentElicitationQuestion[]): AgentElicitationQuestion[] {
  return questions.flatMap((q) => (q.other ? [q, q.other] : [q]));
}

/**
 * The values a form starts with: each question's default, or nothing. Booleans without a default
 * start `false` (a checkbox has no "unanswered" state).
 */
export function initialAnswers(
  questions: readonly AgentElicitationQuestion[],
): Record<string, AgentElicitationAnswer> {
  const values: Record<string, AgentElicitationAnswer> = {};
  for (const q of formFields(questions)) {
    if (q.type === 'unsupported') continue;
    if (q.default !== undefined) values[q.id] = Array.isArray(q.default) ? [...q.default] : q.default;
    else if (q.type === 'boolean') values[q.id] = false;
  }
  return values;
}
