/**
 * `<silo-elicitation>`: a question the agent asks (ACP `elicitation/create`), live or as a transcript row.
 * This module only declares the class; `silo-elicitation.define.ts` registers it.
 * @packageDocumentation
 */
import { css, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import {
  type AgentElicitationAnswer,
  type AgentElicitationQuestion,
  type AgentElicitationRecord,
  type AgentElicitationRequest,
  type AgentElicitationResolution,
  DEFAULT_ANSWER_WORDS,
  describeUrl,
  type ElicitationAnswerWords,
  type ElicitationIssueFormatter,
  formatElicitationIssue,
  initialAnswers,
  validateAnswers,
} from '../src/index.ts';

/** Every user-visible string of `<silo-elicitation>`; set {@link SiloElicitation.strings} to localize. */
export interface SiloElicitationStrings extends ElicitationAnswerWords {
  /** Heading line: who is asking. */
  asks(agentName: string | undefined): string;
  answer: string;
  acknowledge: string;
  decline: string;
  cancel: string;
  /** Marks a required question (visible mark is `*`; this is its accessible text). */
  required: string;
  /** Error messages for invalid answers. */
  issue: ElicitationIssueFormatter;
  /** Shown instead of a control for a question of an unknown kind. */
  unsupportedQuestion(type: string): string;
  /** Shown for a request Silo cannot render (unknown mode or question kind). */
  unsupportedRequest: string;
  /** Shown above the field list when an answer is rejected. */
  fixErrors: string;
  /** Shown when sending an answer failed for another reason. */
  sendFailed(message: string): string;
  urlIntro: string;
  open: string;
  openAgain: string;
  stopWaiting: string;
  waiting: string;
  completed: string;
  stoppedWaiting: string;
  punycodeWarning(host: string): string;
  notOpenable: string;
  noAnswer: string;
  resolution(resolution: AgentElicitationResolution | undefined, mode: string | undefined): string;
}

/** The default English strings. */
export const DEFAULT_ELICITATION_STRINGS: SiloElicitationStrings = {
  ...DEFAULT_ANSWER_WORDS,
  asks: (agent) => (agent ? `${agent} asks` : 'The agent asks'),
  answer: 'Answer',
  acknowledge: 'OK',
  decline: 'Decline',
  cancel: 'Cancel',
  required: 'required',
  issue: formatElicitationIssue,
  unsupportedQuestion: (type) => `This question needs a kind of input (${type}) that cannot be shown here.`,
  unsupportedRequest: 'This request cannot be shown here. You can decline or cancel it.',
  fixErrors: 'Some answers need attention.',
  sendFailed: (message) => `Your answer could not be sent: ${message}`,
  urlIntro: 'The agent asks you to open this address:',
  open: 'Open in new tab',
  openAgain: 'Open again',
  stopWaiting: 'Stop waiting',
  waiting: 'Opened in a new tab. Waiting for the agent to confirm it is done.',
  completed: 'The agent confirmed it is done.',
  stoppedWaiting: 'Stopped waiting for the agent.',
  punycodeWarning: (host) =>
    `Careful: ${host} is an internationalized address; it may imitate a different site. Check it before you continue.`,
  notOpenable: 'Only http and https addresses can be opened. This one cannot.',
  noAnswer: 'No answer',
  resolution: (resolution, mode) => {
    switch (resolution) {
      case 'answered':
        return mode === 'url' ? 'You agreed to open the address.' : 'Answered.';
      case 'declined':
        return 'Declined.';
      case 'cancelled':
        return 'Cancelled.';
      case 'unanswerable':
        return 'This question could no longer be answered: the connection or page went away.';
      default:
        return 'This question can no longer be answered: it was still open when the page was closed or reloaded.';
    }
  },
};

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

type Phase = 'open' | 'sending' | 'waiting' | 'ended';

const CLOSED_CODES = new Set(['closed', 'interrupted', 'unreachable']);
const RESOLUTIONS = new Set<string>(['answered', 'declined', 'cancelled', 'unanswerable']);
/** Single-selects with more options than this render as a `<select>` instead of radio buttons. */
const RADIO_LIMIT = 7;

/** A bubbling, composed `silo-elicitation-*` event (the events are listed on the class with `@fires`). */
function elicitationEvent(
  name: string,
  detail: SiloElicitationEventDetail,
): CustomEvent<SiloElicitationEventDetail> {
  return new CustomEvent(name, { detail, bubbles: true, composed: true });
}

/** How a live request ended when its signal aborted, read from `signal.reason`. */
export function resolutionFromAbort(reason: unknown): AgentElicitationResolution {
  if (typeof reason === 'string' && RESOLUTIONS.has(reason)) return reason as AgentElicitationResolution;
  const r = reason as { resolution?: unknown; code?: unknown } | null | undefined;
  if (typeof r?.resolution === 'string' && RESOLUTIONS.has(r.resolution)) {
    return r.resolution as AgentElicitationResolution;
  }
  if (typeof r?.code === 'string' && CLOSED_CODES.has(r.code)) return 'unanswerable';
  return 'cancelled';
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** An RFC 3339 date-time → the value of a `datetime-local` input, in local time. */
function toLocalInput(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A `datetime-local` value → RFC 3339 with the local offset (the wall time the user typed is kept). */
function fromLocalInput(value: string): string {
  const d = new Date(value);
  if (value === '' || Number.isNaN(d.getTime())) return value;
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const seconds = value.length === 16 ? `${value}:00` : value;
  return `${seconds}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function errorData(error: unknown): { code?: string; message: string; errors?: Record<string, string> } {
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

/**
 * The answers typed into each live question so far, the field last focused and whether focus is still
 * in it, shared by every element that shows the question: a transcript shows a stand-in until the
 * question's journaled row arrives and then the row's own element, and a virtualized row is created
 * anew when it scrolls back into view.
 * The new element takes them over, so neither swap throws away typed text or moves the caret elsewhere.
 */
const drafts = new WeakMap<
  AgentElicitationRequest,
  { values: Record<string, AgentElicitationAnswer>; field?: string; focused?: boolean }
>();

/**
 * A question the agent asks. Give it a live {@link AgentElicitationRequest} as `request` to render an
 * accessible form (or, in url mode, a consent prompt) with Answer / Decline / Cancel; focus moves into
 * it when it opens. Enter in a field answers; Escape in a field leaves the field (focus moves to the
 * question, every answer stays) and never cancels: only the Cancel button does. A required boolean is
 * a checkbox that must be ticked. Give it an {@link AgentElicitationRecord} as `record` to render
 * a read-only row of the answers and how it ended. A record with no resolution (and no live request)
 * says honestly that it can no longer be answered.
 *
 * Answers are validated before they are sent; an answer the request rejects with `invalid-params`
 * and `data.errors` shows those messages inline. A request that is `unsupported` (unknown mode or
 * question kind) never renders a known control: it can only be declined or cancelled.
 *
 * In url mode the URL is shown in full with its host emphasised, with a warning for punycode hosts; it
 * is never opened by the component itself. Only an http(s) URL gets an Open button, which opens a new
 * top-level tab (`noopener,noreferrer`) on the user's click and then answers (accept = consent).
 *
 * @fires silo-elicitation-answered - The user's answer was accepted by the request (`detail.content`, `detail.answers`).
 * @fires silo-elicitation-declined - The user declined.
 * @fires silo-elicitation-cancelled - The user cancelled (the Cancel or Stop waiting button).
 * @fires silo-elicitation-url-opened - The user opened the url-mode URL (`detail.url`).
 * @fires silo-elicitation-ended - The live question ended, for any reason (`detail.resolution`).
 *
 * @cssproperty --silo-elicitation-bg - Background.
 * @cssproperty --silo-elicitation-fg - Text color.
 * @cssproperty --silo-elicitation-muted - Secondary text (descriptions, status).
 * @cssproperty --silo-elicitation-border - Border and control outline color.
 * @cssproperty --silo-elicitation-accent - Primary button background and focus ring.
 * @cssproperty --silo-elicitation-accent-fg - Primary button text.
 * @cssproperty --silo-elicitation-danger - Error text and required marks.
 * @cssproperty --silo-elicitation-warning-bg - Background of the punycode warning.
 * @cssproperty --silo-elicitation-radius - Corner radius.
 * @cssproperty --silo-elicitation-gap - Spacing unit.
 * @cssproperty --silo-elicitation-font - Font family.
 *
 * @csspart base - The outer container.
 * @csspart header - Who asks and the message.
 * @csspart message - The agent's message.
 * @csspart form - The form (form mode).
 * @csspart field - One question.
 * @csspart label - A question's label or legend.
 * @csspart required - The required mark.
 * @csspart description - A question's or option's description.
 * @csspart control - An input, select, radio or checkbox.
 * @csspart error - An inline validation message, or the form-level error.
 * @csspart unsupported - The notice shown instead of an unknown control.
 * @csspart url - The URL in url mode.
 * @csspart url-host - The emphasised host inside the URL.
 * @csspart warning - The punycode or not-openable warning.
 * @csspart status - The url-mode waiting / completed line, and the resolution line of a record.
 * @csspart actions - The button row.
 * @csspart button - Every button.
 * @csspart answer - The Answer (or OK / Open) button.
 * @csspart decline - The Decline button.
 * @csspart cancel - The Cancel (or Stop waiting) button.
 * @csspart answers - The answer list of a record.
 * @csspart questions - The read-only question list of an unsupported request.
 */
export class SiloElicitation extends LitElement {
  static override styles = css`
    :host {
      --_bg: var(--silo-elicitation-bg, #ffffff);
      --_fg: var(--silo-elicitation-fg, #1b1b1f);
      --_muted: var(--silo-elicitation-muted, #4a4a52);
      --_border: var(--silo-elicitation-border, #8a8a94);
      --_accent: var(--silo-elicitation-accent, #0b57d0);
      --_accent-fg: var(--silo-elicitation-accent-fg, #ffffff);
      --_danger: var(--silo-elicitation-danger, #b3261e);
      --_warning-bg: var(--silo-elicitation-warning-bg, #fff4ce);
      --_radius: var(--silo-elicitation-radius, 8px);
      --_gap: var(--silo-elicitation-gap, 0.75rem);
      display: block;
      font-family: var(--silo-elicitation-font, system-ui, sans-serif);
      color: var(--_fg);
    }
    @media (prefers-color-scheme: dark) {
      :host {
        --_bg: var(--silo-elicitation-bg, #1e1f24);
        --_fg: var(--silo-elicitation-fg, #e6e6ea);
        --_muted: var(--silo-elicitation-muted, #b9b9c2);
        --_border: var(--silo-elicitation-border, #8d8d99);
        --_accent: var(--silo-elicitation-accent, #a8c7fa);
        --_accent-fg: var(--silo-elicitation-accent-fg, #062e6f);
        --_danger: var(--silo-elicitation-danger, #ffb4ab);
        --_warning-bg: var(--silo-elicitation-warning-bg, #4a3c00);
      }
    }
    [part~='base'] {
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      padding: var(--_gap);
      display: grid;
      gap: var(--_gap);
    }
    [part~='header'] {
      display: grid;
      gap: calc(var(--_gap) / 3);
    }
    .asks,
    [part~='description'],
    [part~='status'] {
      color: var(--_muted);
      margin: 0;
    }
    [part~='message'] {
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    form {
      display: grid;
      gap: var(--_gap);
    }
    fieldset {
      border: 0;
      margin: 0;
      padding: 0;
      display: grid;
      gap: calc(var(--_gap) / 3);
    }
    [part~='field'] {
      display: grid;
      gap: calc(var(--_gap) / 3);
    }
    [part~='label'] {
      font-weight: 600;
      padding: 0;
    }
    .option,
    .check {
      display: flex;
      gap: 0.5em;
      align-items: baseline;
    }
    input:not([type='radio'], [type='checkbox']),
    select {
      font: inherit;
      color: inherit;
      background: var(--_bg);
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) / 2);
      padding: 0.35em 0.5em;
      max-width: 100%;
    }
    [aria-invalid='true'] {
      border-color: var(--_danger);
      outline-color: var(--_danger);
    }
    [part~='required'],
    [part~='error'] {
      color: var(--_danger);
    }
    [part~='error'] {
      margin: 0;
    }
    [part~='error']:empty {
      display: none;
    }
    [part~='url'] {
      margin: 0;
      font-family: ui-monospace, monospace;
      overflow-wrap: anywhere;
    }
    [part~='url-host'] {
      font-weight: 700;
      text-decoration: underline;
    }
    [part~='warning'] {
      margin: 0;
      padding: calc(var(--_gap) / 2);
      border-radius: calc(var(--_radius) / 2);
      background: var(--_warning-bg);
    }
    [part~='actions'] {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--_gap) / 2);
    }
    button {
      font: inherit;
      cursor: pointer;
      border-radius: calc(var(--_radius) / 2);
      border: 1px solid var(--_border);
      background: var(--_bg);
      color: var(--_fg);
      padding: 0.4em 0.9em;
    }
    button[part~='answer'] {
      background: var(--_accent);
      border-color: var(--_accent);
      color: var(--_accent-fg);
    }
    button:disabled {
      cursor: default;
      opacity: 0.7;
    }
    :focus-visible {
      outline: 2px solid var(--_accent);
      outline-offset: 2px;
    }
    .vh {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    [part~='answers'] {
      margin: 0;
      display: grid;
      grid-template-columns: minmax(0, max-content) 1fr;
      gap: calc(var(--_gap) / 3) var(--_gap);
    }
    [part~='answers'] dt {
      font-weight: 600;
    }
    [part~='answers'] dd {
      margin: 0;
      overflow-wrap: anywhere;
      white-space: pre-wrap;
    }
  `;

  // Reactive properties are declared statically (no decorators), so the class works the same under
  // any TypeScript or esbuild decorator and class-field settings.
  static override properties = {
    request: { attribute: false },
    record: { attribute: false },
    agentName: { attribute: 'agent-name' },
    strings: { attribute: false },
    values: { state: true },
    errors: { state: true },
    formError: { state: true },
    phase: { state: true },
    ended: { state: true },
    completion: { state: true },
  };

  /** The live question. Takes precedence over {@link record} while it is open. */
  declare request?: AgentElicitationRequest;
  /** A question as a durable transcript row (read-only). */
  declare record?: AgentElicitationRecord;
  /** The asking agent's display name, shown in the heading (attribute `agent-name`). */
  declare agentName?: string;
  /** Replacement strings (merged over {@link DEFAULT_ELICITATION_STRINGS}). */
  declare strings: Partial<SiloElicitationStrings>;

  declare private values: Record<string, AgentElicitationAnswer>;
  declare private errors: Record<string, string>;
  declare private formError: string;
  declare private phase: Phase;
  declare private ended?: AgentElicitationRecord;
  declare private completion?: boolean;

  /** The live request being shown (kept after the host clears `request`; see {@link holds}). */
  private active?: AgentElicitationRequest;
  private submitted = false;
  private focusPending = false;
  private unlisten?: () => void;

  constructor() {
    super();
    this.strings = {};
    this.values = {};
    this.errors = {};
    this.formError = '';
    this.phase = 'open';
  }

  /**
   * Remembers the field last focused and whether focus is in the question, for an element that shows
   * it after this one (see drafts). On the shadow root: moves between its own fields do not reach the host.
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    root.addEventListener('focusin', (e) => {
      const from = e.composedPath()[0];
      const field = from instanceof Element ? from.closest('[data-question]') : null;
      const draft = this.active && drafts.get(this.active);
      if (!draft) return;
      draft.focused = true;
      if (field) draft.field = field.getAttribute('data-question') ?? undefined;
    });
    root.addEventListener('focusout', () => {
      const draft = this.active && drafts.get(this.active);
      if (draft) draft.focused = false;
    });
    return root;
  }

  private get t(): SiloElicitationStrings {
    return { ...DEFAULT_ELICITATION_STRINGS, ...this.strings };
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unlisten?.();
    this.unlisten = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.active && !this.unlisten && this.phase !== 'ended') this.watch(this.active);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('request') || changed.has('record')) {
      const request = this.request;
      if (request && request !== this.active) {
        this.active = request;
        this.reset();
      } else if (!request && this.active && !this.holds(this.active)) {
        this.active = undefined;
        this.reset();
      }
    }
    if (this.phase === 'waiting' && this.record?.completed && this.record.id === this.active?.id) {
      this.completion = true;
      this.phase = 'ended';
    }
  }

  /**
   * Whether to keep showing a live question after the host took `request` away (a transcript does so
   * once the request's signal aborts): while an answer is being sent, while a url question waits for
   * `elicitation/complete` (its retry / stop controls stay), and after it ended here until the record
   * carries the resolution, so the row does not flash "no longer answerable".
   */
  private holds(active: AgentElicitationRequest): boolean {
    if (this.record && this.record.id !== active.id) return false;
    return this.phase === 'sending' || this.phase === 'waiting' || this.phase === 'ended';
  }

  protected override updated(): void {
    if (!this.focusPending) return;
    this.focusPending = false;
    this.focusFirst();
  }

  private reset(): void {
    this.unlisten?.();
    this.unlisten = undefined;
    this.errors = {};
    this.formError = '';
    this.submitted = false;
    this.ended = undefined;
    this.completion = undefined;
    const request = this.active;
    if (!request) return;
    const draft = drafts.get(request);
    if (draft) {
      // Another element showed this question before (see drafts): continue where it left off.
      this.values = draft.values;
      this.phase = 'open';
      if (request.signal.aborted) {
        this.end(resolutionFromAbort(request.signal.reason));
        return;
      }
      this.watch(request);
      // Focus follows if it was in the element that showed it (removing an element fires no focusout;
      // the user moving on does).
      this.focusPending = draft.focused === true;
      return;
    }
    const values = initialAnswers(request.questions);
    for (const q of request.questions) {
      const v = values[q.id];
      if (q.format === 'date-time' && typeof v === 'string') values[q.id] = toLocalInput(v);
      if (typeof v === 'number') values[q.id] = String(v);
    }
    this.values = values;
    drafts.set(request, { values });
    this.phase = 'open';
    if (request.signal.aborted) {
      this.end(resolutionFromAbort(request.signal.reason));
      return;
    }
    this.watch(request);
    this.focusPending = true;
  }

  private watch(request: AgentElicitationRequest): void {
    // Only an open question ends on abort: while an answer is in flight its promise decides, and a
    // consented url question keeps waiting for elicitation/complete.
    const onAbort = () => {
      if (this.active === request && this.phase === 'open')
        this.end(resolutionFromAbort(request.signal.reason));
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    this.unlisten = () => request.signal.removeEventListener('abort', onAbort);
  }

  /**
   * Moves focus to the first invalid field, else the field last focused in this question (by this or
   * an earlier element showing it), else the first field, the primary button, or Decline.
   */
  focusFirst(): void {
    const root = this.renderRoot as ShadowRoot;
    const invalid = root.querySelector<HTMLElement>('[aria-invalid="true"]');
    const last = this.active && drafts.get(this.active)?.field;
    const target =
      (invalid?.matches('input, select') ? invalid : invalid?.querySelector<HTMLElement>('input, select')) ??
      (last === undefined
        ? null
        : root.querySelector<HTMLElement>(
            `[data-question="${CSS.escape(last)}"] :is(input, select, textarea)`,
          )) ??
      root.querySelector<HTMLElement>('[data-field]') ??
      root.querySelector<HTMLElement>('button[part~="answer"]:not([disabled])') ??
      root.querySelector<HTMLElement>('button:not([disabled])');
    target?.focus();
  }

  private emit(name: keyof SiloElicitationEventMap, detail: SiloElicitationEventDetail): void {
    this.dispatchEvent(elicitationEvent(name, detail));
  }

  private end(resolution: AgentElicitationResolution, answers?: Record<string, string>): void {
    const r = this.active;
    if (!r) return;
    this.unlisten?.();
    this.unlisten = undefined;
    this.phase = 'ended';
    this.ended = {
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
    this.emit('silo-elicitation-ended', { id: r.id, resolution });
  }

  // ── Form state ──────────────────────────────────────────────────────────────────────────────────

  private answersForSending(): Record<string, AgentElicitationAnswer> {
    const out: Record<string, AgentElicitationAnswer> = {};
    for (const q of this.active?.questions ?? []) {
      const v = this.values[q.id];
      if (v === undefined) continue;
      out[q.id] = q.format === 'date-time' && typeof v === 'string' ? fromLocalInput(v) : v;
    }
    return out;
  }

  private revalidate(): ReturnType<typeof validateAnswers> {
    const t = this.t;
    const questions = this.active?.questions ?? [];
    let result = validateAnswers(questions, this.answersForSending(), t.issue, t);
    // A required checkbox is a box the user must tick (as HTML's `required` on a checkbox): unticked,
    // it is unanswered, not "no".
    const unticked = questions.filter(
      (q) => q.type === 'boolean' && q.required && this.values[q.id] !== true,
    );
    if (unticked.length > 0) {
      const errors: Record<string, string> = result.ok ? {} : { ...result.errors };
      const issues = result.ok ? {} : { ...result.issues };
      for (const q of unticked) {
        errors[q.id] ??= t.issue({ code: 'required' }, q);
        issues[q.id] ??= { code: 'required' };
      }
      result = { ok: false, errors, issues };
    }
    this.errors = result.ok ? {} : result.errors;
    if (result.ok) this.formError = '';
    return result;
  }

  private setValue(id: string, value: AgentElicitationAnswer): void {
    this.values = { ...this.values, [id]: value };
    const draft = this.active && drafts.get(this.active);
    if (draft) draft.values = this.values;
    if (this.submitted) this.revalidate();
  }

  private toggle(id: string, option: string, on: boolean): void {
    const current = this.values[id];
    const list = Array.isArray(current) ? current.filter((v) => v !== option) : [];
    if (on) list.push(option);
    const order = this.active?.questions.find((q) => q.id === id)?.options?.map((o) => o.value) ?? [];
    list.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    this.setValue(id, list);
  }

  // ── Actions ─────────────────────────────────────────────────────────────────────────────────────

  private async onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const request = this.active;
    if (!request || this.phase !== 'open' || request.unsupported) return;
    this.submitted = true;
    const result = this.revalidate();
    if (!result.ok) {
      this.formError = this.t.fixErrors;
      await this.updateComplete;
      this.focusFirst();
      return;
    }
    this.phase = 'sending';
    try {
      await request.answer(result.content);
      if (this.active !== request || this.phase !== 'sending') return;
      this.emit('silo-elicitation-answered', {
        id: request.id,
        content: result.content,
        answers: result.text,
      });
      this.end('answered', result.text);
    } catch (error) {
      this.failed(request, error);
    }
  }

  private failed(request: AgentElicitationRequest, error: unknown): void {
    if (this.active !== request || this.phase === 'ended') return;
    if (request.signal.aborted) {
      this.end(resolutionFromAbort(request.signal.reason));
      return;
    }
    this.phase = 'open';
    const data = errorData(error);
    if (data.code === 'invalid-params' && data.errors) {
      this.errors = data.errors;
      this.formError = this.t.fixErrors;
      this.focusPending = true;
    } else {
      this.formError = this.t.sendFailed(data.message);
    }
  }

  private async act(kind: 'decline' | 'cancel'): Promise<void> {
    const request = this.active;
    if (!request) return;
    if (this.phase === 'waiting' && kind === 'cancel') {
      this.completion = false;
      this.phase = 'ended';
      this.emit('silo-elicitation-cancelled', { id: request.id });
      await request.cancel().catch(() => undefined);
      return;
    }
    if (this.phase !== 'open') return;
    this.phase = 'sending';
    try {
      await (kind === 'decline' ? request.decline() : request.cancel());
      if (this.active !== request || this.phase !== 'sending') return;
      this.emit(kind === 'decline' ? 'silo-elicitation-declined' : 'silo-elicitation-cancelled', {
        id: request.id,
      });
      this.end(kind === 'decline' ? 'declined' : 'cancelled');
    } catch (error) {
      this.failed(request, error);
    }
  }

  private async openUrl(): Promise<void> {
    const request = this.active;
    if (!request?.url || request.unsupported) return;
    const parts = describeUrl(request.url);
    if (!parts.openable) return;
    window.open(parts.href, '_blank', 'noopener,noreferrer');
    this.emit('silo-elicitation-url-opened', { id: request.id, url: parts.href });
    if (this.phase !== 'open') return;
    this.phase = 'sending';
    try {
      await request.answer({});
      if (this.active !== request || this.phase !== 'sending') return;
      this.emit('silo-elicitation-answered', { id: request.id, content: {}, answers: {} });
      this.emit('silo-elicitation-ended', { id: request.id, resolution: 'answered' });
      this.phase = 'waiting';
      this.ended = undefined;
      request.completion?.then((done) => {
        if (this.active === request && this.phase === 'waiting') {
          this.completion = done;
          this.phase = 'ended';
        }
      });
      await this.updateComplete;
      this.focusFirst();
    } catch (error) {
      this.failed(request, error);
    }
  }

  /**
   * Escape never answers, declines or cancels a question (that takes a button), so typed answers are
   * never lost to a stray key: in a field it leaves the field (focus moves to the question itself,
   * the answers stay); anywhere else in the question it does nothing.
   */
  private onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || (this.phase !== 'open' && this.phase !== 'waiting')) return;
    const field = event
      .composedPath()
      .find((n) => n instanceof HTMLElement && n.matches('input, select, textarea')) as
      | HTMLElement
      | undefined;
    if (!field) return;
    event.preventDefault();
    event.stopPropagation();
    field.blur();
    (this.renderRoot as ShadowRoot).querySelector<HTMLElement>('section[part~="live"]')?.focus();
  }

  // ── Rendering ───────────────────────────────────────────────────────────────────────────────────

  protected override render(): TemplateResult | typeof nothing {
    const request = this.active;
    if (request && this.phase !== 'ended') return this.renderLive(request);
    if (request && request.mode === 'url' && this.completion !== undefined)
      return this.renderUrlDone(request);
    // The journal's row wins once it carries the resolution; until then, what happened here.
    const journaled = this.record?.resolution !== undefined && this.record.id === this.ended?.id;
    const record = journaled ? this.record : (this.ended ?? this.record);
    return record ? this.renderRecord(record) : nothing;
  }

  private renderHeader(message: string): TemplateResult {
    const t = this.t;
    return html`<div part="header">
      <p class="asks">${t.asks(this.agentName)}</p>
      <p part="message" id="message">${message}</p>
    </div>`;
  }

  private renderLive(request: AgentElicitationRequest): TemplateResult {
    const busy = this.phase === 'sending';
    let body: TemplateResult;
    if (request.mode === 'url') body = this.renderUrl(request, busy);
    else if (request.mode === 'form' && !request.unsupported) body = this.renderForm(request, busy);
    else body = this.renderUnsupported(request, busy);
    return html`<section
      part="base live"
      tabindex="-1"
      aria-labelledby="message"
      aria-busy=${busy ? 'true' : 'false'}
      @keydown=${this.onKeydown}
    >
      ${this.renderHeader(request.message)} ${body}
      <p part="error" id="form-error" role="alert">${this.formError}</p>
    </section>`;
  }

  private renderButtons(primary: TemplateResult | typeof nothing, busy: boolean): TemplateResult {
    const t = this.t;
    return html`<div part="actions">
      ${primary}
      <button type="button" part="button decline" ?disabled=${busy} @click=${() => this.act('decline')}>
        ${t.decline}
      </button>
      <button type="button" part="button cancel" ?disabled=${busy} @click=${() => this.act('cancel')}>
        ${t.cancel}
      </button>
    </div>`;
  }

  private renderForm(request: AgentElicitationRequest, busy: boolean): TemplateResult {
    const t = this.t;
    return html`<form part="form" novalidate aria-labelledby="message" @submit=${this.onSubmit}>
      ${request.questions.map((q, i) => this.renderQuestion(q, i, busy))}
      ${this.renderButtons(
        html`<button type="submit" part="button answer" ?disabled=${busy}>
          ${request.acknowledgeOnly ? t.acknowledge : t.answer}
        </button>`,
        busy,
      )}
    </form>`;
  }

  private renderUnsupported(request: AgentElicitationRequest, busy: boolean): TemplateResult {
    const t = this.t;
    const questions = request.questions;
    return html`<p part="unsupported">${t.unsupportedRequest}</p>
      ${
        questions.length > 0
          ? html`<ul part="questions">
            ${questions.map(
              (q) => html`<li part="field" data-question=${q.id}>
                <span part="label">${q.title}</span>
                ${
                  q.type === 'unsupported'
                    ? html`<span part="unsupported">${t.unsupportedQuestion(String(q.raw?.type ?? 'unknown'))}</span>`
                    : nothing
                }
              </li>`,
            )}
          </ul>`
          : nothing
      }
      ${this.renderButtons(nothing, busy)}`;
  }

  private renderUrlText(url: string): TemplateResult {
    const parts = describeUrl(url);
    return html`<p part="url" id="url">
      ${parts.before}${parts.host ? html`<strong part="url-host">${parts.host}</strong>` : nothing}${parts.after}
    </p>`;
  }

  private renderUrl(request: AgentElicitationRequest, busy: boolean): TemplateResult {
    const t = this.t;
    const url = request.url ?? '';
    const parts = describeUrl(url);
    const openable = parts.openable && !request.unsupported;
    const warnings = html`${
      parts.punycode ? html`<p part="warning" role="note">${t.punycodeWarning(parts.host)}</p>` : nothing
    }${openable ? nothing : html`<p part="warning" role="note">${t.notOpenable}</p>`}`;
    if (this.phase === 'waiting') {
      return html`<p class="intro">${t.urlIntro}</p>
        ${this.renderUrlText(url)} ${warnings}
        <p part="status" role="status">${t.waiting}</p>
        <div part="actions">
          <button type="button" part="button answer" @click=${this.openUrl}>${t.openAgain}</button>
          <button type="button" part="button cancel" @click=${() => this.act('cancel')}>${t.stopWaiting}</button>
        </div>`;
    }
    return html`<p class="intro">${t.urlIntro}</p>
      ${this.renderUrlText(url)} ${warnings}
      ${this.renderButtons(
        openable
          ? html`<button
              type="button"
              part="button answer"
              aria-describedby="url"
              ?disabled=${busy}
              @click=${this.openUrl}
            >
              ${t.open}
            </button>`
          : nothing,
        busy,
      )}`;
  }

  private renderUrlDone(request: AgentElicitationRequest): TemplateResult {
    const t = this.t;
    return html`<section part="base record" aria-labelledby="message">
      ${this.renderHeader(request.message)} ${this.renderUrlText(request.url ?? '')}
      <p part="status" role="status">${this.completion ? t.completed : t.stoppedWaiting}</p>
    </section>`;
  }

  private renderLabel(q: AgentElicitationQuestion, forId?: string): TemplateResult {
    const t = this.t;
    const content = html`${q.title}${
      q.required
        ? html` <span part="required"><span aria-hidden="true">*</span><span class="vh">${t.required}</span></span>`
        : nothing
    }`;
    return forId
      ? html`<label part="label" for=${forId}>${content}</label>`
      : html`<legend part="label">${content}</legend>`;
  }

  private renderQuestion(q: AgentElicitationQuestion, i: number, busy: boolean): TemplateResult {
    const id = `q${i}`;
    const descId = q.description ? `${id}-desc` : undefined;
    const error = this.errors[q.id];
    const errId = `${id}-err`;
    const describedBy = [descId, error ? errId : undefined].filter(Boolean).join(' ') || undefined;
    const description = q.description
      ? html`<p part="description" id=${descId as string}>${q.description}</p>`
      : nothing;
    const errorLine = html`<p part="error" id=${errId}>${error ?? ''}</p>`;
    const invalid = error ? 'true' : 'false';
    const value = this.values[q.id];

    switch (q.type) {
      case 'single-select': {
        const options = q.options ?? [];
        if (options.length > RADIO_LIMIT) {
          return html`<div part="field" data-question=${q.id}>
            ${this.renderLabel(q, id)} ${description}
            <select
              id=${id}
              part="control"
              data-field
              ?required=${q.required}
              aria-required=${q.required ? 'true' : 'false'}
              aria-invalid=${invalid}
              aria-describedby=${ifDefined(describedBy)}
              ?disabled=${busy}
              @change=${(e: Event) => this.setValue(q.id, (e.target as HTMLSelectElement).value)}
            >
              <option value="" ?selected=${value === undefined || value === ''}></option>
              ${options.map((o) => html`<option value=${o.value} ?selected=${value === o.value}>${o.label}</option>`)}
            </select>
            ${errorLine}
          </div>`;
        }
        return html`<fieldset
          part="field"
          data-question=${q.id}
          role="radiogroup"
          aria-required=${q.required ? 'true' : 'false'}
          aria-invalid=${invalid}
          aria-describedby=${ifDefined(describedBy)}
        >
          ${this.renderLabel(q)} ${description}
          ${options.map((o, j) => {
            const oid = `${id}-${j}`;
            return html`<div class="option">
              <input
                type="radio"
                id=${oid}
                part="control"
                name=${id}
                value=${o.value}
                ?data-field=${j === 0}
                .checked=${live(value === o.value)}
                aria-describedby=${ifDefined(o.description ? `${oid}-desc` : undefined)}
                ?disabled=${busy}
                @change=${() => this.setValue(q.id, o.value)}
              />
              <label for=${oid}>${o.label}</label>
              ${o.description ? html`<span part="description" id=${`${oid}-desc`}>${o.description}</span>` : nothing}
            </div>`;
          })}
          ${errorLine}
        </fieldset>`;
      }
      case 'multi-select': {
        const picked = Array.isArray(value) ? value : [];
        return html`<fieldset
          part="field"
          data-question=${q.id}
          aria-invalid=${invalid}
          aria-describedby=${ifDefined(describedBy)}
        >
          ${this.renderLabel(q)} ${description}
          ${(q.options ?? []).map((o, j) => {
            const oid = `${id}-${j}`;
            return html`<div class="option">
              <input
                type="checkbox"
                id=${oid}
                part="control"
                value=${o.value}
                ?data-field=${j === 0}
                .checked=${live(picked.includes(o.value))}
                aria-describedby=${ifDefined(o.description ? `${oid}-desc` : undefined)}
                ?disabled=${busy}
                @change=${(e: Event) => this.toggle(q.id, o.value, (e.target as HTMLInputElement).checked)}
              />
              <label for=${oid}>${o.label}</label>
              ${o.description ? html`<span part="description" id=${`${oid}-desc`}>${o.description}</span>` : nothing}
            </div>`;
          })}
          ${errorLine}
        </fieldset>`;
      }
      case 'boolean':
        return html`<div part="field" data-question=${q.id}>
          <div class="check">
            <input
              type="checkbox"
              id=${id}
              part="control"
              data-field
              .checked=${live(value === true)}
              aria-invalid=${invalid}
              aria-describedby=${ifDefined(describedBy)}
              ?disabled=${busy}
              @change=${(e: Event) => this.setValue(q.id, (e.target as HTMLInputElement).checked)}
            />
            ${this.renderLabel(q, id)}
          </div>
          ${description} ${errorLine}
        </div>`;
      case 'number':
      case 'integer':
      case 'text': {
        const type =
          q.type !== 'text'
            ? 'number'
            : q.format === 'email'
              ? 'email'
              : q.format === 'uri'
                ? 'url'
                : q.format === 'date'
                  ? 'date'
                  : q.format === 'date-time'
                    ? 'datetime-local'
                    : 'text';
        const step =
          q.type === 'integer'
            ? '1'
            : q.type === 'number'
              ? 'any'
              : q.format === 'date-time'
                ? '1'
                : undefined;
        return html`<div part="field" data-question=${q.id}>
          ${this.renderLabel(q, id)} ${description}
          <input
            id=${id}
            part="control"
            data-field
            type=${type}
            step=${ifDefined(step)}
            inputmode=${ifDefined(q.type === 'integer' ? 'numeric' : q.type === 'number' ? 'decimal' : undefined)}
            min=${ifDefined(q.minimum)}
            max=${ifDefined(q.maximum)}
            minlength=${ifDefined(q.minLength)}
            maxlength=${ifDefined(q.maxLength)}
            ?required=${q.required}
            aria-required=${q.required ? 'true' : 'false'}
            aria-invalid=${invalid}
            aria-describedby=${ifDefined(describedBy)}
            .value=${live(typeof value === 'string' ? value : value === undefined ? '' : String(value))}
            ?disabled=${busy}
            @input=${(e: Event) => this.setValue(q.id, (e.target as HTMLInputElement).value)}
          />
          ${errorLine}
        </div>`;
      }
      default:
        return html`<div part="field" data-question=${q.id}>
          <span part="label" id=${`${id}-label`}>${q.title}</span> ${description}
          <p part="unsupported">${this.t.unsupportedQuestion(String(q.raw?.type ?? 'unknown'))}</p>
        </div>`;
    }
  }

  private renderRecord(record: AgentElicitationRecord): TemplateResult {
    const t = this.t;
    const answers = record.answers ?? {};
    const questions = record.questions ?? [];
    const answered = record.resolution === 'answered';
    const status = `${t.resolution(record.resolution, record.mode)}${record.completed ? ` ${t.completed}` : ''}`;
    return html`<section part="base record" aria-labelledby="message">
      ${this.renderHeader(record.message ?? '')}
      ${record.mode === 'url' && record.url ? this.renderUrlText(record.url) : nothing}
      ${
        answered && questions.length > 0
          ? html`<dl part="answers">
            ${questions.map(
              (q) => html`<dt>${q.title}</dt>
                <dd>${answers[q.id] ?? t.noAnswer}</dd>`,
            )}
          </dl>`
          : nothing
      }
      <p part="status" data-resolution=${record.resolution ?? 'none'}>${status}</p>
    </section>`;
  }
}

/** The events `<silo-elicitation>` fires. */
export interface SiloElicitationEventMap {
  'silo-elicitation-answered': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-declined': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-cancelled': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-url-opened': CustomEvent<SiloElicitationEventDetail>;
  'silo-elicitation-ended': CustomEvent<SiloElicitationEventDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap extends SiloElicitationEventMap {}
}
