/**
 * One session as the worker runs it: its state (agent info, config options, commands, usage), its
 * journal writer, and the interactive requests the agent makes; its prompt turns
 * (worker/prompt-turns.ts), the connection (worker/connection.ts), the other tabs (worker/tabs.ts) and
 * the request ledger (worker/ledger.ts) are wired in here. Updates flow tap → normalizer → journal →
 * page, in wire order, and reach the page only once committed.
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import type { AgentContentBlock, AgentSessionSnapshot, AgentSessionUpdate } from '../src/types.ts';
import type {
  ElicitationAction,
  WireSnapshot,
  WorkerConnectOptions,
  WorkerEvents,
} from '../src/worker-api.ts';
import { rememberChoice, setOption } from './choices.ts';
import { Connection } from './connection.ts';
import { Delivery } from './delivery.ts';
import type { Journal, SessionWriter } from './journal.ts';
import { RequestLedger } from './ledger.ts';
import { MessageIdSynthesizer, normalizeReplayed, normalizeShaped } from './normalize.ts';
import { latestId, type OpenHost } from './open.ts';
import { PromptTurns } from './prompt-turns.ts';
import { ReplayWindow } from './replay-window.ts';
import { requestTap } from './request-tap.ts';
import { RunStamps } from './run-stamps.ts';
import { SessionStatus } from './status.ts';
import { SubagentSessions } from './subagents.ts';
import { SessionTabs } from './tabs.ts';
import { TurnFrames } from './turns.ts';

/** A session driven by this worker. Create with {@link SessionCore.start}. */
export class SessionCore {
  readonly handleId = crypto.randomUUID();
  private readonly status: SessionStatus;
  private readonly connection: Connection;
  private writer: SessionWriter | undefined;
  private readonly ids = new MessageIdSynthesizer();
  private readonly children = new SubagentSessions();
  private early: Raw[] = [];
  private readonly replay = new ReplayWindow(this.ids);
  /** This session's updates received so far (a load's replay is whole once this stops moving). */
  private updatesSeen = 0;
  private readonly turns: PromptTurns;
  /** Arrival times on the first update of each live run (worker/run-stamps.ts). */
  private readonly stamps = new RunStamps();
  /** Snapshots taken for the page so far ({@link wireSnapshot}). */
  private revisions = 0;
  private readonly delivery: Delivery;
  private readonly requests: RequestLedger;
  private readonly frames = new TurnFrames((update) => this.record(update));
  private readonly tabs: SessionTabs;

  private constructor(
    private readonly journal: Journal,
    options: WorkerConnectOptions,
    events: WorkerEvents,
  ) {
    this.delivery = new Delivery(events, () => this.wireSnapshot());
    const status = new SessionStatus(() => void this.delivery.state());
    this.status = status;
    const core = this;
    this.turns = new PromptTurns({
      get sessionId() {
        return status.sessionId;
      },
      delivery: this.delivery,
      record: (update) => {
        // A turn's end: the next update the agent sends starts a run of its own (worker/run-stamps.ts).
        if (update.kind === 'turn_end') this.stamps.reset();
        this.record(update);
      },
      flushed: async () => this.writer?.flushed(),
      cancelRequests: () => this.requests.cancelAll(),
      nextSeq: () => this.writer!.nextSeq,
      beforePrompt: () => this.frames.beforePrompt(),
      status,
    });
    this.tabs = new SessionTabs({
      journal,
      delivery: this.delivery,
      status,
      snapshot: () => this.snapshot(),
      requests: () => this.requests,
      cancel: () => void this.cancel(),
      release: () => this.release(),
      takeOver: () => this.connection.restore(),
    });
    this.requests = new RequestLedger({
      record: (update) => this.record(update),
      committed: (seq) => this.writer?.committed(seq) ?? Promise.reject(SiloError.closed()),
      delivery: this.tabs.requestDelivery(),
      get sessionId() {
        return status.sessionId;
      },
      mayAsk: (kind) =>
        (kind === 'permission' ? options.handlesPermissions : options.handlesElicitations) &&
        !this.turns.cancelled &&
        !this.writer?.error,
    });
    const open: OpenHost = {
      journal,
      options,
      config: status.config,
      attach: (sessionId) => this.attach(sessionId),
      detach: () => {
        status.sessionId = '';
      },
      startReplay: (buffer, whole) => this.replay.start(buffer, whole),
      endReplay: () => this.replay.end(),
      ingest: (raw) => this.ingest(raw),
      endDeadTurn: () => {
        if (!this.turns.running && this.frames.open)
          this.frames.end('interrupted', 'The page closed before the turn ended');
      },
      get updatesSeen() {
        return core.updatesSeen;
      },
    };
    this.connection = new Connection({
      journal,
      options,
      tap: {
        onUpdate: (params) => this.onUpdate(params),
        ...requestTap(
          this.requests,
          () => this.connection.link,
          () => status.sessionId,
          (id) => this.children.has(id),
        ),
      },
      open,
      status,
      get journalError() {
        return core.writer?.error;
      },
      flushed: async () => this.writer?.flushed(),
      linkEnded: (serial) => {
        this.requests.linkEnded(serial);
        if (!this.turns.running && this.frames.open === 'agent')
          this.frames.end('interrupted', 'The agent went away');
      },
    });
  }

