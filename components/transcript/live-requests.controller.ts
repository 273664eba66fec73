/**
 * The live permission prompts and questions of `<silo-transcript>`, as a Lit reactive controller:
 * which rows are live (answerable), the local state of a permission being answered, and focus — a new
 * live prompt takes focus in its row unless the user is busy elsewhere on the page. A live request
 * reaches the page only after the journal commit that holds its row (docs/requests-and-state.md), so
 * its row is in the model when it arrives: nothing is drawn for a request apart from its row.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  type AgentElicitationRequest,
  type AgentPermissionRequest,
  requestRowKey,
  SiloError,
  type TranscriptRow,
} from '../../src/index.ts';
import { loadElicitation } from '../elicitation/silo-elicitation.chunk.ts';
import type { SiloEmitter } from '../shared/silo-element.ts';
import type { PromptState } from './rows/row-context.ts';

/** What the controller needs from its element. */
export interface LiveRequestsHost extends ReactiveControllerHost, HTMLElement, SiloEmitter {
  readonly permissionRequests: readonly AgentPermissionRequest[];
  readonly elicitationRequests: readonly AgentElicitationRequest[];
}

/** Where the element's rows are: a row's index once rendered, scrolling to a row. */
export interface LiveRequestsRows {
  /** The index of the row with `key` once it is among the rendered rows, else -1. */
  renderedRow(key: string): number;
  /** Scrolls row `index` into view inside the log and returns its element. */
  reveal(index: number): Promise<HTMLElement | null>;
}

export class LiveRequestsController implements ReactiveController {
  #seen = new WeakSet<object>();
  #prompts = new Map<string, PromptState>();
  /** The newest open request: it takes focus once its row is rendered. */
  #focusPrompt: { readonly id: string; readonly signal: AbortSignal } | undefined;

  constructor(
    private readonly host: LiveRequestsHost,
    private readonly rows: LiveRequestsRows,
  ) {
    host.addController(this);
  }

  /**
   * Takes in requests not seen before: re-renders when one aborts, and the newest open one will take
   * focus. Live requests are not written into the model: their rows come from the journal.
   */
  adopt(): void {
    const host = this.host;
    for (const req of [...(host.permissionRequests ?? []), ...(host.elicitationRequests ?? [])]) {
      if (this.#seen.has(req)) continue;
      this.#seen.add(req);
      req.signal.addEventListener(
        'abort',
        () => {
          // Ended meanwhile (answered in another tab, say): its outcome shows, not a failed answer's error.
          if (this.#prompts.get(req.id)?.error) this.#prompts.delete(req.id);
          host.requestUpdate();
        },
        { once: true },
      );
      if (!req.signal.aborted) this.#focusPrompt = req;
    }
    host.requestUpdate();
  }

  /** A new source: every live request is taken in again (its row comes back with the new model). */
  reset(): void {
    this.#seen = new WeakSet();
    this.adopt();
  }

  /** The local state of a live permission prompt (being answered, answered, failed). */
  promptState(id: string): PromptState {
    return this.#prompts.get(id) ?? {};
  }

  /**
   * Answers a live permission. Fails closed: on an error nothing is assumed allowed and the prompt
   * stays answerable (unless it was withdrawn), showing the error; a request that ended meanwhile
   * (answered first in another tab) shows how it ended instead. Fires `silo-permission-answered`.
   */
  async choose(req: AgentPermissionRequest, optionId: string): Promise<void> {
    this.#prompts.set(req.id, { busy: true });
    this.host.requestUpdate();
    try {
      await req.choose(optionId);
      this.#prompts.set(req.id, { chosen: optionId });
      this.host.emit('silo-permission-answered', { id: req.id, optionId });
    } catch (e) {
      // The request ended meanwhile (another tab answered first): show how it ended, not an error.
      if (req.signal.aborted) this.#prompts.delete(req.id);
      else this.#prompts.set(req.id, { error: SiloError.from(e).message });
    }
    this.host.requestUpdate();
  }

  /** Whether row `r` is a prompt (or a tool card holding one) still waiting for the user. */
  isPending(r: TranscriptRow): boolean {
    const open = (q: { id: string; signal: AbortSignal }, id: string) => q.id === id && !q.signal.aborted;
    // A permission held by its tool call's card makes the card pending.
    const permission = r.type === 'tool' ? r.permission : r.type === 'permission' ? r : undefined;
    return (
      (permission !== undefined &&
        !permission.record.resolution &&
        this.host.permissionRequests.some((q) => open(q, permission.record.id))) ||
      (r.type === 'elicitation' &&
        !r.record.resolution &&
        this.host.elicitationRequests.some((q) => open(q, r.record.id)))
    );
  }

  hostUpdated(): void {
    const req = this.#focusPrompt;
    if (req === undefined) return;
    if (req.signal.aborted) {
      this.#focusPrompt = undefined;
      return;
    }
    // Focus goes to the prompt's row once it is rendered (its row is in the model before the request
    // reaches the page; a source still loading renders it a little later). It never takes focus from
    // text the user is typing outside the transcript (a follow-up in a composer: Enter would answer
    // the prompt).
    const index = this.#renderedIndex(req.id);
    if (index < 0) return;
    this.#focusPrompt = undefined;
    if (!typingOutside(this.host)) void this.#focus(req.id, index);
  }

  /** The index of a prompt's row once it is among the rendered rows, else -1. */
  #renderedIndex(id: string): number {
    const p = this.rows.renderedRow(requestRowKey('permission', id));
    return p >= 0 ? p : this.rows.renderedRow(requestRowKey('elicitation', id));
  }

  /** Focuses a live prompt in its row (at `index`). */
  async #focus(id: string, index: number): Promise<void> {
    const row = await this.rows.reveal(index);
    const find = () => row?.querySelector<HTMLElement>(`[data-prompt="${CSS.escape(id)}"]`);
    // A row already on screen (a tool card that now holds the permission) gets its new content when
    // the log renders its items, a frame or so after the element's own update.
    let prompt = find();
    for (let i = 0; i < 10 && row && !prompt; i++) {
      await new Promise((r) => requestAnimationFrame(r));
      prompt = find();
    }
    // Focus already inside (a question focuses its first field itself): keystrokes must not be lost.
    if (!prompt || prompt.matches(':focus-within')) return;
    const question = prompt.querySelector('silo-elicitation');
    if (question) {
      // The question's element loads on demand: focus its first field once it is defined.
      await loadElicitation();
      await question.updateComplete;
      if (!prompt.matches(':focus-within')) question.focusFirst();
      return;
    }
    prompt.focus({ preventScroll: true });
  }
}

/** Whether focus is in a text field outside `host` that holds typed text. */
function typingOutside(host: HTMLElement): boolean {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (!active || host.contains(active) || host.shadowRoot?.contains(active)) return false;
  if (active instanceof HTMLTextAreaElement) return active.value !== '';
  if (active instanceof HTMLInputElement)
    return /^(text|search|email|url|tel|password|number)$/.test(active.type) && active.value !== '';
  return active instanceof HTMLElement && active.isContentEditable && active.textContent !== '';
}
