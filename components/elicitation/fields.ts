/**
 * The controls of a live `<silo-elicitation>` form, one template per question kind. Every string
 * from the agent reaches the DOM as a Lit text or attribute binding (escaped).
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import type { AgentElicitationAnswer, AgentElicitationQuestion } from '../../src/index.ts';
import type { SiloElicitationStrings } from '../shared/strings/strings.ts';

/** Single-selects with more options than this render as a `<select>` instead of radio buttons. */
export const RADIO_LIMIT = 7;

/** What the field templates need from their element: its strings, the form state and its setters. */
export interface FieldContext {
  readonly t: SiloElicitationStrings;
  readonly values: Readonly<Record<string, AgentElicitationAnswer>>;
  readonly errors: Readonly<Record<string, string>>;
  setValue(id: string, value: AgentElicitationAnswer): void;
  toggle(id: string, option: string, on: boolean): void;
}

/** A question's label (`<label for>`) or, for a group, its `<legend>`, with the required mark. */
export function renderLabel(
  t: SiloElicitationStrings,
  q: AgentElicitationQuestion,
  forId?: string,
): TemplateResult {
  const content = html`${q.title}${
    q.required
      ? html` <span part="required"><span aria-hidden="true">*</span><span class="sr-only">${t.required}</span></span>`
      : nothing
  }`;
  return forId
    ? html`<label part="label" for=${forId}>${content}</label>`
    : html`<legend part="label">${content}</legend>`;
}

/**
 * A select question's own "Other…" text field (`q.other`), inside the question's group: its label
 * is Silo's `other` string, the agent's words for it its description.
 */
function renderOther(
  q: AgentElicitationQuestion,
  id: string,
  busy: boolean,
  ctx: FieldContext,
): TemplateResult | typeof nothing {
  const other = q.other;
  if (!other) return nothing;
  const oid = `${id}-other`;
  const error = ctx.errors[other.id];
  const describedBy = [other.description ? `${oid}-desc` : '', error ? `${oid}-err` : '']
    .filter(Boolean)
    .join(' ');
  const value = ctx.values[other.id];
  return html`<div class="other" part="other" data-question=${other.id}>
    <label part="label" for=${oid}>${ctx.t.other}</label>
    ${other.description ? html`<p part="description" id=${`${oid}-desc`}>${other.description}</p>` : nothing}
    <input
      id=${oid}
      part="control other-input"
      type="text"
      minlength=${ifDefined(other.minLength)}
      maxlength=${ifDefined(other.maxLength)}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${ifDefined(describedBy || undefined)}
      .value=${live(typeof value === 'string' ? value : '')}
      ?disabled=${busy}
      @input=${(e: Event) => ctx.setValue(other.id, (e.target as HTMLInputElement).value)}
    />
    <p part="error" id=${`${oid}-err`}>${error ?? ''}</p>
  </div>`;
}

/**
 * One question of a live form: a labelled control (radio group, `<select>` past
 * {@link RADIO_LIMIT} options, checkboxes, a checkbox, a number/text/date input) with its description
 * and inline error, or a notice for a kind that cannot be shown.
 */
export function renderQuestion(
  q: AgentElicitationQuestion,
  i: number,
  busy: boolean,
  ctx: FieldContext,
): TemplateResult {
  const id = `q${i}`;
  const descId = q.description ? `${id}-desc` : undefined;
  const error = ctx.errors[q.id];
  const errId = `${id}-err`;
  const describedBy = [descId, error ? errId : undefined].filter(Boolean).join(' ') || undefined;
  const description = q.description
    ? html`<p part="description" id=${descId as string}>${q.description}</p>`
    : nothing;
  const errorLine = html`<p part="error" id=${errId}>${error ?? ''}</p>`;
  const invalid = error ? 'true' : 'false';
  const value = ctx.values[q.id];

  switch (q.type) {
    case 'single-select': {
      const options = q.options ?? [];
      if (options.length > RADIO_LIMIT) {
        return html`<div part="field" data-question=${q.id}>
          ${renderLabel(ctx.t, q, id)} ${description}
          <select
            id=${id}
            part="control"
            data-field
            ?required=${q.required}
            aria-required=${q.required ? 'true' : 'false'}
            aria-invalid=${invalid}
            aria-describedby=${ifDefined(describedBy)}
            ?disabled=${busy}
            @change=${(e: Event) => ctx.setValue(q.id, (e.target as HTMLSelectElement).value)}
          >
            <option value="" ?selected=${value === undefined || value === ''}></option>
            ${options.map((o) => html`<option value=${o.value} ?selected=${value === o.value}>${o.label}</option>`)}
          </select>
          ${errorLine} ${renderOther(q, id, busy, ctx)}
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
        ${renderLabel(ctx.t, q)} ${description}
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
              @change=${() => ctx.setValue(q.id, o.value)}
            />
            <label for=${oid}>${o.label}</label>
            ${o.description ? html`<span part="description" id=${`${oid}-desc`}>${o.description}</span>` : nothing}
          </div>`;
        })}
        ${errorLine} ${renderOther(q, id, busy, ctx)}
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
        ${renderLabel(ctx.t, q)} ${description}
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
              @change=${(e: Event) => ctx.toggle(q.id, o.value, (e.target as HTMLInputElement).checked)}
            />
            <label for=${oid}>${o.label}</label>
            ${o.description ? html`<span part="description" id=${`${oid}-desc`}>${o.description}</span>` : nothing}
          </div>`;
        })}
        ${errorLine} ${renderOther(q, id, busy, ctx)}
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
            @change=${(e: Event) => ctx.setValue(q.id, (e.target as HTMLInputElement).checked)}
          />
          ${renderLabel(ctx.t, q, id)}
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
        q.type === 'integer' ? '1' : q.type === 'number' ? 'any' : q.format === 'date-time' ? '1' : undefined;
      return html`<div part="field" data-question=${q.id}>
        ${renderLabel(ctx.t, q, id)} ${description}
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
          @input=${(e: Event) => ctx.setValue(q.id, (e.target as HTMLInputElement).value)}
        />
        ${errorLine}
      </div>`;
    }
    default:
      return html`<div part="field" data-question=${q.id}>
        <span part="label" id=${`${id}-label`}>${q.title}</span> ${description}
        <p part="unsupported">${ctx.t.unsupportedQuestion(String(q.raw?.type ?? 'unknown'))}</p>
      </div>`;
  }
}
