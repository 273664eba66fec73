/**
 * The source of `<silo-transcript>`, as a Lit reactive controller: reads whichever source the element
 * was given (a live session, a journaled session offline, an array, a JSONL export by URL or file),
 * folds it into a {@link TranscriptModel}, follows live batches, and asks the element to render —
 * the element renders at most once per animation frame (see `SiloTranscript.scheduleUpdate`).
 * @packageDocumentation
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  type AgentSessionHandle,
  type AgentSessionUpdate,
  type AgentsService,
  SiloError,
  TranscriptModel,
} from '../../src/index.ts';
import { exportChunk } from '../shared/export.chunk.ts';

/** Updates folded and painted before the whole journal of a reopened session is read. */
export const TAIL_FIRST = 400;

/** The element's source properties; the most recently set source wins. */
export interface TranscriptSourceHost extends ReactiveControllerHost {
  readonly session: AgentSessionHandle | undefined;
  readonly service: AgentsService | undefined;
  readonly sessionId: string | undefined;
  readonly updates: readonly AgentSessionUpdate[] | undefined;
  readonly src: string | undefined;
  readonly file: Blob | undefined;
}

/** What the element hears from its source. */
export interface TranscriptSourceEvents {
  /** A new source is being loaded (the model was replaced by an empty one). */
  reset(): void;
  /** The source could not be read. */
  failed(error: SiloError): void;
  /** Live updates were applied: `started`/`ended` turns counted before them. */
  live(started: number, ended: number): void;
}

export class TranscriptSourceController implements ReactiveController {
  /** The model being rendered; replaced whole when the source changes. */
  model = new TranscriptModel();
  /** The source follows live batches (a session, or `appendUpdates`). */
  live = false;
  /** A reopened journal opens at its end (and follows it while its rows are measured). */
  openAtEnd = false;
  /**
   * A live batch came in after the journal's tail was shown: the rows are no longer the journal's
   * (the host's tail paint, which draws only what the journal held, goes then).
   */
  grown = false;
  /**
   * Every read of the current source is applied: for a reopened journal, the whole journal after its
   * tail. Until then a journal has not finished opening (its full read is still to be swapped in).
   */
  complete = false;
  /** Settles when the current source's reads are applied (never rejects: failures go to `failed`). */
  loaded: Promise<void> = Promise.resolve();
  #generation = 0;
  #unsubscribe: (() => void) | undefined;
  #appliedUpdates: readonly AgentSessionUpdate[] | undefined;

  constructor(
    private readonly host: TranscriptSourceHost,
    private readonly events: TranscriptSourceEvents,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#teardown();
  }

  /** Applies more updates (live batches, or the tail of a longer `updates` array). */
  apply(updates: readonly AgentSessionUpdate[], live: boolean): void {
    const started = this.model.turnsStarted;
    const ended = this.model.turnsEnded;
    this.model.applyAll(updates);
    if (live) {
      this.live = true;
      this.events.live(started, ended);
    }
    this.host.requestUpdate();
  }

  /** Loads the host's current source from scratch (on a source change, or on reconnecting). */
  load(): void {
    this.#teardown();
    this.#reset();
    const gen = this.#generation;
    const host = this.host;
    let job: Promise<unknown> = Promise.resolve();
    if (host.session) {
      // Live: the same tail-first path as a journaled session. Batches that arrive before the whole
      // journal is folded are shown on the tail at once and kept, then folded again into the full
      // model (the model skips updates it already holds, by seq).
      const handle = host.session;
      let early: (readonly AgentSessionUpdate[])[] | undefined = [];
      let tailShown = false;
      this.live = true;
      this.#unsubscribe = handle.subscribe((batch) => {
        if (gen !== this.#generation) return;
        early?.push(batch);
        if (!early || tailShown) {
          this.grown = true;
          this.apply(batch, true);
        }
      });
      job = this.#openTailFirst(
        gen,
        (n) => handle.transcriptTail(n),
        () => handle.transcript(),
        () => {
          tailShown = true;
          return early ?? [];
        },
      ).finally(() => {
        early = undefined;
      });
    } else if (host.service && host.sessionId) {
      const { service, sessionId } = host;
      job = this.#openTailFirst(
        gen,
        (n) => service.transcriptTail(sessionId, n),
        () => service.transcript(sessionId),
      );
    } else if (host.file) {
      // The JSONL parser is in the export entry, loaded (once) beside the file's text.
      job = Promise.all([exportChunk.load(), host.file.text()]).then(
        ([m, t]) => gen === this.#generation && this.apply(m.parseJsonl(t), false),
      );
    } else if (host.src) {
      const url = host.src;
      const text = fetch(url).then((r) => {
        if (!r.ok) throw new SiloError('invalid-params', `HTTP ${r.status} for ${url}`);
        return r.text();
      });
      job = Promise.all([exportChunk.load(), text]).then(
        ([m, t]) => gen === this.#generation && this.apply(m.parseJsonl(t), false),
      );
    } else if (host.updates) {
      this.setUpdates();
    }
    this.loaded = job
      .then(
        () => {},
        (e: unknown) => {
          if (gen === this.#generation) this.events.failed(SiloError.from(e));
        },
      )
      .then(() => {
        if (gen !== this.#generation) return;
        this.complete = true;
        this.host.requestUpdate();
      });
  }

  /**
   * The last screen first, for both journal sources: folds the tail and paints it at the bottom, then
   * (unless the tail was the whole journal) folds everything into a fresh model and swaps it in (rows
   * are keyed, so the visible end stays where it is); the whole journal is read only after the tail's
   * frame is rendered. After each fold the batches `pending()` returns (live ones that came
   * meanwhile) are folded too. Rejects with a read's error.
   */
  async #openTailFirst(
    gen: number,
    readTail: (count: number) => Promise<AgentSessionUpdate[]>,
    readAll: () => Promise<AgentSessionUpdate[]>,
    pending: () => readonly (readonly AgentSessionUpdate[])[] = () => [],
  ): Promise<void> {
    const tail = await readTail(TAIL_FIRST);
    if (gen !== this.#generation) return;
    this.openAtEnd = true;
    this.apply(tail, false);
    for (const batch of pending()) this.apply(batch, false);
    if (tail.length < TAIL_FIRST) return;
    // The whole journal is read once the tail's frame is rendered, so reading and receiving it (tens
    // of MB for a long session) does not compete with painting the last screen. The host renders in
    // the animation frame it asked for first; this callback runs after it, the task after the paint.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    if (gen !== this.#generation) return;
    const all = await readAll();
    if (gen !== this.#generation) return;
    this.model = new TranscriptModel();
    this.apply(all, false);
    for (const batch of pending()) this.apply(batch, false);
  }

  /** The `updates` array changed: a longer array that extends the previous one only applies its tail. */
  setUpdates(): void {
    const next = this.host.updates ?? [];
    const prev = this.#appliedUpdates;
    const extends_ =
      prev !== undefined &&
      next.length >= prev.length &&
      (prev.length === 0 || (next[0] === prev[0] && next[prev.length - 1] === prev[prev.length - 1]));
    if (!extends_) {
      if (prev !== undefined) {
        this.model = new TranscriptModel();
        this.events.reset();
      }
      this.apply(next, false);
    } else {
      this.apply(next.slice(prev.length), true);
    }
    this.#appliedUpdates = next;
  }

  #teardown(): void {
    this.#generation++;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #reset(): void {
    this.openAtEnd = false;
    this.grown = false;
    this.complete = false;
    this.model = new TranscriptModel();
    this.#appliedUpdates = undefined;
    this.live = false;
    this.events.reset();
  }
}
