/**
 * The first-paint part of `<silo-chat>`'s find bar: Ctrl+F (⌘F) while focus is anywhere in the chat
 * (taken from the browser's find at once) loads the bar itself (find-bar.controller.ts, its own chunk:
 * find-bar.chunk.ts) on that first Ctrl+F and opens it. A chat that is never searched never loads it.
 * The bar's styles are in find-bar.styles.ts, part of the chat's.
 * @packageDocumentation
 */
import { nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { loadFindBar } from './find-bar.chunk.ts';
import type { FindBarController } from './find-bar.controller.ts';
import type { FindBarContext } from './find-bar-context.ts';

/**
 * Ctrl+F / ⌘F in the chat opens the find bar, loading it the first time; {@link render} draws it
 * once it exists. If the bar's chunk cannot be loaded, that key press opens nothing (the browser's
 * find was already taken from it) and the next one tries again.
 */
export class FindShortcutController implements ReactiveController {
  #bar: FindBarController | undefined;

  constructor(
    private readonly host: ReactiveControllerHost &
      HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    private readonly ctx: FindBarContext,
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
    this.#bar ??= new m.FindBarController(this.host, this.ctx);
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
