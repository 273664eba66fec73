/**
 * One session as the worker runs it: its state (agent info, config options, commands, usage), its
 * journal writer, its turns, and the interactive requests the agent makes; the connection
 * (worker/connection.ts), the other tabs (worker/follow.ts) and the request ledger (worker/ledger.ts)
 * are wired in here. Updates flow tap → normalizer → journal → page, in wire order, and reach the
 * page only once committed.
 */
import { SiloError } from '../src/errors.ts';
import type { Raw } from '../src/json.ts';
import type {
  AgentContentBlock,
  AgentSessionSnapshot,
  AgentSessionUpdate,
  AgentTurnEnd,
} from '../src/types.ts';
import type {
  ElicitationAction,
  WireSnapshot,
  WorkerConnectOptions,
  WorkerEvents,
} from '../src/worker-api.ts';
import { rememberChoice, setOption } from './choices.ts';
import { Connection } from './connection.ts';
import { Delivery } from './delivery.ts';
import { PromptEcho } from './echo.ts';
import { SessionTabs } from './follow.ts';
import type { Journal, SessionWriter } from './journal.ts';
import { RequestLedger } from './ledger.ts';
import { PromptQueue, type RunningTurn, steer } from './mid-turn.ts';
import { latestId, type OpenHost } from './open.ts';
import { MessageIdSynthesizer, normalizeReplayed, normalizeShaped } from './replay-shape.ts';
import { requestTap } from './request-tap.ts';
import { SessionStatus } from './status.ts';
import { SubagentSessions } from './subagents.ts';
import { TurnUsageMeter } from './turn-usage.ts';
import { TurnFrames } from './turns.ts';

/** How long a cancelled turn may take to answer before Silo stops waiting for it. */
export const FORCE_STOP_MS = 5000;

/** A session driven by this worker. Create with {@link SessionCore.start}. */
export class SessionCore {
  readonly handleId = crypto.randomUUID();
  private readonly status: SessionStatus;
  private readonly connection: Connection;
  private writer: SessionWriter | undefined;
  private readonly ids = new MessageIdSynthesizer();
  private readonly children = new SubagentSessions();
  private early: Raw[] = [];
  private replay: { buffer: Raw[] } | undefined; // a load's replay, held for the merge
  /** This session's updates received so far (a load's replay is whole once this stops moving). */
  private updatesSeen = 0;
  private turn: RunningTurn | undefined;
  /** Prompts the agent holds behind the running turn (it queues prompts: worker/mid-turn.ts). */
  private readonly queued = new PromptQueue();
  /** Snapshots taken for the page so far ({@link wireSnapshot}). */
  private revisions = 0;
  private readonly delivery: Delivery;
  private readonly requests: RequestLedger;
  private readonly echo = new PromptEcho();
  private readonly frames = new TurnFrames((update) => this.record(update));
  private readonly tabs: SessionTabs;
  private readonly usage = new TurnUsageMeter();

