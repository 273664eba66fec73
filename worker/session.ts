/**
 * One session as the worker runs it: its connection (and reconnection), its journal writer, its
 * state (agent info, config options, commands, usage), its turns, and the interactive requests the
 * agent makes. Updates flow tap → normalizer → journal → page, in wire order, and reach the page only
 * once committed.
 */
import type {
  AnyMessage,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { SiloError } from '../src/errors.ts';
import type {
  AgentConnectionState,
  AgentContentBlock,
  AgentInfo,
  AgentRestoreNote,
  AgentResumeOutcome,
  AgentSessionSnapshot,
  AgentSessionUpdate,
  AgentTurnEnd,
} from '../src/types.ts';
import type { ElicitationAction, WorkerConnectOptions, WorkerEvents } from '../src/worker-api.ts';
import { signIn } from './auth.ts';
import { rememberChoice, setOption } from './choices.ts';
import { Delivery } from './delivery.ts';
import { PromptEcho } from './echo.ts';
import type { Journal, SessionWriter } from './journal.ts';
import { RequestLedger } from './ledger.ts';
import { AgentLink, type LinkEnd, type LinkHost } from './link.ts';
import { MessageIdSynthesizer, normalizeUpdate } from './normalize.ts';
import { continueFresh, latestId, newSession, type OpenHost, restoreSession } from './open.ts';
import { type Broadcast, channel, type Ownership, tryOwn, waitToOwn } from './ownership.ts';
import { LiveSessionState } from './state.ts';

type Raw = Record<string, unknown>;

/** How long a cancelled turn may take to answer before Silo stops waiting for it. */
export const FORCE_STOP_MS = 5000;
/** Reconnect backoff: first delay and cap. */
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;

/** A session driven by this worker. Create with {@link SessionCore.start}. */
export class SessionCore implements LinkHost {
  readonly handleId = crypto.randomUUID();
  sessionId = '';
  private outcome: AgentResumeOutcome = 'new';
  private restoreNote: AgentRestoreNote | undefined;
  private state: AgentConnectionState = 'connecting';
  private error: SiloError | undefined;
  private agentInfo: AgentInfo = { name: 'unknown' };
  /** Title, usage, commands, config options and mode, through the shared session-state reducer. */
  private readonly config = new LiveSessionState();
  private link: AgentLink | undefined;
  private writer: SessionWriter | undefined;
  private readonly ids = new MessageIdSynthesizer();
  private early: Raw[] = [];
  private replay: { buffer: Raw[] } | undefined;
  /** This session's updates received so far (a load's replay is whole once this stops moving). */
  private updatesSeen = 0;
  private turn: { cancelled: boolean; force: AbortController } | undefined;
  private readonly delivery: Delivery;
  private readonly requests: RequestLedger;
  private readonly echo = new PromptEcho();
  /** What the open functions (worker/open.ts) may use of this session. */
  private readonly openHost: OpenHost;
  private closing = false;
  private reconnecting: Promise<void> | undefined;
  /** The Web Lock that makes this tab the session's one writer; unset while following another tab. */
  private ownership: Ownership | undefined;
  private broadcast: BroadcastChannel | undefined;
  private following: AbortController | undefined;

  private constructor(
    private readonly journal: Journal,
    private readonly options: WorkerConnectOptions,
    events: WorkerEvents,
  ) {
    this.delivery = new Delivery(events, () => this.snapshot());
    const core = this;
    this.requests = new RequestLedger({
      record: (update) => this.record(update),
      delivery: this.delivery,
      get sessionId() {
        return core.sessionId;
      },
      mayAsk: (kind) =>
        (kind === 'permission' ? options.handlesPermissions : options.handlesElicitations) &&
        !this.turn?.cancelled &&
        !this.writer?.error,
    });
    this.openHost = {
      journal,
      options,
      config: this.config,
      attach: (sessionId) => this.attach(sessionId),
      detach: () => {
        this.sessionId = '';
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
      get updatesSeen() {
        return core.updatesSeen;
      },
    };
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
        core.ownership = await tryOwn(id);
        if (!core.ownership) {
          await core.follow(id);
          return core;
        }
      }
      await core.establish(false);
      core.ownership ??= await tryOwn(core.sessionId);
    } catch (error) {
      await core.close();
      throw SiloError.from(error);
    }
    return core;
  }

  /**
   * Another tab owns the session: mirror what it broadcasts, read-only, and take over (restoring the
   * session by the usual rules) once its lock is released.
   */
  private async follow(sessionId: string): Promise<void> {
    const record = await this.journal.upsertSession(sessionId, {});
    this.sessionId = sessionId;
    this.outcome = record.lastOutcome ?? 'journal-only';
    this.config.setTitle(record.title);
    this.error = new SiloError('not-owner', 'Another tab is driving this session; this one follows it');
    this.state = 'following';
    let nextSeq = record.nextSeq;
    const mirror = (batch: AgentSessionUpdate[]) => {
      const fresh = batch.filter((u) => (u.seq ?? -1) >= nextSeq);
      if (fresh.length) nextSeq = fresh.at(-1)!.seq! + 1;
      this.delivery.push(fresh);
    };
    this.broadcast = channel(sessionId);
    this.broadcast.onmessage = (e: MessageEvent<Broadcast>) => {
      const { agentInfo, configOptions, busy } = e.data.snapshot;
      const { title: _, ...info } = agentInfo;
      this.agentInfo = info;
      this.config.mirror(e.data.snapshot);
      this.mirrored = { configOptions: [...configOptions], busy };
      mirror(e.data.batch);
    };
    this.following = new AbortController();
    void waitToOwn(sessionId, this.following.signal)
      .then(async (ownership) => {
        this.ownership = ownership;
        this.following = undefined;
        this.broadcast!.onmessage = null;
        mirror((await this.journal.read(sessionId)).filter((u) => (u.seq ?? -1) >= nextSeq));
        this.mirrored = undefined;
        try {
          await this.establish(true);
        } catch (error) {
          this.error = SiloError.from(error);
          this.startReconnect();
        }
      })
      .catch(() => {});
  }

  /** What a follower mirrors of the owner's state that it does not compute itself. */
  private mirrored: { configOptions: AgentSessionSnapshot['configOptions']; busy: boolean } | undefined;

  snapshot(): AgentSessionSnapshot {
    const { title, usage, commands } = this.config.current;
    return {
      sessionId: this.sessionId,
      resumeOutcome: this.outcome,
      ...(this.restoreNote ? { restoreNote: this.restoreNote } : {}),
      state: this.state,
      agentInfo: title === undefined ? this.agentInfo : { ...this.agentInfo, title },
      configOptions: this.mirrored?.configOptions ?? this.config.options,
      availableCommands: commands,
      ...(usage ? { usage } : {}),
      busy: this.mirrored?.busy ?? this.turn !== undefined,
      ...(this.error ? { error: { code: this.error.code, message: this.error.message } } : {}),
    };
  }

  // ── Connection and restore ─────────────────────────────────────────────────────────────────────

  private async establish(reconnect: boolean): Promise<void> {
    const link = await AgentLink.open(this.options.bridge, this);
    if (this.closing) {
      link.close();
      throw SiloError.closed();
    }
    this.link = link;
    void link.ended.then((end) => this.linkEnded(link, end));
    const info = link.initialize.agentInfo;
    this.agentInfo = {
      ...this.agentInfo,
      name: info?.name ?? 'agent',
      ...(info?.version ? { version: info.version } : {}),
      ...(info?.title ? { displayName: info.title } : {}),
    };
    if (this.options.authenticate) await signIn(link, this.options.authenticate);
    const resume = this.options.resume;
    const host = this.openHost;
    const opened = reconnect
      ? await restoreSession(link, host, this.sessionId)
      : resume?.startFresh
        ? await continueFresh(link, host, resume.sessionId, resume.transcript ?? 'carry')
        : resume
          ? await restoreSession(link, host, await latestId(this.journal, resume.sessionId), resume.via)
          : await newSession(link, host);
    this.outcome = opened.outcome;
    this.restoreNote = opened.note;
    this.error = opened.error;
    this.setState(this.outcome === 'journal-only' ? 'read-only' : 'connected');
    await this.journal.upsertSession(this.sessionId, {
      agent: this.agentInfo.displayName ?? this.agentInfo.name,
      cwd: this.options.cwd,
      lastOutcome: this.outcome,
    });
    await this.writer?.flushed();
  }

  /**
   * Binds the session id: its journal writer, the state it holds, and any updates that came early.
   * Resolves to the session's journaled updates.
   */
  private async attach(sessionId: string): Promise<AgentSessionUpdate[]> {
    const record = await this.journal.upsertSession(sessionId, {});
    this.sessionId = sessionId;
    this.writer = this.journal.writer(sessionId, record.nextSeq);
    this.broadcast?.close();
    this.broadcast = channel(sessionId);
    this.writer.onCommit = (batch) => {
      this.delivery.push(batch);
      if (this.ownership)
        this.broadcast?.postMessage({ batch, snapshot: this.snapshot() } satisfies Broadcast);
    };
    this.writer.onFailure = (error) => {
      this.error = error;
      this.setState('failed');
      // Nothing the agent does from here on could be journaled or shown: stop the turn rather than
      // let it act unseen (its prompt then rejects with this error).
      void this.cancel();
    };
    this.ids.reset();
    this.config.setTitle(record.title);
    this.requests.resetJournal();
    // On a reconnect the writer is the one already in use: read the journal once it holds everything.
    await this.writer.flushed().catch(() => {});
    const journaled = this.writer.nextSeq > 0 ? await this.journal.read(sessionId) : [];
    for (const u of journaled) this.learn(u);
    this.requests.endOrphans();
    const last = journaled.at(-1);
    if (last) this.ids.continueFrom(last);
    const early = this.early.filter((p) => p.sessionId === sessionId);
    this.early = [];
    for (const p of early) this.onUpdate(p);
    return journaled;
  }

  private linkEnded(link: AgentLink, end: LinkEnd): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.requests.linkEnded(link.serial);
    if (this.closing) {
      this.setState('closed');
      return;
    }
    if (this.outcome === 'journal-only') return;
    if (this.writer?.error) {
      // A journal that refused a write cannot take a reconnected session: close and restore instead.
      this.setState('failed');
      return;
    }
    this.error = end.error;
    this.startReconnect();
  }

  private startReconnect(): void {
    this.setState('reconnecting');
    this.reconnecting ??= this.reconnectLoop().finally(() => {
      this.reconnecting = undefined;
    });
  }

  private async reconnectLoop(): Promise<void> {
    let delay = BACKOFF_FIRST_MS;
    while (!this.closing) {
      await new Promise((r) => setTimeout(r, delay));
      if (this.closing) return;
      try {
        await this.establish(true);
        return;
      } catch (error) {
        this.error = SiloError.from(error);
        this.setState('reconnecting');
        delay = Math.min(delay * 2, BACKOFF_MAX_MS);
      }
    }
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
    if (sessionId !== this.sessionId) return; // quarantined: not this session's
    this.updatesSeen++;
    if (this.replay) {
      this.replay.buffer.push(update as Raw);
      this.applyState(normalizeUpdate(update, -1, new MessageIdSynthesizer()));
      return;
    }
    if (this.turn && this.echo.swallow(update as Raw)) return; // the prompt is journaled already
    this.ingest(update as Raw);
  }

  private ingest(raw: Raw): void {
    const writer = this.writer;
    if (!writer) return;
    const update = normalizeUpdate(raw, writer.nextSeq, this.ids);
    this.learn(update);
    writer.append([update]);
  }

  /** Journals an update Silo records itself (prompt, turn end, permission and question rows). */
  private record(update: Omit<AgentSessionUpdate, 'seq'>): void {
    const writer = this.writer;
    if (!writer) return;
    const seq = writer.nextSeq;
    this.ids.next(update.kind, update.messageId, seq);
    writer.append([{ ...update, seq }]);
  }

  private learn(u: AgentSessionUpdate): void {
    this.requests.learn(u);
    this.applyState(u);
  }

  /** Session state from a normalized update (journaled or live); a new title is remembered. */
  private applyState(u: AgentSessionUpdate): void {
    const title = this.config.apply(u);
    if (title !== undefined && this.sessionId)
      void this.journal.upsertSession(this.sessionId, { title }).catch(() => {});
  }

  // ── Turns ─────────────────────────────────────────────────────────────────────────────────────

  /** Sends a prompt; resolves to the stop reason once the whole turn is journaled and delivered. */
  async prompt(blocks: readonly AgentContentBlock[]): Promise<string> {
    if (this.state === 'following')
      throw this.error ?? new SiloError('not-owner', 'Another tab drives this session');
    if (this.outcome === 'journal-only')
      throw this.error ?? new SiloError('journal-only', 'This session is read-only');
    if (this.writer?.error) throw this.writer.error;
    if (this.turn)
      throw new SiloError('invalid-params', 'A turn is already running; cancel it or wait for it to end');
    const link = this.link;
    if (!link || this.state !== 'connected') throw this.error ?? SiloError.closed();
    const timestamp = new Date().toISOString();
    const messageId = `silo-u${this.writer!.nextSeq}`;
    for (const content of blocks) {
      const text = content.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
      this.record({
        kind: 'user_message_chunk',
        content,
        text,
        messageId,
        timestamp,
        raw: { sessionUpdate: 'user_message_chunk', content, messageId },
      });
      this.applyState({ kind: 'user_message_chunk', text, raw: {} }); // the first prompt may name it
    }
    const turn = { cancelled: false, force: new AbortController() };
    this.turn = turn;
    this.echo.expect(blocks);
    void this.delivery.state();
    let end: AgentTurnEnd;
    let failure: SiloError | undefined;
    let response: Raw = {};
    try {
      response = await link.request<Raw>(
        'session/prompt',
        { sessionId: this.sessionId, prompt: blocks },
        // Force stop must not wait for an agent that ignores the cancel (it may never answer).
        { cancellationSignal: turn.force.signal, stopWaitingOnCancel: true },
      );
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
    this.record({ kind: 'turn_end', turnEnd: end, raw: { ...response, stopReason: end.stopReason } });
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
    const link = this.link;
    if (!turn || !link) return;
    turn.cancelled = true;
    this.requests.cancelAll();
    // The SDK writes those answers as its request handlers resolve (microtasks); one task later they
    // are queued on the wire, so session/cancel goes after them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sent = link.notify('session/cancel', { sessionId: this.sessionId });
    setTimeout(() => turn.force.abort(), FORCE_STOP_MS);
    await sent.catch(() => {});
  }

  /** Sets a config option or a legacy mode; resolves once the agent accepted it. */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const link = this.link;
    if (!link) throw this.error ?? SiloError.closed();
    const option = this.config.find(configId);
    if (!option) throw new SiloError('invalid-params', `Unknown config option ${configId}`);
    await setOption(link, this.config, this.sessionId, option, value);
    await rememberChoice(this.journal, this.sessionId, configId, value).catch(() => {});
    await this.delivery.state();
  }

  // ── Interactive requests ──────────────────────────────────────────────────────────────────────

  /** From the tap: journal the rows of interactive requests in wire order. */
  onInbound(message: AnyMessage): void {
    const m = message as { id?: string | number; method?: string; params?: Raw };
    const link = this.link;
    if (!link || m.id === undefined || m.id === null || !m.params) {
      if (m.method === 'elicitation/complete') this.requests.completeUrl(m.params?.elicitationId);
      return;
    }
    if (m.params.sessionId !== undefined && m.params.sessionId !== this.sessionId) return;
    this.requests.onRequest(link.serial, m.id, m.method, m.params);
  }

  /** From the tap: the client answered one of the agent's requests; journal how it ended. */
  onOutboundResponse(id: string | number, message: AnyMessage): void {
    if (this.link) this.requests.onResponse(this.link.serial, id, message);
  }

  async permission(
    requestId: string | number,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    if (!this.link) return { outcome: { outcome: 'cancelled' } };
    return this.requests.permission(this.link.serial, requestId, params, signal);
  }

  async elicitation(
    requestId: string | number,
    params: CreateElicitationRequest,
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    if (!this.link) return { action: 'cancel' };
    return this.requests.elicitation(this.link.serial, requestId, params, signal);
  }

  /** The page chose an option (or `null` to cancel). Rejects with `invalid-params` for an unknown option. */
  async answerPermission(rowId: string, optionId: string | null): Promise<void> {
    this.requests.answerPermission(rowId, optionId);
  }

  /** The page answered a question. Accept validates first: `invalid-params` with `data.errors`. */
  async answerElicitation(rowId: string, action: ElicitationAction): Promise<void> {
    this.requests.answerElicitation(rowId, action);
  }

  // ── Lifecycle ─────────────────────────────────────────────────────────────────────────────────

  private setState(state: AgentConnectionState): void {
    this.state = state;
    void this.delivery.state();
  }

  /** Closes the connection; the journal stays. Resolves once every journaled update is committed. */
  async close(): Promise<void> {
    this.closing = true;
    const link = this.link;
    link?.close();
    if (link) await link.ended;
    else this.setState('closed');
    await this.writer?.flushed().catch(() => {});
    await this.delivery.flush();
    if (this.sessionId) this.journal.dropWriter(this.sessionId);
    this.following?.abort();
    this.broadcast?.close();
    this.ownership?.release();
    this.ownership = undefined;
    if (this.state !== 'closed') this.setState('closed');
    await this.delivery.flush();
  }
}