  /** The bound session id ('' until the session is opened). */
  get sessionId(): string {
    return this.status.sessionId;
  }

  /** Connects and starts or restores the session. Rejects with a coded SiloError; nothing stays open then. */
  static async start(
    journal: Journal,
    options: WorkerConnectOptions,
    events: WorkerEvents,
  ): Promise<SessionCore> {
    const core = new SessionCore(journal, options, events);
    try {
      const resume = options.resume;
      if (resume && !resume.startFresh) {
        const id = await latestId(journal, resume.sessionId);
        if (!(await core.tabs.own(id))) {
          await core.tabs.follow(id);
          return core;
        }
      }
      await core.connection.establish(false);
      await core.tabs.own(core.sessionId);
    } catch (error) {
      await core.close();
      throw SiloError.from(error);
    }
    return core;
  }

  /** The user renamed the session (a blank title takes theirs away): the page is told. */
  retitle(title: string | undefined): void {
    this.status.config.userTitle = title?.trim() || undefined;
    void this.delivery.state();
  }

  snapshot(): AgentSessionSnapshot {
    return this.status.snapshot(this.turns.running, this.turns.queued);
  }

  /** The snapshot for the page, numbered in the order taken ({@link WireSnapshot}). */
  wireSnapshot(): WireSnapshot {
    return { snapshot: this.snapshot(), revision: ++this.revisions };
  }

  // ── Opening: binding the session id ────────────────────────────────────────────────────────────

  /**
   * Binds the session id: its journal writer, the state it holds, and any updates that came early.
   * Resolves to the session's journaled updates.
   */
  private async attach(sessionId: string): Promise<AgentSessionUpdate[]> {
    const record = await this.journal.upsertSession(sessionId, {});
    this.status.sessionId = sessionId;
    this.writer = this.journal.writer(sessionId, record.nextSeq);
    this.tabs.bind(sessionId);
    this.writer.onCommit = (batch) => {
      this.delivery.push(batch);
      this.tabs.committed(batch);
    };
    this.writer.onFailure = (error) => {
      this.status.error = error;
      this.status.setState('failed');
      // Nothing the agent does from here on could be journaled or shown: stop the turn rather than
      // let it act unseen (its prompt then rejects with this error).
      void this.cancel();
    };
    this.ids.reset();
    this.children.reset();
    this.status.config.remember(record);
    this.requests.resetJournal();
    this.frames.reset();
    // On a reconnect the writer is the one already in use: read the journal once it holds everything.
    await this.writer.flushed().catch(() => {});
    const journaled = this.writer.nextSeq > 0 ? await this.journal.read(sessionId) : [];
    for (const u of journaled) this.learn(u);
    this.requests.endOrphans();
    const last = journaled.findLast((u) => u.subagentSessionId === undefined);
    if (last) this.ids.continueFrom(last);
    const early = this.early.filter((p) => p.sessionId === sessionId);
    this.early = [];
    for (const p of early) this.onUpdate(p);
    return journaled;
  }

  // ── Updates: tap → normalizer → journal ───────────────────────────────────────────────────────

  /** From the tap, synchronously, in wire order. */
  onUpdate(params: Raw): void {
    const sessionId = params.sessionId;
    const update = params.update;
    if (typeof update !== 'object' || update === null) return;
    if (!this.sessionId) {
      this.early.push(params);
      return;
    }
    if (sessionId !== this.sessionId) {
      // A subagent's work is journaled here (not while a load's replay is held for the merge: the
      // journal it merges into holds the work it saw); any other session's is quarantined.
      if (this.children.has(sessionId) && !this.replay.merging) this.ingestChild(update as Raw, sessionId);
      return;
    }
    this.updatesSeen++;
    if (this.replay.hold(update as Raw)) {
      this.applyState(normalizeReplayed(update));
      return;
    }
    if (this.turns.running && this.turns.echo.swallow(update as Raw)) return; // the prompt is journaled already
    this.ingest(update as Raw);
  }

  private ingest(raw: Raw): void {
    const writer = this.writer;
    if (!writer) return;
    const live = !this.turns.running && !this.ids.replaying;
    this.frames.beforeUpdate(raw, live);
    const shaped = normalizeShaped(raw, writer.nextSeq, this.ids, this.turns.running);
    const update = this.stamps.stamp(shaped, this.ids.replaying);
    this.learn(update);
    writer.append([update]);
    this.frames.afterUpdate(raw, live);
  }

  /** Journals an update of a subagent (a child session this session's agent announced). */
  private ingestChild(raw: Raw, sessionId: string): void {
    const writer = this.writer;
    if (!writer) return;
    const update = this.children.normalize(raw, sessionId, writer.nextSeq);
    this.children.learn(update);
    writer.append([update]);
  }