  private constructor(
    private readonly journal: Journal,
    options: WorkerConnectOptions,
    events: WorkerEvents,
  ) {
    this.delivery = new Delivery(events, () => this.wireSnapshot());
    const status = new SessionStatus(() => void this.delivery.state());
    this.status = status;
    const core = this;
    this.requests = new RequestLedger({
      record: (update) => this.record(update),
      delivery: this.delivery,
      get sessionId() {
        return status.sessionId;
      },
      mayAsk: (kind) =>
        (kind === 'permission' ? options.handlesPermissions : options.handlesElicitations) &&
        !this.turn?.cancelled &&
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
      startReplay: (buffer) => {
        this.replay = buffer ? { buffer } : undefined;
        this.ids.replaying = true;
      },
      endReplay: () => {
        this.replay = undefined;
        this.ids.replaying = false;
      },
      ingest: (raw) => this.ingest(raw),
      endDeadTurn: () => {
        if (!this.turn && this.frames.open)
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
        if (!this.turn && this.frames.open === 'agent') this.frames.end('interrupted', 'The agent went away');
      },
    });
    this.tabs = new SessionTabs({
      journal,
      delivery: this.delivery,
      status,
      snapshot: () => this.snapshot(),
      takeOver: () => this.connection.restore(),
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

  snapshot(): AgentSessionSnapshot {
    return this.status.snapshot(this.turn !== undefined, this.queued.length);
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
    this.status.config.setTitle(record.title);
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
      if (this.children.has(sessionId) && !this.replay) this.ingestChild(update as Raw, sessionId);
      return;
    }
    this.updatesSeen++;
    if (this.replay) {
      this.replay.buffer.push(update as Raw);
      this.applyState(normalizeReplayed(update));
      return;
    }
    if (this.turn && this.echo.swallow(update as Raw)) return; // the prompt is journaled already
    this.ingest(update as Raw);
  }

  private ingest(raw: Raw): void {
    const writer = this.writer;
    if (!writer) return;
    const live = !this.turn && !this.ids.replaying;
    this.frames.beforeUpdate(raw, live);
    const update = normalizeShaped(raw, writer.nextSeq, this.ids, this.turn !== undefined);
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
   * Journals an update Silo records itself (prompt, turn end, permission and question rows); the
   * session state sees it as the transcript model will (the first prompt names the session, a turn's
   * end adds its usage).
   */
  private record(update: Omit<AgentSessionUpdate, 'seq'>): void {
    const writer = this.writer;
    if (!writer) return;
    const seq = writer.nextSeq;
    this.ids.next(update.kind, update.messageId, seq);
    this.frames.learn(update);
    writer.append([{ ...update, seq }]);
    this.applyState({ ...update, seq });
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

  /**
   * Journals the user's message, one update per block, under one id: `silo-u<seq>` for a prompt,
   * `silo-s<seq>` (and `steered`) for a message sent into the running turn.
   */
  private recordMessage(blocks: readonly AgentContentBlock[], prefix: 'silo-u' | 'silo-s'): void {
    const timestamp = new Date().toISOString();
    const messageId = `${prefix}${this.writer!.nextSeq}`;
    for (const content of blocks) {
      const text = content.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
      this.record({
        kind: 'user_message_chunk',
        content,
        text,
        messageId,
        timestamp,
        ...(prefix === 'silo-s' ? { steered: true } : {}),
        raw: { sessionUpdate: 'user_message_chunk', content, messageId },
      });
    }
  }

  /** The link a message can go out on now; throws why not (another tab's, read-only, closed…). */
  private sendable() {
    const { status } = this;
    if (status.state === 'following')
      throw status.error ?? new SiloError('not-owner', 'Another tab drives this session');
    if (status.outcome === 'journal-only')
      throw status.error ?? new SiloError('journal-only', 'This session is read-only');
    if (this.writer?.error) throw this.writer.error;
    const link = this.connection.link;
    if (!link || status.state !== 'connected') throw status.error ?? SiloError.closed();
    return link;
  }

  /**
   * Sends a prompt; resolves to the stop reason once the whole turn is journaled and delivered. While
   * a turn runs, an agent that queues prompts gets it at once and runs it next (it is journaled when
   * its turn begins); any other agent's refuses it (`invalid-params`).
   */
  async prompt(blocks: readonly AgentContentBlock[]): Promise<string> {
    const link = this.sendable();
    const behind = this.turn !== undefined || this.queued.length > 0;
    if (behind && !this.status.midTurn?.queue)
      throw new SiloError('invalid-params', 'A turn is already running; cancel it or wait for it to end');
    const turn: RunningTurn = { cancelled: false, force: new AbortController() };
    const answer = link.request<Raw>(
      'session/prompt',
      { sessionId: this.sessionId, prompt: blocks },
      // Force stop must not wait for an agent that ignores the cancel (it may never answer).
      { cancellationSignal: turn.force.signal, stopWaitingOnCancel: true },
    );
    answer.catch(() => {}); // read below, once its turn has begun
    if (behind) {
      const started = this.queued.wait(turn);
      void this.delivery.state();
      await started;
    }
    this.frames.beforePrompt();
    this.recordMessage(blocks, 'silo-u');
    this.turn = turn;
    this.echo.expect(blocks);
    void this.delivery.state();
    let end: AgentTurnEnd;
    let failure: SiloError | undefined;
    let response: Raw = {};
    try {
      response = await answer;
      end = { stopReason: typeof response.stopReason === 'string' ? response.stopReason : 'end_turn' };
    } catch (error) {
      const e = SiloError.from(error);
      if (link.closedSignal.aborted) {
        await link.ended; // after the link's own end handling (pending requests recorded first)
        failure = new SiloError('interrupted', `The turn was interrupted: ${e.message}`, e.data);
        end = { stopReason: 'interrupted', error: { code: e.code, message: e.message } };
      } else if (turn.cancelled) {
        end = { stopReason: 'cancelled' };
      } else {
        failure = e;
        end = { stopReason: 'error', error: { code: e.code, message: e.message } };
      }
    }
    this.turn = undefined;
    this.echo.end();
    const endedAt = new Date().toISOString();
    const { current } = this.status.config;
    const usage = this.usage.ended(current, response, endedAt, this.status.agentInfo.name, link.serial);
    if (usage) end = { ...end, usage };
    this.record({
      kind: 'turn_end',
      turnEnd: end,
      timestamp: endedAt,
      raw: { ...response, stopReason: end.stopReason },
    });
    this.queued.next(); // a prompt the agent holds begins now, before its updates are journaled
    await this.writer!.flushed();
    await this.delivery.flush();
    if (failure) throw failure;
    return end.stopReason;
  }

  /**
   * Cancels the running turn: answers every pending permission request and question cancelled, then
   * sends `session/cancel` (in that order on the wire, as the protocol notes ask). If the agent has not
   * answered after {@link FORCE_STOP_MS}, Silo stops waiting and ends the turn as cancelled.
   */
  async cancel(): Promise<void> {
    const turn = this.turn;
    const link = this.connection.link;
    if (!turn || !link) return;
    turn.cancelled = true;
    this.queued.cancelAll();
    this.requests.cancelAll();
    // The SDK writes those answers as its request handlers resolve (microtasks); one task later they
    // are queued on the wire, so session/cancel goes after them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sent = link.notify('session/cancel', { sessionId: this.sessionId });
    setTimeout(() => turn.force.abort(), FORCE_STOP_MS);
    await sent.catch(() => {});
  }

  /**
   * Sends a message into the running turn (`_session/steering`, when the agent offers it). Resolves
   * `steered` once the agent took it (journaled then, beside the turn's updates), `ended` when no turn
   * runs any more (nothing was kept: send it as a prompt). Rejects `invalid-params` when the agent
   * takes no such message, or as {@link prompt} does when nothing can be sent.
   */
  async steer(blocks: readonly AgentContentBlock[]): Promise<'steered' | 'ended'> {
    const link = this.sendable();
    if (!this.status.midTurn?.steer)
      throw new SiloError('invalid-params', 'The agent takes no messages into a running turn');
    if (!this.turn) return 'ended';
    const outcome = await steer(link, this.sessionId, blocks);
    if (outcome === 'ended') return outcome;
    this.recordMessage(blocks, 'silo-s');
    await this.writer!.flushed();
    await this.delivery.flush();
    return outcome;
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
    this.requests.answerPermission(rowId, optionId);
  }

  /** The page answered a question. Accept validates first: `invalid-params` with `data.errors`. */
  async answerElicitation(rowId: string, action: ElicitationAction): Promise<void> {
    this.requests.answerElicitation(rowId, action);
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
