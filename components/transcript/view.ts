/**
 * The template of `<silo-transcript>`: the usage header, the log, the empty text, "Jump to latest" and
 * the polite live region — its frame, in the first paint — and, from the rows chunk
 * (transcript/rows/log.ts, loaded on demand: transcript/log.lazy.ts), the log's virtualized rows, the last
 * screen painted in normal flow while the log opens at its end, and live prompts whose row has not
 * arrived yet. Without the chunk the log is an empty region with the same role, label and handlers.
 * `transcript/silo-transcript.ts` holds the state it shows.
 * @packageDocumentation
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentElicitationRequest, AgentPermissionRequest, TranscriptRow } from '../../src/index.ts';
import type { SiloTranscriptStrings } from '../shared/strings/strings.ts';
import type { LiveRequestsController } from './live-requests.controller.ts';
import type { RowContext } from './rows/row-context.ts';
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
  /** Stand-ins for live prompts whose journaled row has not arrived yet. */
  readonly orphans: readonly TranscriptRow[];
  /** Whether to paint the last screen in normal flow while the log settles at its end (`transcript/tail-paint.ts`). */
  readonly tailPaint: boolean;
  /** The message of the source's load failure, shown instead of the empty text. */
  readonly loadError: string | undefined;
  /** The live region's text (turn started / ended). */
  readonly announcement: string;
  /** Scroll following: its handlers take the user's scrolls, and it hides the jump button while stuck. */
  readonly stick: StickToBottomController;
  /** Focus entering a stand-in (see `LiveRequestsController.onStandInFocus`). */
  readonly onStandInFocus: (e: FocusEvent) => void;
  /** A key pressed in the log (after the stick controller has seen it as user intent). */
  readonly onKeydown: (e: KeyboardEvent) => void;
  /** The "Jump to latest" button was clicked. */
  readonly onJump: () => void;
}

/** Renders `<silo-transcript>`'s shadow content from `v`. Pure: it only builds the template. */
export function renderTranscript(v: TranscriptView): TemplateResult {
  const { strings: s, ctx, rows, orphans, stick, log } = v;
  return html`
    ${renderUsage(v.usage, ctx)}
    <div
      class="log"
      part="log"
      role="log"
      aria-live="off"
      aria-label=${s.transcriptLabel}
      tabindex="0"
      @scroll=${stick.onScroll}
      @wheel=${(e: WheelEvent) => e.deltaY < 0 && stick.onUserIntent()}
      @touchmove=${stick.onUserIntent}
      @pointerdown=${stick.onUserIntent}
      @keydown=${(e: KeyboardEvent) => {
        stick.onUserIntent();
        v.onKeydown(e);
      }}
    >
      ${log ? log.logRows(rows, ctx) : nothing}
    </div>
    ${log ? log.logOverlays(rows, ctx, v.tailPaint, orphans, v.onStandInFocus) : nothing}
    ${
      rows.length === 0 && orphans.length === 0
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
}

/**
 * The context rows render with: `strings` and the locale, the live requests by id, and the live
 * prompts' state and answering (through `requests`; a failing answer is reported there, never thrown).
 */
export function rowContext(
  host: RowContextSource,
  strings: SiloTranscriptStrings,
  requests: Pick<LiveRequestsController, 'promptState' | 'choose'>,
): RowContext {
  return {
    strings,
    locale: host.locale,
    permission: (id) => host.permissionRequests.find((r) => r.id === id),
    elicitation: (id) => host.elicitationRequests.find((r) => r.id === id),
    promptState: (id) => requests.promptState(id),
    choose: (req, optionId) => void requests.choose(req, optionId),
    ...(host.branchable ? { branch: (turn: number) => host.branch(turn) } : {}),
  };
}
