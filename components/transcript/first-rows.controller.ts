/**
 * `<silo-transcript>`'s first rows, held in the shared registry (shared/first-rows.ts) from the moment
 * it connects until it has rendered with its rows chunk and the Markdown chunk in: idle work (the
 * components entry's load of `<silo-elicitation>`) waits until then, so it does not compete with the
 * chunks a transcript's first message needs. Released as well when the element is disconnected
 * before that render; a transcript connected after its first rows held nothing.
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { markdownChunk } from '../content/markdown-render.chunk.ts';
import { holdForFirstRows } from '../shared/first-rows.ts';
import { logChunk } from './rows.chunk.ts';

/** Holds the first-rows registry for one transcript until it has drawn with its chunks in. */
export class FirstRowsController implements ReactiveController {
  #release: (() => void) | undefined;
  #drawn = false;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    if (this.#drawn || this.#release) return;
    holdForFirstRows(new Promise<void>((resolve) => (this.#release = resolve)));
    // Both chunks in: one more render draws the rows with them (hostUpdated then releases).
    Promise.all([logChunk.load(), markdownChunk.load()]).then(
      () => this.host.requestUpdate(),
      () => this.#done(),
    );
  }

  hostUpdated(): void {
    if (logChunk.value && markdownChunk.value) this.#done();
  }

  hostDisconnected(): void {
    this.#release?.();
    this.#release = undefined;
  }

  #done(): void {
    this.#drawn = true;
    this.hostDisconnected();
  }
}
