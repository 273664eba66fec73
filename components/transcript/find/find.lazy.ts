/**
 * Find in `<silo-transcript>` without its code in the first paint: the find controller
 * (find.controller.ts, with text.ts and highlight.ts) is its own chunk (find.chunk.ts), loaded by the
 * first find (`find()`, `findNext()`, `findPrevious()`); a transcript that is never searched never
 * loads it. This is its stand-in, which queues the calls made before the chunk is in.
 * @packageDocumentation
 */
import type { ReactiveControllerHost } from 'lit';
import type { SiloEmitter } from '../../shared/silo-element.ts';
import { loadFind } from './find.chunk.ts';
import type { SiloFindResult, TranscriptFindController, TranscriptFindRows } from './find.controller.ts';

/**
 * A transcript's find, created on first use: the calls made while the chunk loads run on the
 * controller once it is in, in the order they were made. If the chunk cannot be loaded, those calls
 * reject with the load's error and nothing is searched or highlighted; the next call tries again.
 */
export class TranscriptFindStandIn {
  #controller: TranscriptFindController | undefined;
  #loading: Promise<TranscriptFindController> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & SiloEmitter,
    private readonly rows: TranscriptFindRows,
  ) {}

  /** The controller, loading its chunk first if needed (it then watches the host's renders). */
  #ready(): Promise<TranscriptFindController> {
    this.#loading ??= loadFind().then(
      (m) => {
        this.#controller ??= new m.TranscriptFindController(this.host, this.rows);
        // Its `hostUpdated` starts following the log (highlights of rows rendered later).
        this.host.requestUpdate();
        return this.#controller;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }

  /** See `TranscriptFindController.find`; rejects if the find chunk cannot be loaded. */
  find(query: string): Promise<SiloFindResult> {
    const c = this.#controller;
    return c ? c.find(query) : this.#ready().then((f) => f.find(query));
  }

  /** See `TranscriptFindController.step`; rejects if the find chunk cannot be loaded. */
  step(direction: 1 | -1): Promise<SiloFindResult> {
    const c = this.#controller;
    return c ? c.step(direction) : this.#ready().then((f) => f.step(direction));
  }

  /** Ends the find (after the calls still waiting for the chunk); nothing to do before any find. */
  clear(): void {
    if (this.#controller) this.#controller.clear();
    else
      void this.#loading?.then(
        (f) => f.clear(),
        () => undefined,
      );
  }
}
