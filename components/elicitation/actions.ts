/**
 * The user's actions on a live `<silo-elicitation>`: answering (validate, then send), declining,
 * cancelling, opening a url-mode URL, and what a rejected send does. They act on the element's state
 * through {@link ElicitationActionsHost}; `elicitation/silo-elicitation.ts` holds that state.
 * @packageDocumentation
 */
import {
  type AgentElicitationAnswer,
  type AgentElicitationRecord,
  type AgentElicitationRequest,
  type AgentElicitationResolution,
  describeUrl,
} from '../../src/index.ts';
import type { SiloElicitationStrings } from '../shared/strings/strings.ts';
import {
  errorData,
  resolutionFromAbort,
  type SiloElicitationEventDetail,
  type SiloElicitationEventMap,
  type validateForm,
} from './support.ts';
import type { Phase } from './views.ts';

/** The element's state the actions change (reactive: a change renders). */
export interface ElicitationActionState {
  phase: Phase;
  completion: boolean | undefined;
  ended: AgentElicitationRecord | undefined;
  errors: Record<string, string>;
  formError: string;
}

/** What the actions need from the element: its live request, state, and steps. */
export interface ElicitationActionsHost {
  /** The live request shown, if any; an action whose request is no longer active does nothing more. */
  active(): AgentElicitationRequest | undefined;
  t(): SiloElicitationStrings;
  phase(): Phase;
  /** Changes the element's state. */
  set(patch: Partial<ElicitationActionState>): void;
  /** Marks the form as submitted (every later change revalidates) and validates it, showing the errors. */
  validate(): ReturnType<typeof validateForm>;
  /** Moves focus to the first invalid field (else the first control) after the next render. */
  focusAfterRender(): void;
  /** Moves focus the same way once the update under way has rendered. */
  focusRendered(): Promise<void>;
  emit(name: keyof SiloElicitationEventMap, detail: SiloElicitationEventDetail): void;
  end(resolution: AgentElicitationResolution, answers?: Record<string, string>): void;
}

/**
 * Answers the open form: validates first (on failure shows the errors and focuses the first invalid
 * field, sending nothing), then sends; fires `silo-elicitation-answered` and ends once the request
 * accepted it. A rejected send goes to {@link sendFailed}. Does nothing unless the question is open
 * and supported.
 */
export async function submitAnswer(host: ElicitationActionsHost, event: Event): Promise<void> {
  event.preventDefault();
  const request = host.active();
  if (!request || host.phase() !== 'open' || request.unsupported) return;
  const result = host.validate();
  if (!result.ok) {
    host.set({ formError: host.t().fixErrors });
    await host.focusRendered();
    return;
  }
  host.set({ phase: 'sending' });
  try {
    await request.answer(result.content);
    if (host.active() !== request || host.phase() !== 'sending') return;
    host.emit('silo-elicitation-answered', { id: request.id, content: result.content, answers: result.text });
    host.end('answered', result.text);
  } catch (error) {
    sendFailed(host, request, error);
  }
}

/**
 * After a send was rejected: ends the question if its signal aborted meanwhile; else reopens it, with
 * the request's `invalid-params` messages inline (focus moves to the first) or a form-level error.
 * The typed answers stay.
 */
export function sendFailed(
  host: ElicitationActionsHost,
  request: AgentElicitationRequest,
  error: unknown,
): void {
  if (host.active() !== request || host.phase() === 'ended') return;
  if (request.signal.aborted) {
    host.end(resolutionFromAbort(request.signal.reason));
    return;
  }
  host.set({ phase: 'open' });
  const data = errorData(error);
  if (data.code === 'invalid-params' && data.errors) {
    host.set({ errors: data.errors, formError: host.t().fixErrors });
    host.focusAfterRender();
  } else {
    host.set({ formError: host.t().sendFailed(data.message) });
  }
}

/**
 * Declines or cancels the open question (fires the matching event and ends once the request took it;
 * a rejected send goes to {@link sendFailed}). Cancelling a url question that waits for completion
 * ends it at once ("stopped waiting") and fires `silo-elicitation-cancelled`; a failing cancel is ignored.
 */
export async function declineOrCancel(
  host: ElicitationActionsHost,
  kind: 'decline' | 'cancel',
): Promise<void> {
  const request = host.active();
  if (!request) return;
  if (host.phase() === 'waiting' && kind === 'cancel') {
    host.set({ completion: false, phase: 'ended' });
    host.emit('silo-elicitation-cancelled', { id: request.id });
    await request.cancel().catch(() => undefined);
    return;
  }
  if (host.phase() !== 'open') return;
  host.set({ phase: 'sending' });
  try {
    await (kind === 'decline' ? request.decline() : request.cancel());
    if (host.active() !== request || host.phase() !== 'sending') return;
    host.emit(kind === 'decline' ? 'silo-elicitation-declined' : 'silo-elicitation-cancelled', {
      id: request.id,
    });
    host.end(kind === 'decline' ? 'declined' : 'cancelled');
  } catch (error) {
    sendFailed(host, request, error);
  }
}

/**
 * Opens a url-mode question's URL on the user's click (only an openable http(s) URL: a new top-level
 * tab, `noopener,noreferrer`; fires `silo-elicitation-url-opened`), then, if still open, consents:
 * once accepted fires `silo-elicitation-answered` and `-ended` and waits for `elicitation/complete`
 * (phase `waiting`, focus to its controls). A rejected consent goes to {@link sendFailed}.
 */
export async function openUrl(host: ElicitationActionsHost): Promise<void> {
  const request = host.active();
  if (!request?.url || request.unsupported) return;
  const parts = describeUrl(request.url);
  if (!parts.openable) return;
  window.open(parts.href, '_blank', 'noopener,noreferrer');
  host.emit('silo-elicitation-url-opened', { id: request.id, url: parts.href });
  if (host.phase() !== 'open') return;
  host.set({ phase: 'sending' });
  try {
    await request.answer({});
    if (host.active() !== request || host.phase() !== 'sending') return;
    host.emit('silo-elicitation-answered', { id: request.id, content: {}, answers: {} });
    host.emit('silo-elicitation-ended', { id: request.id, resolution: 'answered' });
    host.set({ phase: 'waiting', ended: undefined });
    request.completion?.then((done) => {
      if (host.active() === request && host.phase() === 'waiting') {
        host.set({ completion: done, phase: 'ended' });
      }
    });
    await host.focusRendered();
  } catch (error) {
    sendFailed(host, request, error);
  }
}

/**
 * Watches a live question's signal: when it aborts while `open()` holds (an open question; while an
 * answer is in flight its promise decides, and a consented url question keeps waiting for
 * `elicitation/complete`), calls `end` with how it ended. Returns the function that stops watching.
 */
export function watchAbort(
  request: AgentElicitationRequest,
  open: () => boolean,
  end: (resolution: AgentElicitationResolution) => void,
): () => void {
  const onAbort = () => {
    if (open()) end(resolutionFromAbort(request.signal.reason));
  };
  request.signal.addEventListener('abort', onAbort, { once: true });
  return () => request.signal.removeEventListener('abort', onAbort);
}

/**
 * A multiple-choice answer with `option` ticked (`on`) or not, in the question's option order
 * (`order`); a non-list `current` counts as nothing ticked.
 */
export function toggledOption(
  current: AgentElicitationAnswer | undefined,
  option: string,
  on: boolean,
  order: readonly string[],
): string[] {
  const list = Array.isArray(current) ? current.filter((v) => v !== option) : [];
  if (on) list.push(option);
  return list.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
