/**
 * `<silo-transcript>`'s controllers, made in order and tied to each other: a new source resets the
 * scroll following and the live prompts; find, the live prompts and the feed find rows among the
 * rendered ones and reveal them in the log; the scroll following follows a live or reopened source,
 * which has opened once the whole journal is in, and the tail paint shows while it opens; a key in the
 * log moves focus between rows. The element (`transcript/silo-transcript.ts`) holds the rows as last
 * rendered, its state and the API that uses them.
 * @packageDocumentation
 */
import type { VirtualizerHostElement } from '@lit-labs/virtualizer/virtualize.js';
import type { TranscriptRow } from '../../src/index.ts';
import { FeedFocusController, type FeedFocusHost } from './feed.controller.ts';
import { TranscriptFindStandIn } from './find/find.lazy.ts';
import { LiveRequestsController, type LiveRequestsHost } from './live-requests.controller.ts';
import { keyTarget, revealRow } from './rows.chunk.ts';
import {
  TranscriptSourceController,
  type TranscriptSourceEvents,
  type TranscriptSourceHost,
} from './source.controller.ts';
import { StickToBottomController } from './stick-to-bottom.controller.ts';

/** The element as its controllers read it: its source and request properties, its shadow root, its events. */
export interface TranscriptControllersHost extends TranscriptSourceHost, LiveRequestsHost, FeedFocusHost {}

/**
 * What the element does for its controllers. Its source events come after the controllers' own: `reset`
 * runs once the scroll following is reset and before the live prompts are.
 */
export interface TranscriptControllersHooks extends TranscriptSourceEvents {
  /** The rows as last rendered (the model's rows at the start of the last update). */
  rows(): readonly TranscriptRow[];
  /** Moves focus to the row at `index` (the element's `focusRow`). */
  focusRow(index: number): Promise<void>;
}

/** The controllers of one `<silo-transcript>`, and what ties them to its log. */
export interface TranscriptControllers {
  /** The source: the model being rendered, read from whichever source the element was given. */
  readonly source: TranscriptSourceController;
  /** Live prompts: which rows are answerable, answering a permission, focus. */
  readonly requests: LiveRequestsController;
  /** Find across every row, rendered or not (its code loads with the first find). */
  readonly find: TranscriptFindStandIn;
  /** The log as one Tab stop: Tab lands on its current row and leaves after that row's controls. */
  readonly feed: FeedFocusController;
  /** Follows the log's bottom while stuck (for a live or journaled session, which open at their end). */
  readonly stick: StickToBottomController;
  /** Scrolls row `index` into view in the log and returns its element (null: no log, or not rendered). */
  reveal(index: number): Promise<HTMLElement | null>;
  /**
   * Whether the last screen is painted in normal flow over the log (transcript/tail-paint.ts): while a
   * reopened journal is opening at its end and no live batch has added to what it held.
   */
  tailPaint(): boolean;
  /** A key pressed in the log (transcript/rows/navigation.ts): focus moves to the row it names. */
  readonly onKeydown: (e: KeyboardEvent) => void;
}

/**
 * Makes `host`'s controllers, each added to it in this order: source, live prompts, feed, scroll
 * following (find adds its own with its chunk). Call it once, as the element is constructed.
 */
export function transcriptControllers(
  host: TranscriptControllersHost,
  hooks: TranscriptControllersHooks,
): TranscriptControllers {
  /** The log element (`.log`, from transcript/view.ts), once rendered. */
  const log = (): (HTMLElement & VirtualizerHostElement) | null =>
    host.renderRoot.querySelector<HTMLElement>('.log');
  const reveal = (index: number): Promise<HTMLElement | null> => revealRow(log(), index);
  /** The index of the row with `key` once it is among the rendered rows, else -1. */
  const renderedRow = (key: string): number => {
    const index = source.model.indexOf(key);
    return index < hooks.rows().length ? index : -1;
  };
  const source = new TranscriptSourceController(host, {
    reset: () => {
      stick.reset();
      hooks.reset();
      // Live requests outlive a source change: their rows come back with the new model.
      requests.reset();
    },
    failed: (error) => hooks.failed(error),
    live: (started, ended) => hooks.live(started, ended),
  });
  const requests = new LiveRequestsController(host, {
    renderedRow: (key) => renderedRow(key),
    reveal: (index) => reveal(index),
  });
  const find = new TranscriptFindStandIn(host, {
    rows: () => hooks.rows(),
    indexOf: (key) => renderedRow(key),
    log: () => log(),
    reveal: (index) => {
      stick.setStuck(false);
      return reveal(index);
    },
  });
  const feed = new FeedFocusController(host, {
    log: () => log(),
    indexOf: (key) => renderedRow(key),
    count: () => hooks.rows().length,
    focusRow: (index) => hooks.focusRow(index),
  });
  const stick = new StickToBottomController(
    host,
    () => log(),
    () => source.live || source.openAtEnd,
    // Opened once the whole journal is in: swapping it in moves the log for a few frames, under the tail paint.
    () => source.openAtEnd && source.complete,
  );
  const onKeydown = (e: KeyboardEvent): void => {
    const rows = hooks.rows();
    const target = keyTarget(e, rows, (r) => requests.isPending(r));
    if (target === undefined) return;
    e.preventDefault();
    if (target >= 0 && log()) {
      stick.setStuck(target === rows.length - 1);
      void hooks.focusRow(target);
    }
  };
  const tailPaint = (): boolean => stick.opening && source.openAtEnd && !source.grown;
  return { source, requests, find, feed, stick, reveal, tailPaint, onKeydown };
}
