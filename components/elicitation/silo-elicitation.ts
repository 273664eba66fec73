/**
 * `<silo-elicitation>`: a question the agent asks (ACP `elicitation/create`), live or as a transcript row.
 * This module holds the element's state; the user's actions (answer, decline, cancel, open a URL) are
 * in `elicitation/actions.ts`, its templates in `elicitation/views.ts` and `elicitation/fields.ts`, its
 * styles in `elicitation/silo-elicitation.styles.ts` over the shared theme, its strings in `shared/strings/strings.ts`.
 * `elicitation/silo-elicitation.define.ts` registers it.
 * @packageDocumentation
 */
import { nothing, type PropertyValues, type TemplateResult } from 'lit';
import type {
  AgentElicitationAnswer,
  AgentElicitationRecord,
  AgentElicitationRequest,
  AgentElicitationResolution,
} from '../../src/index.ts';
import { SiloElement } from '../shared/silo-element.ts';
import {
  defaultElicitationStrings,
  mergeStrings,
  type SiloElicitationStrings,
  type StringsOverride,
} from '../shared/strings/strings.ts';
import { theme } from '../shared/theme.styles.ts';
import {
  declineOrCancel,
  type ElicitationActionsHost,
  openUrl,
  submitAnswer,
  toggledOption,
  watchAbort,
} from './actions.ts';
import { draftFocusTarget, draftOf, startDraft, trackDraftFocus } from './drafts.ts';
import { elicitationStyles } from './silo-elicitation.styles.ts';
import {
  endedRecord,
  firstFocusTarget,
  initialFormValues,
  leaveFieldOnEscape,
  resolutionFromAbort,
  type SiloElicitationEventMap,
  validateForm,
} from './support.ts';
import { type Phase, renderLive, renderRecord, renderUrlDone, type ViewContext } from './views.ts';

export type { SiloElicitationStrings } from '../shared/strings/strings.ts';
export type { SiloElicitationEventDetail, SiloElicitationEventMap } from './support.ts';
export { resolutionFromAbort } from './support.ts';
/** The default English strings (the same object as `defaultElicitationStrings` in `shared/strings/strings.ts`). */
export const DEFAULT_ELICITATION_STRINGS: SiloElicitationStrings = defaultElicitationStrings;

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
 * @cssprop [--silo-color-bg] - And every other `--silo-*` property of the shared theme (see
 *   `<silo-transcript>`); `--silo-color-warning-bg` is the background of the punycode warning.
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
 * @csspart other - A select question's own "Other…" field (its label, description, `other-input` and error).
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
export class SiloElicitation extends SiloElement {
  static override styles = [theme, elicitationStyles];

  // Reactive properties are declared statically (no decorators), so the class works the same under
  // any TypeScript or esbuild decorator and class-field settings.
  static override properties = {
    request: { attribute: false },
    record: { attribute: false },
    agentName: { attribute: 'agent-name' },
    strings: { attribute: false },
    locale: {},
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
  /** Replacement strings (partial; merged over the English {@link DEFAULT_ELICITATION_STRINGS}). */
  declare strings: StringsOverride<SiloElicitationStrings> | undefined;
  /** BCP 47 locale of the strings; set as the question's `lang` (a transcript passes its own). */
  declare locale: string | undefined;

  declare private values: Record<string, AgentElicitationAnswer>;
  declare private errors: Record<string, string>;
  declare private formError: string;
  declare private phase: Phase;
  declare private ended?: AgentElicitationRecord;
  declare private completion?: boolean;

  /** The live request being shown (kept after the host clears `request`; see {@link #holds}). */
  #active?: AgentElicitationRequest;
  #submitted = false;
  #focusPending = false;
  #unlisten?: () => void;
  /** The element as the user's actions (`elicitation/actions.ts`) see it. */
  #actions: ElicitationActionsHost = {
    active: () => this.#active,
    t: () => this.#t,
    phase: () => this.phase,
    set: (patch) => Object.assign(this, patch),
    validate: () => {
      this.#submitted = true;
      return this.#revalidate();
    },
    focusAfterRender: () => {
      this.#focusPending = true;
    },
    focusRendered: async () => {
      await this.updateComplete;
      this.focusFirst();
    },
    emit: (name, detail) => this.emit(name, detail),
    end: (resolution, answers) => this.#end(resolution, answers),
  };

  constructor() {
    super();
    this.values = {};
    this.errors = {};
    this.formError = '';
    this.phase = 'open';
  }

