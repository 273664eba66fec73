/**
 * The template of `<silo-transcript>`: the usage header, the log, the empty text, "Jump to latest" and
 * the polite live region — its frame, in the first paint — and, from the rows chunk
 * (transcript/rows/log.ts, loaded on demand: transcript/log.lazy.ts), the log's virtualized rows, the last
 * screen painted in normal flow while the log opens at its end. Without the chunk the log is an empty region with the same role, label and handlers.
 * `transcript/silo-transcript.ts` holds the state it shows.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentElicitationRequest, AgentPermissionRequest, TranscriptRow } from '../../src/index.ts';
import type { SiloTranscriptStrings } from '../shared/strings/strings.ts';
import type { FeedFocusController } from './feed.controller.ts';
import type { LiveRequestsController } from './live-requests.controller.ts';
import type { RowContext, TurnAction } from './rows/row-context.ts';
import type { TranscriptLog } from './rows.chunk.ts';
import type { StickToBottomController } from './stick-to-bottom.controller.ts';
import { renderUsage, type UsageView } from './usage.ts';

/** What one render of `<silo-transcript>` shows, and the handlers its log and buttons call. */
export interface TranscriptView {
  readonly strings: SiloTranscriptStrings;
  /** The rows chunk, or undefined until it is loaded (only the frame is drawn then). */
  readonly log: TranscriptLog | undefined;
  /** What every row renders with. */
  readonly ctx: RowContext;
  /** The rows to render, in order. */
  readonly rows: readonly TranscriptRow[];
  /** The usage header's numbers (neither known: no header). */
  readonly usage: UsageView;
  /** Whether to paint the last screen in normal flow while the log settles at its end (`transcript/tail-paint.ts`). */
  readonly tailPaint: boolean;
  /** The message of the source's load failure, shown instead of the empty text. */
  readonly loadError: string | undefined;
  /** The live region's text (turn started / ended). */
  readonly announcement: string;
  /** Scroll following: its handlers take the user's scrolls, and it hides the jump button while stuck. */
  readonly stick: StickToBottomController;
  /** A key pressed in the log (after the stick controller has seen it as user intent). */
  readonly onKeydown: (e: KeyboardEvent) => void;
  /** The log as one Tab stop (transcript/feed.controller.ts). */
  readonly feed: Pick<FeedFocusController, 'onFocusIn' | 'onKeydown' | 'onPointerDown'>;
  /** A turn is running (the feed is `aria-busy`: its rows are still being added to). */
  readonly busy: boolean;
  /** The "Jump to latest" button was clicked. */
  readonly onJump: () => void;
}

/** Renders `<silo-transcript>`'s shadow content from `v`. Pure: it only builds the template. */
export function renderTranscript(v: TranscriptView): TemplateResult {
  const { strings: s, ctx, rows, stick, log } = v;
  return html`
    ${renderUsage(v.usage, ctx)}
    <span class="feed-edge" data-edge="start" tabindex="-1"></span>
    <div
      class="log"
      part="log"
      role=${log && rows.length ? 'feed' : 'region'}
      aria-live="off"
      aria-busy=${v.busy ? 'true' : 'false'}
      aria-label=${s.transcriptLabel}
      tabindex="0"
      @scroll=${stick.onScroll}
      @wheel=${(e: WheelEvent) => e.deltaY < 0 && stick.onUserIntent()}
      @touchmove=${stick.onUserIntent}
      @pointerdown=${() => {
        stick.onUserIntent();
        v.feed.onPointerDown();
      }}
      @focusin=${v.feed.onFocusIn}
      @keydown=${(e: KeyboardEvent) => {
        stick.onUserIntent();
        if (!v.feed.onKeydown(e)) v.onKeydown(e);
      }}
    >
      ${log ? log.logRows(rows, ctx) : nothing}
    </div>
    <span
      class="feed-edge"
      data-edge="end"
      tabindex=${rows.length ? '0' : '-1'}
      @focusin=${v.feed.onFocusIn}
    ></span>
    ${log && v.tailPaint ? log.tailPaintRows(rows, ctx) : nothing}
    ${
      rows.length === 0
        ? html`<div class="empty" part="empty">${v.loadError ? s.loadFailed(v.loadError) : s.empty}</div>`
        : nothing
    }
    <button type="button" class="jump" part="jump" ?hidden=${stick.stuck} @click=${v.onJump}>
      ${s.jumpToLatest}
    </button>
    <div class="sr-only" role="status" aria-live="polite">${v.announcement}</div>
  `;
}

/** The element state a row context is made of (`<silo-transcript>`'s properties). */
export interface RowContextSource {
  readonly locale: string | undefined;
  readonly permissionRequests: readonly AgentPermissionRequest[];
  readonly elicitationRequests: readonly AgentElicitationRequest[];
  /** Turn ends offer "Branch from here". */
  readonly branchable: boolean;
  /** Fires `silo-branch` for a turn. */
  branch(turn: number): void;
  /** Whether the last turn's end offers Retry and Continue (`turn-actions`). */
  readonly turnActions: boolean;
}

/** Stop reasons after which the last turn's end offers Continue. */
const CONTINUABLE = new Set(['max_tokens']);

/** The key of the last turn-end row, when nothing comes after it but rows that draw no turn. */
export function lastTurnEndKey(rows: readonly TranscriptRow[]): string | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.type === 'turn-end') return r.key;
    if (r.type === 'message' && r.role === 'user') return undefined;
  }
  return undefined;
}

/**
 * The context rows render with: `strings` and the locale, the live requests by id, the live
 * prompts' state and answering (through `requests`; a failing answer is reported there, never thrown),
 * and what the last turn's end (`lastTurnEnd`, its row key) offers, chosen through `turnAction`.
 */
export function rowContext(
  host: RowContextSource,
  strings: SiloTranscriptStrings,
  requests: Pick<LiveRequestsController, 'promptState' | 'choose'>,
  lastTurnEnd: string | undefined,
  turnAction: (action: TurnAction) => void,
  rowCount: number,
): RowContext {
  return {
    strings,
    locale: host.locale,
    rowCount,
    permission: (id) => host.permissionRequests.find((r) => r.id === id),
    elicitation: (id) => host.elicitationRequests.find((r) => r.id === id),
    promptState: (id) => requests.promptState(id),
    choose: (req, optionId) => void requests.choose(req, optionId),
    ...(host.branchable ? { branch: (turn: number) => host.branch(turn) } : {}),
    turnActions: (key, stopReason) =>
      host.turnActions && key === lastTurnEnd
        ? CONTINUABLE.has(stopReason)
          ? ['continue', 'retry']
          : ['retry']
        : [],
    turnAction,
  };
}
