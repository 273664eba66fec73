/**
 * One session as the worker runs it: its state (agent info, config options, commands, usage), its
 * journal writer, and the interactive requests the agent makes; the way its updates go in
 * (worker/ingest.ts), its prompt turns (worker/prompt-turns.ts), the connection
 * (worker/connection.ts), the other tabs (worker/tabs.ts) and the request ledger (worker/ledger.ts)
 * are wired in here. Updates flow tap → normalizer → journal → page, in wire order, and reach the
 * page only once committed.
 */
import { SiloError } from '../src/errors.ts';
import type { AgentContentBlock, AgentSessionSnapshot } from '../src/types.ts';
import type {
  ElicitationAction,
  WireSnapshot,
  WorkerConnectOptions,
  WorkerEvents,
} from '../src/worker-api.ts';
import { rememberChoice, setOption } from './choices.ts';
import { Connection } from './connection.ts';
import { Delivery } from './delivery.ts';
import { SessionIngest } from './ingest.ts';
import type { Journal } from './journal.ts';
import { RequestLedger } from './ledger.ts';
import { type Attached, latestId, type OpenHost } from './open.ts';
import { PromptTurns } from './prompt-turns.ts';
import { requestTap } from './request-tap.ts';
import { SessionStatus } from './status.ts';
import { SessionTabs } from './tabs.ts';

/** A session driven by this worker. Create with {@link SessionCore.start}. */
export class SessionCore {
  readonly handleId = crypto.randomUUID();
  private readonly status: SessionStatus;
  private readonly connection: Connection;
  /** The way the session's updates go in: its writer, the normalizer, the turn frames. */
  private readonly updates: SessionIngest;
  private readonly turns: PromptTurns;
  /** Snapshots taken for the page so far ({@link wireSnapshot}). */
  private revisions = 0;
  private readonly delivery: Delivery;
  private readonly requests: RequestLedger;
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
    const updates = new SessionIngest({
      journal,
      status,
      get turnRunning() {
        return core.turns.running;
      },
      swallowEcho: (update) => this.turns.echo.swallow(update),
    });
    this.updates = updates;
    this.turns = new PromptTurns({
      get sessionId() {
        return status.sessionId;
      },
      delivery: this.delivery,
      record: (update) => {
        // A turn's end: the next update the agent sends starts a run of its own (worker/run-stamps.ts).
        if (update.kind === 'turn_end') updates.turnEnded();
        updates.record(update);
      },
      flushed: async () => updates.writer?.flushed(),
      cancelRequests: () => this.requests.cancelAll(),
      nextSeq: () => updates.writer!.nextSeq,
      beforePrompt: () => updates.frames.beforePrompt(),
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
      record: (update) => updates.record(update),
      committed: (seq) => updates.writer?.committed(seq) ?? Promise.reject(SiloError.closed()),
      delivery: this.tabs.requestDelivery(),
      get sessionId() {
        return status.sessionId;
      },
      mayAsk: (kind) =>
        (kind === 'permission' ? options.handlesPermissions : options.handlesElicitations) &&
        !this.turns.cancelled &&
        !updates.writer?.error,
    });
    const open: OpenHost = {
      journal,
      options,
      config: status.config,
      attach: (sessionId) => this.attach(sessionId),
      detach: () => {
        status.sessionId = '';
      },
      startReplay: (buffer, whole) => updates.replay.start(buffer, whole),
      endReplay: () => updates.replay.end(),
      ingest: (raw) => updates.ingest(raw),
      endDeadTurn: () => {
        if (!this.turns.running && updates.frames.open)
          updates.frames.end('interrupted', 'The page closed before the turn ended');
      },
      get updatesSeen() {
        return updates.updatesSeen;
      },
    };
    this.connection = new Connection({
      journal,
      options,
      tap: {
        onUpdate: (params) => updates.onUpdate(params),
        ...requestTap(
          this.requests,
          () => this.connection.link,
          () => status.sessionId,
          (id) => updates.isSubagent(id),
        ),
      },
      open,
      status,
      get journalError() {
        return updates.writer?.error;
      },
      flushed: async () => updates.writer?.flushed(),
      linkEnded: (serial) => {
        this.requests.linkEnded(serial);
        if (!this.turns.running && updates.frames.open === 'agent')
          updates.frames.end('interrupted', 'The agent went away');
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
   * Binds the session id: its journal writer, what its journal says (worker/journal-fold.ts) and any
   * updates that came early. Resolves to what the journal holds.
   */
  private async attach(sessionId: string): Promise<Attached> {
    const record = await this.journal.upsertSession(sessionId, {});
    this.status.sessionId = sessionId;
    const writer = this.journal.writer(sessionId, record.nextSeq);
    this.updates.bind(writer);
    this.tabs.bind(sessionId);
    writer.onCommit = (batch) => {
      this.delivery.push(batch);
      this.tabs.committed(batch);
    };
    writer.onFailure = (error) => {
      this.status.error = error;
      this.status.setState('failed');
      // Nothing the agent does from here on could be journaled or shown: stop the turn rather than
      // let it act unseen (its prompt then rejects with this error).
      void this.cancel();
    };
    const learned = await this.updates.readBack(sessionId);
    this.status.config.restore(learned.state, learned.titled, record);
    const title = this.status.config.current.title;
    if (title !== undefined && title !== record.title)
      void this.journal.upsertSession(sessionId, { title }).catch(() => {});
    this.requests.journalOpen(learned.requests);
    this.requests.endOrphans();
    this.updates.resume(sessionId);
    const updates = learned.seq;
    return {
      holding: learned.holding,
      updates,
      journaled: async () => {
        await writer.committed(updates - 1).catch(() => {});
        return (await this.journal.read(sessionId)).filter((u) => u.seq! < updates);
      },
    };
  }

  // ── Turns ─────────────────────────────────────────────────────────────────────────────────────

  /** Sends a prompt (worker/prompt-turns.ts); resolves to the stop reason once the turn is journaled. */
  async prompt(blocks: readonly AgentContentBlock[]): Promise<string> {
    return this.turns.run(this.status.sendable(this.connection.link, this.updates.writer?.error), blocks);
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
    return this.turns.steer(this.status.sendable(this.connection.link, this.updates.writer?.error), blocks);
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
    await this.updates.writer?.flushed().catch(() => {});
    await this.delivery.flush();
    const next = this.updates.writer?.nextSeq ?? 0;
    this.journal.dropWriter(this.sessionId);
    this.updates.unbind();
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
    await this.updates.writer?.flushed().catch(() => {});
    await this.delivery.flush();
    if (this.sessionId) this.journal.dropWriter(this.sessionId);
    this.tabs.close();
    if (this.status.state !== 'closed') this.status.setState('closed');
    await this.delivery.flush();
  }
}