  get #t(): SiloElicitationStrings {
    return mergeStrings(defaultElicitationStrings, this.strings);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unlisten?.();
    this.#unlisten = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.#active && !this.#unlisten && this.phase !== 'ended') this.#watch(this.#active);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('request') || changed.has('record')) {
      const request = this.request;
      if (request && request !== this.#active) {
        this.#active = request;
        this.#reset();
      } else if (!request && this.#active && !this.#holds(this.#active)) {
        this.#active = undefined;
        this.#reset();
      }
    }
    if (this.phase === 'waiting' && this.record?.completed && this.record.id === this.#active?.id) {
      this.completion = true;
      this.phase = 'ended';
    }
    if (changed.has('locale')) {
      if (this.locale) this.setAttribute('lang', this.locale);
      else this.removeAttribute('lang');
    }
  }

  /**
   * Whether to keep showing a live question after the host took `request` away (a transcript does so
   * once the request's signal aborts): while an answer is being sent, while a url question waits for
   * `elicitation/complete` (its retry / stop controls stay), and after it ended here until the record
   * carries the resolution, so the row does not flash "no longer answerable".
   */
  #holds(active: AgentElicitationRequest): boolean {
    if (this.record && this.record.id !== active.id) return false;
    return this.phase === 'sending' || this.phase === 'waiting' || this.phase === 'ended';
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    trackDraftFocus(root as ShadowRoot, () => this.#active);
    return root;
  }

  protected override updated(): void {
    if (!this.#focusPending) return;
    this.#focusPending = false;
    this.focusFirst();
  }

  #reset(): void {
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.errors = {};
    this.formError = '';
    this.#submitted = false;
    this.ended = undefined;
    this.completion = undefined;
    const request = this.#active;
    if (!request) return;
    const draft = draftOf(request);
    // Another element showed this question before (see elicitation/drafts.ts): continue its draft.
    if (draft) this.values = draft.values;
    else {
      this.values = initialFormValues(request.questions);
      startDraft(request, this.values);
    }
    this.phase = 'open';
    if (request.signal.aborted) {
      this.#end(resolutionFromAbort(request.signal.reason));
      return;
    }
    this.#watch(request);
    // Focus follows a draft only if it was in the element that showed it before.
    this.#focusPending = draft ? draft.focused === true : true;
  }

  #watch(request: AgentElicitationRequest): void {
    const open = () => this.#active === request && this.phase === 'open';
    this.#unlisten = watchAbort(request, open, (resolution) => this.#end(resolution));
  }

  /**
   * Moves focus to the first invalid field, else the field last focused in this question (by this or
   * an earlier element showing it), else the first field, the primary button, or Decline.
   */
  focusFirst(): void {
    const root = this.renderRoot as ShadowRoot;
    const invalid = root.querySelector('[aria-invalid="true"]');
    (invalid
      ? firstFocusTarget(root)
      : (draftFocusTarget(root, this.#active) ?? firstFocusTarget(root))
    )?.focus();
  }

  #end(resolution: AgentElicitationResolution, answers?: Record<string, string>): void {
    const r = this.#active;
    if (!r) return;
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.phase = 'ended';
    this.ended = endedRecord(r, resolution, answers);
    this.#actions.emit('silo-elicitation-ended', { id: r.id, resolution });
  }

  #revalidate(): ReturnType<typeof validateForm> {
    const result = validateForm(this.#active?.questions ?? [], this.values, this.#t);
    this.errors = result.ok ? {} : result.errors;
    if (result.ok) this.formError = '';
    return result;
  }

  #setValue = (id: string, value: AgentElicitationAnswer): void => {
    this.values = { ...this.values, [id]: value };
    const draft = draftOf(this.#active);
    if (draft) draft.values = this.values;
    if (this.#submitted) this.#revalidate();
  };

  #toggle = (id: string, option: string, on: boolean): void => {
    const order = this.#active?.questions.find((q) => q.id === id)?.options?.map((o) => o.value) ?? [];
    this.#setValue(id, toggledOption(this.values[id], option, on, order));
  };

  /**
   * Escape never answers, declines or cancels a question (that takes a button), so typed answers are
   * never lost to a stray key: in a field it leaves the field (focus moves to the question itself,
   * the answers stay); anywhere else in the question it does nothing.
   */
  #onKeydown = (event: KeyboardEvent): void => {
    if (this.phase !== 'open' && this.phase !== 'waiting') return;
    leaveFieldOnEscape(event, this.renderRoot as ShadowRoot);
  };

  #context(): ViewContext {
    return {
      t: this.#t,
      values: this.values,
      errors: this.errors,
      setValue: this.#setValue,
      toggle: this.#toggle,
      agentName: this.agentName,
      phase: this.phase,
      completion: this.completion,
      formError: this.formError,
      act: (kind) => void declineOrCancel(this.#actions, kind),
      openUrl: () => void openUrl(this.#actions),
      submit: (event) => void submitAnswer(this.#actions, event),
      keydown: this.#onKeydown,
    };
  }

  protected override render(): TemplateResult | typeof nothing {
    const ctx = this.#context();
    const request = this.#active;
    if (request && this.phase !== 'ended') return renderLive(ctx, request);
    if (request && request.mode === 'url' && this.completion !== undefined)
      return renderUrlDone(ctx, request);
    // The journal's row wins once it carries the resolution; until then, what happened here.
    const journaled = this.record?.resolution !== undefined && this.record.id === this.ended?.id;
    const record = journaled ? this.record : (this.ended ?? this.record);
    return record ? renderRecord(ctx, record) : nothing;
  }
}

declare global {
  interface GlobalEventHandlersEventMap extends SiloElicitationEventMap {}
}
