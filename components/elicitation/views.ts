/**
 * The views of `<silo-elicitation>`: a live question (form, url consent, or a request that cannot be
 * shown) and a recorded one. Every string from the agent reaches the DOM as a Lit text or attribute
 * binding (escaped); a URL is shown, never opened, by these templates.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import { type AgentElicitationRecord, type AgentElicitationRequest, describeUrl } from '../../src/index.ts';
import { type FieldContext, renderQuestion } from './fields.ts';

/** Where a live question is: open, an answer in flight, a url question waiting for completion, ended. */
export type Phase = 'open' | 'sending' | 'waiting' | 'ended';

/** What the views need from their element: form state, phase and the user's actions. */
export interface ViewContext extends FieldContext {
  readonly agentName: string | undefined;
  readonly phase: Phase;
  readonly completion: boolean | undefined;
  readonly formError: string;
  act(kind: 'decline' | 'cancel'): void;
  openUrl(): void;
  submit(event: Event): void;
  keydown(event: KeyboardEvent): void;
}

export function renderHeader(ctx: ViewContext, message: string): TemplateResult {
  const t = ctx.t;
  return html`<div part="header">
    <p class="asks">${t.asks(ctx.agentName)}</p>
    <p part="message" id="message">${message}</p>
  </div>`;
}

export function renderLive(ctx: ViewContext, request: AgentElicitationRequest): TemplateResult {
  const busy = ctx.phase === 'sending';
  let body: TemplateResult;
  if (request.mode === 'url') body = renderUrl(ctx, request, busy);
  else if (request.mode === 'form' && !request.unsupported) body = renderForm(ctx, request, busy);
  else body = renderUnsupported(ctx, request, busy);
  return html`<section
    part="base live"
    tabindex="-1"
    aria-labelledby="message"
    aria-busy=${busy ? 'true' : 'false'}
    @keydown=${ctx.keydown}
  >
    ${renderHeader(ctx, request.message)} ${body}
    <p part="error" id="form-error" role="alert">${ctx.formError}</p>
  </section>`;
}

export function renderButtons(
  ctx: ViewContext,
  primary: TemplateResult | typeof nothing,
  busy: boolean,
): TemplateResult {
  const t = ctx.t;
  return html`<div part="actions">
    ${primary}
    <button type="button" part="button decline" ?disabled=${busy} @click=${() => ctx.act('decline')}>
      ${t.decline}
    </button>
    <button type="button" part="button cancel" ?disabled=${busy} @click=${() => ctx.act('cancel')}>
      ${t.cancel}
    </button>
  </div>`;
}

export function renderForm(
  ctx: ViewContext,
  request: AgentElicitationRequest,
  busy: boolean,
): TemplateResult {
  const t = ctx.t;
  return html`<form part="form" novalidate aria-labelledby="message" @submit=${ctx.submit}>
    ${request.questions.map((q, i) => renderQuestion(q, i, busy, ctx))}
    ${renderButtons(
      ctx,
      html`<button type="submit" part="button answer" ?disabled=${busy}>
        ${request.acknowledgeOnly ? t.acknowledge : t.answer}
      </button>`,
      busy,
    )}
  </form>`;
}

export function renderUnsupported(
  ctx: ViewContext,
  request: AgentElicitationRequest,
  busy: boolean,
): TemplateResult {
  const t = ctx.t;
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
    ${renderButtons(ctx, nothing, busy)}`;
}

export function renderUrlText(url: string): TemplateResult {
  const parts = describeUrl(url);
  return html`<p part="url" id="url">
    ${parts.before}${parts.host ? html`<strong part="url-host">${parts.host}</strong>` : nothing}${parts.after}
  </p>`;
}

export function renderUrl(ctx: ViewContext, request: AgentElicitationRequest, busy: boolean): TemplateResult {
  const t = ctx.t;
  const url = request.url ?? '';
  const parts = describeUrl(url);
  const openable = parts.openable && !request.unsupported;
  const warnings = html`${
    parts.punycode ? html`<p part="warning" role="note">${t.punycodeWarning(parts.host)}</p>` : nothing
  }${openable ? nothing : html`<p part="warning" role="note">${t.notOpenable}</p>`}`;
  if (ctx.phase === 'waiting') {
    return html`<p class="intro">${t.urlIntro}</p>
      ${renderUrlText(url)} ${warnings}
      <p part="status" role="status">${t.waiting}</p>
      <div part="actions">
        <button type="button" part="button answer" @click=${ctx.openUrl}>${t.openAgain}</button>
        <button type="button" part="button cancel" @click=${() => ctx.act('cancel')}>${t.stopWaiting}</button>
      </div>`;
  }
  return html`<p class="intro">${t.urlIntro}</p>
    ${renderUrlText(url)} ${warnings}
    ${renderButtons(
      ctx,
      openable
        ? html`<button
            type="button"
            part="button answer"
            aria-describedby="url"
            ?disabled=${busy}
            @click=${ctx.openUrl}
          >
            ${t.open}
          </button>`
        : nothing,
      busy,
    )}`;
}

export function renderUrlDone(ctx: ViewContext, request: AgentElicitationRequest): TemplateResult {
  const t = ctx.t;
  return html`<section part="base record" aria-labelledby="message">
    ${renderHeader(ctx, request.message)} ${renderUrlText(request.url ?? '')}
    <p part="status" role="status">${ctx.completion ? t.completed : t.stoppedWaiting}</p>
  </section>`;
}

export function renderRecord(ctx: ViewContext, record: AgentElicitationRecord): TemplateResult {
  const t = ctx.t;
  const answers = record.answers ?? {};
  const questions = record.questions ?? [];
  const answered = record.resolution === 'answered';
  const status = `${t.resolution(record.resolution, record.mode)}${record.completed ? ` ${t.completed}` : ''}`;
  return html`<section part="base record" aria-labelledby="message">
    ${renderHeader(ctx, record.message ?? '')}
    ${record.mode === 'url' && record.url ? renderUrlText(record.url) : nothing}
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
