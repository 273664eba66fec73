/**
 * The way in of one session's updates (worker/session.ts wires it): tap → normalizer → journal, in
 * wire order, each on its writer as it arrives. Updates that come before the session id is bound wait
 * for it; a subagent's are journaled marked as its (worker/subagents.ts); a load's replay is held for
 * the merge while its window is open (worker/replay-window.ts); the agent's echo of a running prompt
 * is dropped (the prompt is journaled already); the first update of each live run is stamped
 * (worker/run-stamps.ts), and a turn the agent starts by itself is framed (worker/turns.ts). Updates
 * Silo records itself (a prompt, a turn's end, a request's row) go in through
 * {@link SessionIngest.record}. Each update is learned as it goes in by the session state, the turn
 * frames and the subagents, and folded by the writer (worker/journal-fold.ts); binding a session
 * takes all of it, and the requests left open, from that fold.
 */
import type { Raw } from '../src/json.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import type { Journal, SessionWriter } from './journal.ts';
import type { Learned } from './journal-fold.ts';
import { MessageIdSynthesizer, normalizeReplayed, normalizeShaped } from './normalize.ts';
import { ReplayWindow } from './replay-window.ts';
import { RunStamps } from './run-stamps.ts';
import type { SessionStatus } from './status.ts';
import { SubagentSessions } from './subagents.ts';
import { NO_FRAME, TurnFrames } from './turns.ts';

/** What the way in needs of its session. */
export interface IngestHost {
  readonly journal: Journal;
  /** The session's state: its bound id, and the config each update of the session is applied to. */
  readonly status: SessionStatus;
  /** True while a prompt's turn runs (worker/prompt-turns.ts). */
  readonly turnRunning: boolean;
  /** True when `update` is the agent's echo of the running turn's prompt, which is then dropped. */
  swallowEcho(update: Raw): boolean;
}

/** The updates of one session on their way into its journal. */
export class SessionIngest {
  private current: SessionWriter | undefined;
  private readonly ids = new MessageIdSynthesizer();
  private readonly children = new SubagentSessions();
  private early: Raw[] = [];
  /** A `session/load`'s replay window (worker/open.ts opens and ends it). */
  readonly replay = new ReplayWindow(this.ids);
  /** The turns Silo frames itself (worker/turns.ts), on this way in. */
  readonly frames = new TurnFrames((update) => this.record(update));
  private received = 0;
  /** Arrival times on the first update of each live run (worker/run-stamps.ts). */
  private readonly stamps = new RunStamps();

  constructor(private readonly host: IngestHost) {}

  /** The session's journal writer: undefined until {@link bind}, and after {@link unbind}. */
  get writer(): SessionWriter | undefined {
    return this.current;
  }

  /** This session's updates received so far (a load's replay is whole once this stops moving). */
  get updatesSeen(): number {
    return this.received;
  }

  /**
   * The session id is bound: updates go to `writer` from now on, and the ids, subagents and turn
   * frames are forgotten, to be taken from the journal ({@link readBack}).
   */
  bind(writer: SessionWriter): void {
    this.current = writer;
    this.ids.reset();
    this.children.restore([]);
    this.frames.restore(NO_FRAME);
  }

  /** The session is handed to another tab: nothing more is journaled here. */
  unbind(): void {
    this.current = undefined;
  }

  /**
   * Learns what the session's journal says, through its writer's fold (worker/journal-fold.ts: read
   * from the fold kept beside the journal, so only the updates after it are read): the subagents,
   * the turn frames and where message ids go on. Resolves to the fold, for the session state and the
   * request ledger; rejects when the journal cannot be read.
   */
  async readBack(sessionId: string): Promise<Learned> {
    const fold = await this.current!.fold((end) => this.host.journal.fold(sessionId, end));
    const learned = fold.snapshot();
    this.children.restore(learned.children);
    this.frames.restore(learned.frame);
    if (learned.last) this.ids.continueFrom(learned.last);
    return learned;
  }

  /** After the read-back: the updates that came for `sessionId` before it was bound go in; any other session's are dropped. */
  resume(sessionId: string): void {
    const early = this.early.filter((p) => p.sessionId === sessionId);
    this.early = [];
    for (const p of early) this.onUpdate(p);
  }

  /** True for the session id of a subagent this session's agent announced (its requests are the session's). */
  isSubagent(sessionId: string): boolean {
    return this.children.has(sessionId);
  }

  /** A prompt's turn ended: the next update the agent sends starts a run of its own. */
  turnEnded(): void {
    this.stamps.reset();
  }

  /** From the tap, synchronously, in wire order. */
  onUpdate(params: Raw): void {
    const sessionId = params.sessionId;
    const update = params.update;
    if (typeof update !== 'object' || update === null) return;
    const bound = this.host.status.sessionId;
    if (!bound) {
      this.early.push(params);
      return;
    }
    if (sessionId !== bound) {
      // A subagent's work is journaled here (not while a load's replay is held for the merge: the
      // journal it merges into holds the work it saw); any other session's is quarantined.
      if (this.children.has(sessionId) && !this.replay.merging) this.ingestChild(update as Raw, sessionId);
      return;
    }
    this.received++;
    if (this.replay.hold(update as Raw)) {
      this.applyState(normalizeReplayed(update));
      return;
    }
    if (this.host.turnRunning && this.host.swallowEcho(update as Raw)) return; // the prompt is journaled already
    this.ingest(update as Raw);
  }

  /** Journals one update of the session's own from the agent (the tap's, or a merged replay's). */
  ingest(raw: Raw): void {
    const writer = this.current;
    if (!writer) return;
    const live = !this.host.turnRunning && !this.ids.replaying;
    this.frames.beforeUpdate(raw, live);
    const shaped = normalizeShaped(raw, writer.nextSeq, this.ids, this.host.turnRunning);
    const update = this.stamps.stamp(shaped, this.ids.replaying);
    this.learn(update);
    writer.append([update]);
    this.frames.afterUpdate(raw, live);
  }

  /**
   * Journals an update Silo records itself (prompt, turn end, rows); the session state sees it too.
   * Returns its seq, or undefined when it cannot be journaled (no writer, or a stopped one).
   */
  record(update: Omit<AgentSessionUpdate, 'seq'>): number | undefined {
    const writer = this.current;
    if (!writer) return undefined;
    const seq = writer.nextSeq;
    this.ids.next(update.kind, update.messageId, seq);
    this.frames.learn(update);
    writer.append([{ ...update, seq }]);
    this.applyState({ ...update, seq });
    return writer.error ? undefined : seq;
  }

  /** Journals an update of a subagent (a child session this session's agent announced). */
  private ingestChild(raw: Raw, sessionId: string): void {
    const writer = this.current;
    if (!writer) return;
    const update = this.children.normalize(raw, sessionId, writer.nextSeq);
    this.children.learn(update);
    writer.append([update]);
  }

  private learn(u: AgentSessionUpdate): void {
    this.children.learn(u);
    if (u.subagentSessionId !== undefined) return; // a child's state is not the session's
    this.frames.learn(u);
    this.applyState(u);
  }

  /** Session state from a normalized update (journaled or live); a new title is remembered. */
  private applyState(u: AgentSessionUpdate): void {
    const { journal, status } = this.host;
    const title = status.config.apply(u);
    if (title !== undefined && status.sessionId)
      void journal.upsertSession(status.sessionId, { title }).catch(() => {});
  }
}
