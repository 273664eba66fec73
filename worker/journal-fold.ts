/**
 * What a session's journal says, folded update by update in journal order: which turn it holds open,
 * which requests it holds unanswered, the subagents it announced, the session state its updates set,
 * and where its last message run stands. The session's writer folds every update it appends
 * (worker/journal-writer.ts) and keeps the fold beside the journal, in the same transaction as the
 * updates it covers, every {@link KEEP_EVERY} updates and at each turn's end; binding a session
 * (worker/ingest.ts) then reads only the updates after the kept fold (worker/journal.ts `fold`), so
 * a restore costs the same at a million updates as at a hundred. Each fact is derived by the step its
 * live reader uses too (turns.ts `frameAfter`, subagents.ts `announcedChild`, state.ts `stateAfter`,
 * restore.ts `holdingAfter`).
 */
import { EMPTY_SESSION_STATE, type SessionState } from '../src/session-state.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { holdingAfter, type JournalHolding } from './restore.ts';
import { stateAfter } from './state.ts';
import { announcedChild } from './subagents.ts';
import { frameAfter, NO_FRAME, type TurnFrame } from './turns.ts';

/**
 * The version of {@link Learned}'s meaning and shape: a kept fold of another version is not used (the
 * journal is folded again from its start). Raise it whenever a step above changes what it derives, or
 * a field its shape. 2: `requests` as {@link OpenRequest}s (1 kept them as `p`/`e`, a newline, the id).
 */
export const FOLD_VERSION = 2;

/** Updates folded since the fold was last kept, at most, before the writer keeps it again. */
export const KEEP_EVERY = 1000;

/** A request the journal holds unanswered: its kind and its row id. */
export interface OpenRequest {
  readonly kind: 'permission' | 'elicitation';
  readonly id: string;
}

/** A fold of a session's journal, as it is kept: everything read from updates `0 … seq - 1`. */
export interface Learned {
  readonly v: number;
  /** The number of updates folded (the next update's seq). */
  readonly seq: number;
  readonly holding: JournalHolding;
  /** The turn the journal holds open. */
  readonly frame: TurnFrame;
  /** Requests journaled and not resolved, in journal order. */
  readonly requests: readonly OpenRequest[];
  /** The subagents' session ids the journal announced. */
  readonly children: readonly string[];
  /** The session state of the session's own updates, from the empty state. */
  readonly state: SessionState;
  /** True once an update named the session or cleared its name (`session_info_update`'s `title`). */
  readonly titled: boolean;
  /** The session's own last update, as far as its message run goes (`MessageIdSynthesizer.continueFrom`). */
  readonly last?: { readonly kind: string; readonly messageId?: string; readonly raw: { messageId?: true } };
}

/** Folds a session's journal from its start, or from a kept {@link Learned}. */
export class JournalFold {
  /** The number of updates folded (the next update's seq). */
  seq: number;
  /** The `seq` of the fold this one started from, or that was last kept. */
  kept: number;
  private holding: JournalHolding;
  private frame: TurnFrame;
  private state: SessionState;
  private titled: boolean;
  private readonly requests: OpenRequest[];
  private readonly children: Set<string>;
  /** The kept fold's `last`, until an update of the session's own is folded here ({@link lastOwn}). */
  private readonly lastKept: Learned['last'];
  private lastOwn: AgentSessionUpdate | undefined;

  constructor(from?: Learned) {
    this.seq = this.kept = from?.seq ?? 0;
    this.holding = from?.holding ?? 'empty';
    this.frame = from?.frame ?? NO_FRAME;
    this.state = from?.state ?? EMPTY_SESSION_STATE;
    this.titled = from?.titled ?? false;
    this.requests = [...(from?.requests ?? [])];
    this.children = new Set(from?.children);
    this.lastKept = from?.last;
  }

  /** Folds the next journaled update (its `seq` must be {@link seq}). */
  add(u: AgentSessionUpdate): void {
    this.seq = (u.seq ?? this.seq) + 1;
    this.holding = holdingAfter(this.holding, u);
    if (u.kind === 'subagent_update') {
      const child = announcedChild(u, (id) => this.children.has(id));
      if (child !== undefined) this.children.add(child);
    }
    if (u.subagentSessionId !== undefined) return; // a child's work is not the session's
    this.frame = frameAfter(this.frame, u);
    this.state = stateAfter(this.state, u);
    if (u.kind === 'session_info_update' && (u.raw as { title?: unknown }).title !== undefined)
      this.titled = true;
    this.request(u);
    this.lastOwn = u;
  }

  /** The fold as it stands, to keep or to read (a copy: later updates do not change it). */
  snapshot(): Learned {
    const u = this.lastOwn;
    const last: Learned['last'] = u
      ? {
          kind: u.kind,
          ...(u.messageId !== undefined ? { messageId: u.messageId } : {}),
          raw: (u.raw as { messageId?: unknown }).messageId === undefined ? {} : { messageId: true },
        }
      : this.lastKept;
    return {
      v: FOLD_VERSION,
      seq: this.seq,
      holding: this.holding,
      frame: this.frame,
      requests: [...this.requests],
      children: [...this.children],
      state: this.state,
      titled: this.titled,
      ...(last ? { last } : {}),
    };
  }

  private request(u: AgentSessionUpdate): void {
    if (u.kind === 'permission' && typeof u.permission?.id === 'string')
      this.requests.push({ kind: 'permission', id: u.permission.id });
    else if (u.kind === 'elicitation' && typeof u.elicitation?.id === 'string')
      this.requests.push({ kind: 'elicitation', id: u.elicitation.id });
    else if (u.kind === 'permission_resolution' && typeof u.permission?.id === 'string')
      this.close('permission', u.permission.id);
    else if (u.kind === 'elicitation_resolution' && typeof u.elicitation?.id === 'string')
      this.close('elicitation', u.elicitation.id);
  }

  private close(kind: OpenRequest['kind'], id: string): void {
    const i = this.requests.findLastIndex((r) => r.kind === kind && r.id === id);
    if (i >= 0) this.requests.splice(i, 1);
  }
}
