/**
 * The live permission prompts and questions of `<silo-transcript>`, as a Lit reactive controller:
 * which are pending and shown below the log until their journaled row arrives, the local state of a
 * permission being answered, and focus — a new live prompt takes focus (in the pending area first,
 * then in its row in the log; a stand-in holding focus stays until focus has moved to its row, so no
 * key is lost between them) unless the user is busy elsewhere on the page.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  type AgentElicitationRequest,
  type AgentPermissionRequest,
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
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** Where the element's rows are: a row's index once rendered, the current turn, scrolling to a row. */
export interface LiveRequestsRows {
  /** The index of the row with `key` once it is among the rendered rows, else -1. */
  renderedRow(key: string): number;
  /** The turn new rows belong to. */
  turn(): number;
  /** Scrolls row `index` into view inside the log and returns its element. */
  reveal(index: number): Promise<HTMLElement | null>;
}

export class LiveRequestsController implements ReactiveController {
  #seen = new WeakSet<object>();
  #prompts = new Map<string, PromptState>();
  #focusPrompt: string | undefined;
  #orphanFocused: string | undefined;
  /** The option last focused in a prompt's stand-in (by prompt id): its row's same option takes focus. */
  #standInOption = new Map<string, string>();
  /**
   * Permissions whose row arrived while their stand-in held focus: the stand-in stays drawn until
   * focus has moved to the row (else focus falls to the page meanwhile and a key such as Y is lost).
   */
  #handoff = new Map<string, 'waiting' | 'moving'>();

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
      if (!req.signal.aborted) this.#focusPrompt = req.id;
    }
    host.requestUpdate();
  }

  /** A new source: every live request is taken in again (its row comes back with the new model). */
  reset(): void {
    this.#seen = new WeakSet();
    this.adopt();
  }

  /**
   * Listener for the pending area's `focusin`: remembers the option focused in a prompt's stand-in, so
   * that when the prompt's row replaces it the same option takes focus (see {@link hostUpdated}).
   */
  onStandInFocus = (e: FocusEvent): void => {
    const target = e.target as HTMLElement;
    const id = target.closest('[data-prompt]')?.getAttribute('data-prompt');
    const option = target.getAttribute('data-option');
    if (id && option) this.#standInOption.set(id, option);
  };

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

  /** Live, unanswered requests whose journaled row has not been rendered yet, as stand-in rows. */
  orphans(): TranscriptRow[] {
    const out: TranscriptRow[] = [];
    const turn = this.rows.turn();
    for (const req of this.host.permissionRequests ?? []) {
      if (req.signal.aborted || !this.#drawsStandIn(req.id)) continue;
      out.push({
        type: 'permission',
        key: `p:${req.id}`,
        turn,
        record: { id: req.id, toolCall: req.toolCall, options: req.options },
      });
    }
    for (const req of this.host.elicitationRequests ?? []) {
      if (req.signal.aborted || this.rows.renderedRow(`e:${req.id}`) >= 0) continue;
      out.push({
        type: 'elicitation',
        key: `e:${req.id}`,
        turn,
        record: {
          id: req.id,
          message: req.message,
          mode: req.mode,
          questions: req.questions,
          acknowledgeOnly: req.acknowledgeOnly,
          toolCallId: req.toolCallId,
          url: req.url,
          unsupported: req.unsupported,
        },
      });
    }
    return out;
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

  /**
   * Whether the stand-in of permission `id` is drawn: until its row is rendered, and after that while
   * it holds focus, until focus has moved to the row ({@link hostUpdated}).
   */
  #drawsStandIn(id: string): boolean {
    if (this.rows.renderedRow(`p:${id}`) < 0 || this.#handoff.has(id)) return true;
    const standIn = this.host.renderRoot.querySelector(`.pending [data-prompt="${CSS.escape(id)}"]`);
    if (!standIn?.matches(':focus-within')) return false;
    this.#handoff.set(id, 'waiting');
    return true;
  }

  /** Moves focus from the stand-in of `id` to its row, then lets the stand-in go. */
  async #handOver(id: string): Promise<void> {
    this.#handoff.set(id, 'moving');
    try {
      await this.#focus(id);
    } finally {
      this.#handoff.delete(id);
      this.host.requestUpdate();
    }
  }

  hostUpdated(): void {
    for (const [waiting, state] of this.#handoff) if (state === 'waiting') void this.#handOver(waiting);
    const id = this.#focusPrompt;
    if (id === undefined) return;
    // Focus follows the prompt: into the pending area now, into the log once its row arrived. It
    // never takes focus from text the user is typing outside the transcript (a follow-up in a
    // composer: Enter would answer the prompt), nor, once the stand-in had focus, from wherever the
    // user moved it meanwhile.
    if (this.#renderedIndex(id) >= 0) {
      this.#focusPrompt = undefined;
      if (this.#handoff.has(id)) return;
      const active = document.activeElement;
      const standInHadFocus = this.#orphanFocused === id;
      const free = !active || active === document.body || this.host.matches(':focus-within');
      if (standInHadFocus ? free : !typingOutside(this.host)) void this.#focus(id);
    } else if (
      this.#orphanFocused !== id &&
      this.orphans().some((r) => r.key.endsWith(`:${id}`)) &&
      !typingOutside(this.host)
    ) {
      this.#orphanFocused = id;
      void this.#focus(id);
    }
  }

  /** The index of a prompt's row once it is among the rendered rows, else -1. */
  #renderedIndex(id: string): number {
    const p = this.rows.renderedRow(`p:${id}`);
    return p >= 0 ? p : this.rows.renderedRow(`e:${id}`);
  }

  /** Focuses a live prompt: its row in the log, or its stand-in in the pending area. */
  async #focus(id: string): Promise<void> {
    const index = this.#renderedIndex(id);
    const row =
      index >= 0
        ? await this.rows.reveal(index)
        : this.host.renderRoot.querySelector<HTMLElement>('.pending');
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
    const option = index >= 0 ? this.#standInOption.get(id) : undefined;
    const button = option
      ? prompt.querySelector<HTMLElement>(`button[data-option="${CSS.escape(option)}"]:not([disabled])`)
      : null;
    (button ?? prompt).focus({ preventScroll: true });
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