  /**
   * Journals an update Silo records itself (prompt, turn end, rows); the session state sees it too.
   * Returns its seq, or undefined when it cannot be journaled (no writer, or a stopped one).
   */
  private record(update: Omit<AgentSessionUpdate, 'seq'>): number | undefined {
    const writer = this.writer;
    if (!writer) return undefined;
    const seq = writer.nextSeq;
    this.ids.next(update.kind, update.messageId, seq);
    this.frames.learn(update);
    writer.append([{ ...update, seq }]);
    this.applyState({ ...update, seq });
    return writer.error ? undefined : seq;
  }

  private learn(u: AgentSessionUpdate): void {
    this.children.learn(u);
    if (u.subagentSessionId !== undefined) return; // a child's state is not the session's
    this.requests.learn(u);
    this.frames.learn(u);
    this.applyState(u);
  }

  /** Session state from a normalized update (journaled or live); a new title is remembered. */
  private applyState(u: AgentSessionUpdate): void {
    const title = this.status.config.apply(u);
    if (title !== undefined && this.sessionId)
      void this.journal.upsertSession(this.sessionId, { title }).catch(() => {});
  }

  // ── Turns ─────────────────────────────────────────────────────────────────────────────────────

  /** Sends a prompt (worker/prompt-turns.ts); resolves to the stop reason once the turn is journaled. */
  async prompt(blocks: readonly AgentContentBlock[]): Promise<string> {
    return this.turns.run(this.status.sendable(this.connection.link, this.writer?.error), blocks);
  }

  /**
   * Cancels the running turn (worker/prompt-turns.ts: its open requests answered cancelled, then
   * `session/cancel`); in a following tab, asks the driving tab to.
   */
  async cancel(): Promise<void> {
    if (this.tabs.forwardCancel()) return;
    await this.turns.cancel(this.connection.link);
  }

  /** Sends a message into the running turn (worker/prompt-turns.ts); rejects as {@link prompt} does. */
  async steer(blocks: readonly AgentContentBlock[]): Promise<'steered' | 'ended'> {
    return this.turns.steer(this.status.sendable(this.connection.link, this.writer?.error), blocks);
  }

  /** Sets a config option or a legacy mode; resolves once the agent accepted it. */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const link = this.connection.link;
    const { config, error } = this.status;
    if (!link) throw error ?? SiloError.closed();
    const option = config.find(configId);
    if (!option) throw new SiloError('invalid-params', `Unknown config option ${configId}`);
    await setOption(link, config, this.sessionId, option, value);
    await rememberChoice(this.journal, this.sessionId, configId, value).catch(() => {});
    await this.delivery.state();
  }

  // ── Interactive requests ──────────────────────────────────────────────────────────────────────

  /** The page chose an option (or `null` to cancel). Rejects with `invalid-params` for an unknown option. */
  async answerPermission(rowId: string, optionId: string | null): Promise<void> {
    const forwarded = this.tabs.forward({ kind: 'permission', id: rowId, optionId });
    if (forwarded) return forwarded;
    this.requests.answerPermission(rowId, optionId);
  }

  /** The page answered a question. Accept validates first: `invalid-params` with `data.errors`. */
  async answerElicitation(rowId: string, action: ElicitationAction): Promise<void> {
    const forwarded = this.tabs.forward({ kind: 'elicitation', id: rowId, action });
    if (forwarded) return forwarded;
    this.requests.answerElicitation(rowId, action);
  }

  // ── Tabs ──────────────────────────────────────────────────────────────────────────────────────

  /** Makes this tab the session's driver (see `AgentSessionHandle.takeOver`). */
  takeOver(): Promise<void> {
    return this.tabs.takeOver();
  }

  /**
   * Another tab takes the session over: stops the running turn (as Stop does), ends the connection
   * and commits everything. Resolves to the journal position after the last update.
   */
  private async release(): Promise<number> {
    if (this.turns.running) await this.cancel();
    await this.turns.settled();
    await this.connection.release();
    await this.writer?.flushed().catch(() => {});
    await this.delivery.flush();
    const next = this.writer?.nextSeq ?? 0;
    this.journal.dropWriter(this.sessionId);
    this.writer = undefined;
    return next;
  }

  // ── Lifecycle ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Closes the session: the agent is told (`session/close`, when it offers it and this tab drives
   * the session), then the connection closes; the journal stays. Resolves once every journaled update
   * is committed.
   */
  async close(): Promise<void> {
    if (this.status.state === 'connected') await this.connection.closeSession(this.sessionId);
    if (!(await this.connection.close())) this.status.setState('closed');
    await this.writer?.flushed().catch(() => {});
    await this.delivery.flush();
    if (this.sessionId) this.journal.dropWriter(this.sessionId);
    this.tabs.close();
    if (this.status.state !== 'closed') this.status.setState('closed');
    await this.delivery.flush();
  }
}
