/**
 * Pure helpers of `<silo-elicitation>`: how a live question ended when its signal aborted, the
 * `datetime-local` conversions, the error shape a rejected answer carries, and its events' detail.
 *
 * It takes the validators from their own entry (`silo-acp/elicitation`) statically: this module is
 * loaded with `<silo-elicitation>`'s chunk, never in the first paint.
 * @packageDocumentation
 */
import { formFields, initialAnswers, validateAnswers } from '../../src/elicitation/index.ts';
import type {
  AgentElicitationAnswer,
  AgentElicitationQuestion,
  AgentElicitationRecord,
  AgentElicitationRequest,
  AgentElicitationResolution,
} from '../../src/index.ts';
import type { SiloElicitationStrings } from '../shared/strings/strings.ts';

/** Detail of the `silo-elicitation-*` events. */
export interface SiloElicitationEventDetail {
  readonly id: string;
  /** On `silo-elicitation-ended`: how it ended. */
  readonly resolution?: AgentElicitationResolution;
  /** On `silo-elicitation-answered`: the values the agent received. */
  readonly content?: Readonly<Record<string, AgentElicitationAnswer>>;
  /** On `silo-elicitation-answered`: the answers as the user saw them. */
  readonly answers?: Readonly<Record<string, string>>;
  /** On `silo-elicitation-url-opened`: the URL opened. */
  readonly url?: string;
}

/** The events `<silo-elicitation>` fires. */
export interface SiloElicitationEventMap {
  'silo-elicitation-answered': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-declined': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-cancelled': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-url-opened': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-ended': CustomEvent<SiloElicitationEventDetail>;
}

const RESOLUTIONS = new Set<string>(['answered', 'declined', 'cancelled', 'unanswerable']);

/**
 * How a live request ended when its signal aborted, read from `signal.reason`: Silo aborts it with
 * the resolution itself (`AgentElicitationRequest.signal`). Any other reason (a request a page built
 * and aborted itself) counts as `cancelled`. Never throws.
 */
export function resolutionFromAbort(reason: unknown): AgentElicitationResolution {
  return typeof reason === 'string' && RESOLUTIONS.has(reason)
    ? (reason as AgentElicitationResolution)
    : 'cancelled';
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** An RFC 3339 date-time → the value of a `datetime-local` input, in local time (`''` if invalid). */
export function toLocalInput(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * A `datetime-local` value → RFC 3339 with the local offset (the wall time the user typed is kept).
 * An empty or unparsable value is returned as it is, for validation to reject.
 */
export function fromLocalInput(value: string): string {
  const d = new Date(value);
  if (value === '' || Number.isNaN(d.getTime())) return value;
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const seconds = value.length === 16 ? `${value}:00` : value;
  return `${seconds}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The code, message and per-field `data.errors` of a rejected answer (any thrown value). */
export function errorData(error: unknown): {
  code?: string;
  message: string;
  errors?: Record<string, string>;
} {
  const e = error as { code?: unknown; message?: unknown; data?: { errors?: unknown } } | null;
  const errors = e?.data?.errors;
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    message: typeof e?.message === 'string' ? e.message : String(error),
    errors:
      typeof errors === 'object' && errors !== null && !Array.isArray(errors)
        ? (errors as Record<string, string>)
        : undefined,
  };
}

/** The form's starting values: the questions' defaults, as the controls hold them (strings, local time). */
export function initialFormValues(
  questions: readonly AgentElicitationQuestion[],
): Record<string, AgentElicitationAnswer> {
  const values = initialAnswers(questions);
  for (const q of formFields(questions)) {
    const v = values[q.id];
    if (q.format === 'date-time' && typeof v === 'string') values[q.id] = toLocalInput(v);
    if (typeof v === 'number') values[q.id] = String(v);
  }
  return values;
}

/** The form's values as they are validated and sent (date-times back in RFC 3339). */
export function answersForSending(
  questions: readonly AgentElicitationQuestion[],
  values: Readonly<Record<string, AgentElicitationAnswer>>,
): Record<string, AgentElicitationAnswer> {
  const out: Record<string, AgentElicitationAnswer> = {};
  for (const q of formFields(questions)) {
    const v = values[q.id];
    if (v === undefined) continue;
    out[q.id] = q.format === 'date-time' && typeof v === 'string' ? fromLocalInput(v) : v;
  }
  return out;
}

/**
 * Validates the form with the element's strings. A required checkbox is a box the user must tick (as
 * HTML's `required` on a checkbox): unticked, it is unanswered, not "no".
 */
export function validateForm(
  questions: readonly AgentElicitationQuestion[],
  values: Readonly<Record<string, AgentElicitationAnswer>>,
  t: SiloElicitationStrings,
): ReturnType<typeof validateAnswers> {
  const result = validateAnswers(questions, answersForSending(questions, values), t.issue, t);
  const unticked = questions.filter((q) => q.type === 'boolean' && q.required && values[q.id] !== true);
  if (unticked.length === 0) return result;
  const errors: Record<string, string> = result.ok ? {} : { ...result.errors };
  const issues = result.ok ? {} : { ...result.issues };
  for (const q of unticked) {
    errors[q.id] ??= t.issue({ code: 'required' }, q);
    issues[q.id] ??= { code: 'required' };
  }
  return { ok: false, errors, issues };
}

/** The record shown for a live question that ended here, until the journal's row carries it. */
export function endedRecord(
  r: AgentElicitationRequest,
  resolution: AgentElicitationResolution,
  answers: Record<string, string> | undefined,
): AgentElicitationRecord {
  return {
    id: r.id,
    mode: r.mode,
    message: r.message,
    questions: r.questions,
    acknowledgeOnly: r.acknowledgeOnly,
    url: r.url,
    unsupported: r.unsupported,
    resolution,
    answers: resolution === 'answered' ? answers : undefined,
  };
}

/** Where focus goes in a question: the first invalid field, the first field, the primary button, any button. */
export function firstFocusTarget(root: ShadowRoot): HTMLElement | null {
  const invalid = root.querySelector<HTMLElement>('[aria-invalid="true"]');
  return (
    (invalid?.matches('input, select') ? invalid : invalid?.querySelector<HTMLElement>('input, select')) ??
    root.querySelector<HTMLElement>('[data-field]') ??
    root.querySelector<HTMLElement>('button[part~="answer"]:not([disabled])') ??
    root.querySelector<HTMLElement>('button:not([disabled])')
  );
}

/**
 * Escape never answers, declines or cancels a question (that takes a button), so typed answers are
 * never lost to a stray key: in a field it leaves the field (focus moves to the question itself, the
 * answers stay); anywhere else in the question it does nothing.
 */
export function leaveFieldOnEscape(event: KeyboardEvent, root: ShadowRoot): void {
  if (event.key !== 'Escape') return;
  const field = event
    .composedPath()
    .find((n) => n instanceof HTMLElement && n.matches('input, select, textarea')) as HTMLElement | undefined;
  if (!field) return;
  event.preventDefault();
  event.stopPropagation();
  field.blur();
  root.querySelector<HTMLElement>('section[part~="live"]')?.focus();
}
