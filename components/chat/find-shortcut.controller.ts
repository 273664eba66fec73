/**
 * The first-paint part of `<silo-chat>`'s find bar: Ctrl+F (⌘F) while focus is anywhere in the chat
 * (taken from the browser's find at once), the bar's styles, and loading the bar itself (chat/find-bar.controller.ts,
 * its own chunk, a {@link Chunk} (shared/chunk.ts)) on that first Ctrl+F. A chat that is never searched
 * never loads it.
 * @packageDocumentation
 */
import { css, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { Chunk } from '../shared/chunk.ts';
import type { SiloFindStrings } from '../shared/strings/strings.ts';
import type { SiloTranscript } from '../transcript/silo-transcript.ts';
import type { ChatFind } from './find-bar.controller.ts';

/** What the find bar needs from the chat. */
export interface ChatFindContext {
  strings(): SiloFindStrings;
  locale(): string | undefined;
  /** The chat's transcript, once rendered. */
  transcript(): SiloTranscript | null;
}

const barChunk = new Chunk<typeof import('./find-bar.controller.ts')>(
  () => import('./find-bar.controller.ts'),
);

/**
 * Loads the find bar's chunk (once; later calls return the same promise). Rejects if it cannot be
 * loaded; the next call tries again.
 */
export function loadFindBar(): Promise<typeof import('./find-bar.controller.ts')> {
  return barChunk.load();
}

/** Styles of the find bar; part of `<silo-chat>`'s styles. */
export const findBarStyles = css`
  .find {
    display: flex;
    align-items: center;
    gap: 6px;
    padding: 6px var(--_space);
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
    flex: none;
    flex-wrap: wrap;
  }
  .find input {
    flex: 1 1 8rem;
    min-width: 0;
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 4px 8px;
  }
  .find .count {
    font-size: 0.85em;
    color: var(--_muted);
    min-width: 5.5em;
  }
  .find button {
    font: inherit;
    color: var(--_fg);
    background: transparent;
    border: 1px solid var(--_border);
    border-radius: 6px;
    min-width: 2em;
    padding: 2px 6px;
    cursor: pointer;
  }
`;

/**
 * Ctrl+F / ⌘F in the chat opens the find bar, loading it the first time; {@link render} draws it
 * once it exists. If the bar's chunk cannot be loaded, that key press opens nothing (the browser's
 * find was already taken from it) and the next one tries again.
 */
export class LazyChatFind implements ReactiveController {
  #bar: ChatFind | undefined;

  constructor(
    private readonly host: ReactiveControllerHost &
      HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    private readonly ctx: ChatFindContext,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.host.addEventListener('keydown', this.#onHostKeydown);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('keydown', this.#onHostKeydown);
  }

  /** Opens the bar (loading it first if needed) and moves focus into it. Rejects if it cannot be loaded. */
  async show(): Promise<void> {
    const m = await loadFindBar();
    // Checked after the load: two presses during it make one bar.
    this.#bar ??= new m.ChatFind(this.host, this.ctx);
    await this.#bar.show();
  }

  /** Ctrl+F / ⌘F anywhere in the chat. */
  #onHostKeydown = (e: KeyboardEvent): void => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'f') return;
    e.preventDefault();
    this.show().catch(() => undefined);
  };

  /** The bar, while open. */
  render(): TemplateResult | typeof nothing {
    return this.#bar?.render() ?? nothing;
  }
}
