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
 * The version of {@link Learned}'s meaning: a kept fold of another version is not used (the journal
 * is folded again from its start). Raise it whenever a step above changes what it derives.
 */
export const FOLD_VERSION = 1;

/** Updates folded since the fold was last kept, at most, before the writer keeps it again. */
export const KEEP_EVERY = 1000;

/** A fold of a session's journal, as it is kept: everything read from updates `0 … seq - 1`. */
export interface Learned {
  readonly v: number;
  /** The number of updates folded (the next update's seq). */
  readonly seq: number;
  readonly holding: JournalHolding;
  /** The turn the journal holds open. */
  readonly frame: TurnFrame;
  /** Requests journaled and not resolved, in journal order, keyed {@link requestKey}. */
  readonly requests: readonly string[];
  /** The subagents' session ids the journal announced. */
  readonly children: readonly string[];
  /** The session state of the session's own updates, from the empty state. */
  readonly state: SessionState;
  /** True once an update named the session or cleared its name (`session_info_update`'s `title`). */
  readonly titled: boolean;
  /** The session's own last update, as far as its message run goes (`MessageIdSynthesizer.continueFrom`). */
  readonly last?: { readonly kind: string; readonly messageId?: string; readonly raw: { messageId?: true } };
}

/** A journaled request's key in {@link Learned.requests}: `p` or `e`, a newline, the request's row id. */
export const requestKey = (kind: 'permission' | 'elicitation', id: string): string =>
  `${kind === 'permission' ? 'p' : 'e'}\n${id}`;

/** Folds a session's journal from its start, or from a kept {@link Learned}. */
export class JournalFold {
  private learned: {
    -readonly [K in keyof Learned]: Learned[K];
  };
  private requests: string[];
  private children: Set<string>;
  /** The session's own last update folded here (read into {@link Learned.last} by {@link snapshot}). */
  private lastOwn: AgentSessionUpdate | undefined;
  /** The `seq` of the fold this one started from, or that was last kept. */
  kept: number;

  constructor(from?: Learned) {
    this.learned = from
      ? { ...from }
      : {
          v: FOLD_VERSION,
          seq: 0,
          holding: 'empty',
          frame: NO_FRAME,
          requests: [],
          children: [],
          state: EMPTY_SESSION_STATE,
          titled: false,
        };
    this.requests = [...this.learned.requests];
    this.children = new Set(this.learned.children);
    this.kept = this.learned.seq;
  }

  /** The number of updates folded (the next update's seq). */
  get seq(): number {
    return this.learned.seq;
  }

  /** Folds the next journaled update (its `seq` must be {@link seq}). */
  add(u: AgentSessionUpdate): void {
    const l = this.learned;
    l.seq = (u.seq ?? l.seq) + 1;
    l.holding = holdingAfter(l.holding, u);
    if (u.kind === 'subagent_update') {
      const child = announcedChild(u, (id) => this.children.has(id));
      if (child !== undefined) this.children.add(child);
    }
    if (u.subagentSessionId !== undefined) return; // a child's work is not the session's
    l.frame = frameAfter(l.frame, u);
    l.state = stateAfter(l.state, u);
    if (u.kind === 'session_info_update' && (u.raw as { title?: unknown }).title !== undefined)
      l.titled = true;
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
      : this.learned.last;
    return {
      ...this.learned,
      requests: [...this.requests],
      children: [...this.children],
      ...(last ? { last } : {}),
    };
  }

  private request(u: AgentSessionUpdate): void {
    if (u.kind === 'permission' && typeof u.permission?.id === 'string')
      this.requests.push(requestKey('permission', u.permission.id));
    else if (u.kind === 'elicitation' && typeof u.elicitation?.id === 'string')
      this.requests.push(requestKey('elicitation', u.elicitation.id));
    else if (u.kind === 'permission_resolution' && typeof u.permission?.id === 'string')
      this.close(requestKey('permission', u.permission.id));
    else if (u.kind === 'elicitation_resolution' && typeof u.elicitation?.id === 'string')
      this.close(requestKey('elicitation', u.elicitation.id));
  }

  private close(key: string): void {
    const i = this.requests.lastIndexOf(key);
    if (i >= 0) this.requests.splice(i, 1);
  }
}
