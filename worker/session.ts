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
import { RequestError } from '@agentclientprotocol/sdk';
import { normalizeElicitation, toRecord, toResolutionRecord, validateAnswers } from '../src/elicitation.ts';
import { SiloError } from '../src/errors.ts';
import type {
  AgentCommand,
  AgentConnectionState,
  AgentContentBlock,
  AgentElicitationQuestion,
  AgentInfo,
  AgentResumeOutcome,
  AgentSessionSnapshot,
  AgentSessionUpdate,
  AgentSessionUsage,
  AgentTurnEnd,
  PermissionOption,
} from '../src/types.ts';
import type { ElicitationAction, WorkerConnectOptions, WorkerEvents } from '../src/worker-api.ts';
import { ConfigState } from './config.ts';
import { Delivery } from './delivery.ts';
import type { Journal, SessionWriter } from './journal.ts';
import { AgentLink, type LinkEnd, type LinkHost } from './link.ts';
import { MessageIdSynthesizer, normalizeToolCall, normalizeUpdate } from './normalize.ts';
import { type Broadcast, channel, type Ownership, tryOwn, waitToOwn } from './ownership.ts';
import { PendingRequests } from './requests.ts';

type Raw = Record<string, unknown>;
const CANCELLED_PERMISSION: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
const CANCELLED_ELICITATION: CreateElicitationResponse = { action: 'cancel' };

/** How long a cancelled turn may take to answer before Silo stops waiting for it. */
export const FORCE_STOP_MS = 5000;
/** Reconnect backoff: first delay and cap. */
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;

/** What Silo knows of one interactive request the agent made, keyed `${link serial}:${request id}`. */
interface RequestRow {
  readonly kind: 'permission' | 'elicitation';
  readonly rowId: string;
  readonly options?: readonly PermissionOption[];
  readonly questions?: readonly AgentElicitationQuestion[];
  readonly elicitationId?: string;
  readonly unsupported?: boolean;
  answerText?: Record<string, string>;
  /** Set once its resolution is journaled (url questions stay listed until `elicitation/complete`). */
  resolved?: boolean;
}

/** A session driven by this worker. Create with {@link SessionCore.start}. */
export class SessionCore implements LinkHost {
  readonly handleId = crypto.randomUUID();
  sessionId = '';
  private outcome: AgentResumeOutcome = 'new';
  private state: AgentConnectionState = 'connecting';
  private error: SiloError | undefined;
  private agentInfo: AgentInfo = { name: 'unknown' };
  private readonly config = new ConfigState();
  private commands: AgentCommand[] = [];
  private usage: AgentSessionUsage | undefined;
  private link: AgentLink | undefined;
  private writer: SessionWriter | undefined;
  private readonly ids = new MessageIdSynthesizer();
  /** Ids the agent gave (messageId, toolCallId) that the journal holds: used to merge a load replay. */
  private readonly knownIds = new Set<string>();
  /** The last agent message or thought the journal holds, with its text so far (see mergeReplay). */
  private lastMessage: { id: string; kind: string; text: string } | undefined;
  private early: Raw[] = [];
  private replay: { buffer: Raw[] } | undefined;
  private turn: { cancelled: boolean; force: AbortController } | undefined;
  private readonly permissions = new PendingRequests<RequestPermissionResponse>();
  private readonly elicitations = new PendingRequests<CreateElicitationResponse>();
  private readonly rows = new Map<string, RequestRow>();
  private readonly delivery: Delivery;
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
        const id = await core.latestId(resume.sessionId);
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
    if (record.title) this.agentInfo = { ...this.agentInfo, title: record.title };
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
      const { agentInfo, configOptions, availableCommands, usage, busy } = e.data.snapshot;
      this.agentInfo = agentInfo;
      this.commands = [...availableCommands];
      this.usage = usage;
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
    return {
      sessionId: this.sessionId,
      resumeOutcome: this.outcome,
      state: this.state,
      agentInfo: this.agentInfo,
      configOptions: this.mirrored?.configOptions ?? this.config.options,
      availableCommands: this.commands,
      ...(this.usage ? { usage: this.usage } : {}),
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
    const resume = this.options.resume;
    if (reconnect) await this.restore(link, this.sessionId);
    else if (resume?.startFresh)
      await this.continueFresh(link, resume.sessionId, resume.transcript ?? 'carry');
    else if (resume) await this.restore(link, await this.latestId(resume.sessionId));
    else await this.newSession(link);
    if (this.outcome !== 'journal-only') this.error = undefined;
    this.setState(this.outcome === 'journal-only' ? 'read-only' : 'connected');
    await this.journal.upsertSession(this.sessionId, {
      agent: this.agentInfo.displayName ?? this.agentInfo.name,
      cwd: this.options.cwd,
      lastOutcome: this.outcome,
    });
    await this.writer?.flushed();
  }

  /** Follows `continuedBy` links to the session that carries a conversation on. */
  private async latestId(sessionId: string): Promise<string> {
    const seen = new Set<string>();
    let id = sessionId;
    for (;;) {
      const record = await this.journal.session(id);
      if (!record?.continuedBy || seen.has(id)) return id;
      seen.add(id);
      id = record.continuedBy;
    }
  }

  private async newSession(link: AgentLink): Promise<string> {
    const response = await link
      .request<Raw>('session/new', {
        cwd: this.options.cwd,
        mcpServers: this.options.mcpServers ?? [],
      })
      .catch((error: unknown) => {
        const e = SiloError.from(error);
        if (e.code !== 'auth-required') throw e;
        const methods = (link.initialize.authMethods ?? []).filter((m) => {
          const type = (m as { type?: string }).type;
          return type === undefined || type === 'agent';
        });
        throw new SiloError('auth-required', 'The agent needs you to sign in before it can start a session', {
          authMethods: methods,
        });
      });
    const sessionId = String(response.sessionId ?? '');
    if (!sessionId)
      throw new SiloError('invalid-params', 'The agent answered session/new without a sessionId');
    this.outcome = 'new';
    this.config.applyResponse(response);
    await this.attach(sessionId);
    return sessionId;
  }

  /** "Continue in a new session" (carry) or Clear (discard): a fresh session/new, never probing. */
  private async continueFresh(
    link: AgentLink,
    oldId: string,
    transcript: 'carry' | 'discard',
  ): Promise<void> {
    const from = await this.latestId(oldId);
    const early = this.early;
    this.early = [];
    this.sessionId = '';
    const response = await link.request<Raw>('session/new', {
      cwd: this.options.cwd,
      mcpServers: this.options.mcpServers ?? [],
    });
    const sessionId = String(response.sessionId ?? '');
    this.early = [...early, ...this.early];
    await this.journal.upsertSession(sessionId, { cwd: this.options.cwd });
    if (transcript === 'carry') await this.journal.carry(from, sessionId);
    else {
      await this.journal.clear(from);
      await this.journal.upsertSession(from, { continuedBy: sessionId });
    }
    if (from !== oldId) await this.journal.upsertSession(oldId, { continuedBy: sessionId });
    this.outcome = 'new';
    this.config.applyResponse(response);
    await this.attach(sessionId);
  }

  /** Plain restore: resume, else load, else journal-only. Never deletes a journal. */
  private async restore(link: AgentLink, sessionId: string): Promise<void> {
    await this.attach(sessionId);
    const caps = link.initialize.agentCapabilities ?? {};
    const params = { sessionId, cwd: this.options.cwd, mcpServers: this.options.mcpServers ?? [] };
    if (caps.sessionCapabilities?.resume) {
      try {
        this.config.applyResponse(await link.request('session/resume', params));
        this.outcome = 'resumed';
        return;
      } catch (error) {
        if (link.closedSignal.aborted) throw error;
      }
    }
    if (caps.loadSession) {
      this.replay = this.writer!.nextSeq === 0 ? undefined : { buffer: [] };
      try {
        this.config.applyResponse(await link.request('session/load', params));
        this.mergeReplay();
        this.outcome = 'loaded';
        return;
      } catch (error) {
        if (link.closedSignal.aborted) throw error;
      } finally {
        this.replay = undefined;
      }
    }
    this.outcome = 'journal-only';
    this.error = new SiloError(
      'journal-only',
      'The agent cannot continue this conversation; continue it in a new session',
    );
  }

  /** Binds the session id: its journal writer, the ids it holds, and any updates that came early. */
  private async attach(sessionId: string): Promise<void> {
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
    this.knownIds.clear();
    this.lastMessage = undefined;
    if (record.title) this.agentInfo = { ...this.agentInfo, title: record.title };
    if (record.nextSeq > 0) {
      for (const u of await this.journal.read(sessionId)) this.learn(u);
    }
    const early = this.early.filter((p) => p.sessionId === sessionId);
    this.early = [];
    for (const p of early) this.onUpdate(p);
  }

  /**
   * Merges a `session/load` replay into a journal that already holds the session. Only ids the agent
   * gave are trusted: the replayed updates after the last one whose id the journal holds are appended,
   * and only when they include an agent message or tool call the journal does not have (a turn missed
   * while disconnected). Anything else in a replay is history the journal already has — possibly under
   * other ids, since message ids need not be stable across loads — so nothing is appended.
   */
  private mergeReplay(): void {
    const buffer = this.replay?.buffer ?? [];
    this.replay = undefined;
    this.completeLastMessage(buffer);
    let lastKnown = -1;
    buffer.forEach((u, i) => {
      const id = agentIdOf(u);
      if (id && this.knownIds.has(id)) lastKnown = i;
    });
    if (lastKnown < 0) return;
    const tail = buffer.slice(lastKnown + 1);
    const missed = tail.some((u) => {
      const id = agentIdOf(u);
      return id !== undefined && !this.knownIds.has(id) && AGENT_SIDE.has(String(u.sessionUpdate));
    });
    if (missed) for (const u of tail) this.ingest(u);
  }

  /**
   * The journal's last message may hold only the start of what the agent said (the connection dropped
   * mid-message). When the replay has that message id with a longer text that begins with the
   * journaled one, the rest is journaled as one more chunk of the same message (its `raw` is that
   * remainder, since no single frame of the agent's carried it).
   */
  private completeLastMessage(buffer: readonly Raw[]): void {
    const last = this.lastMessage;
    if (!last) return;
    const replayed = buffer
      .filter((u) => u.messageId === last.id && u.sessionUpdate === last.kind)
      .map((u) => textOf(u))
      .join('');
    if (replayed.length <= last.text.length || !replayed.startsWith(last.text)) return;
    this.ingest({
      sessionUpdate: last.kind,
      messageId: last.id,
      content: { type: 'text', text: replayed.slice(last.text.length) },
    });
  }

  private linkEnded(link: AgentLink, end: LinkEnd): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.permissions.abandonAll();
    this.elicitations.abandonAll();
    for (const [key, row] of this.rows) {
      if (!key.startsWith(`${link.serial}:`)) continue;
      this.rows.delete(key);
      if (!row.resolved) this.endRequest(row.kind, row.rowId, 'unanswerable');
    }
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
    if (this.replay) {
      this.replay.buffer.push(update as Raw);
      this.applyState(update as Raw);
      return;
    }
    this.ingest(update as Raw);
  }

  private ingest(raw: Raw): void {
    const writer = this.writer;
    if (!writer) return;
    const update = normalizeUpdate(raw, writer.nextSeq, this.ids);
    this.applyState(raw);
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
    if (u.messageId && !u.messageId.startsWith('silo-')) {
      this.knownIds.add(u.messageId);
      if (u.kind === 'agent_message_chunk' || u.kind === 'agent_thought_chunk') {
        const last = this.lastMessage;
        if (last?.id === u.messageId && last.kind === u.kind) last.text += u.text ?? '';
        else this.lastMessage = { id: u.messageId, kind: u.kind, text: u.text ?? '' };
      }
    }
    if (u.toolCall?.toolCallId) this.knownIds.add(u.toolCall.toolCallId);
    if (u.kind === 'session_info_update') this.applyState(u.raw as Raw);
  }

  private applyState(raw: Raw): void {
    switch (raw.sessionUpdate) {
      case 'session_info_update':
        if (raw.title === null) {
          const { title: _, ...rest } = this.agentInfo;
          this.agentInfo = rest;
        } else if (typeof raw.title === 'string') {
          this.agentInfo = { ...this.agentInfo, title: raw.title };
          void this.journal.upsertSession(this.sessionId, { title: raw.title }).catch(() => {});
        }
        break;
      case 'available_commands_update':
        if (Array.isArray(raw.availableCommands)) {
          this.commands = raw.availableCommands.flatMap((c: Raw) =>
            typeof c?.name === 'string'
              ? [
                  {
                    name: c.name,
                    description: typeof c.description === 'string' ? c.description : '',
                    ...(typeof (c.input as Raw | null)?.hint === 'string'
                      ? { hint: (c.input as Raw).hint as string }
                      : {}),
                  },
                ]
              : [],
          );
        }
        break;
      case 'usage_update':
        if (typeof raw.used === 'number' && typeof raw.size === 'number') {
          const cost = raw.cost as Raw | null | undefined;
          this.usage =
            cost && typeof cost.amount === 'number' && typeof cost.currency === 'string'
              ? { used: raw.used, size: raw.size, cost: { amount: cost.amount, currency: cost.currency } }
              : { used: raw.used, size: raw.size };
        }
        break;
      default:
        this.config.applyUpdate(raw);
    }
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
    }
    const turn = { cancelled: false, force: new AbortController() };
    this.turn = turn;
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
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
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
    if (option.source === 'mode') {
      await link.request('session/set_mode', { sessionId: this.sessionId, modeId: String(value) });
      this.config.setMode(String(value));
    } else {
      const params =
        typeof value === 'boolean'
          ? { sessionId: this.sessionId, configId, type: 'boolean', value }
          : { sessionId: this.sessionId, configId, value };
      this.config.applyResponse(await link.request('session/set_config_option', params));
    }
    await this.delivery.state();
  }

  // ── Interactive requests ──────────────────────────────────────────────────────────────────────

  /** From the tap: journal the rows of interactive requests in wire order. */
  onInbound(message: AnyMessage): void {
    const m = message as { id?: string | number; method?: string; params?: Raw };
    const link = this.link;
    if (!link || m.id === undefined || m.id === null || !m.params) {
      if (m.method === 'elicitation/complete') this.completeUrl(m.params?.elicitationId);
      return;
    }
    if (m.params.sessionId !== undefined && m.params.sessionId !== this.sessionId) return;
    const key = `${link.serial}:${m.id}`;
    if (m.method === 'session/request_permission') {
      const rowId = `p${link.serial}-${m.id}`;
      const options = Array.isArray(m.params.options) ? (m.params.options as PermissionOption[]) : [];
      const toolCall = normalizeToolCall((m.params.toolCall ?? {}) as Raw, false);
      this.rows.set(key, { kind: 'permission', rowId, options });
      this.record({
        kind: 'permission',
        permission: { id: rowId, ...(toolCall ? { toolCall } : {}), options },
        raw: m.params,
      });
    } else if (m.method === 'elicitation/create') {
      const n = normalizeElicitation(m.params, { form: true, url: true });
      if (n.invalid) return;
      const rowId = `e${link.serial}-${m.id}`;
      this.rows.set(key, {
        kind: 'elicitation',
        rowId,
        questions: n.questions,
        unsupported: n.unsupported,
        ...(n.elicitationId ? { elicitationId: n.elicitationId } : {}),
      });
      this.record({ kind: 'elicitation', elicitation: toRecord(n, rowId), raw: m.params });
    }
  }

  /** From the tap: the client answered one of the agent's requests; journal how it ended. */
  onOutboundResponse(id: string | number, message: AnyMessage): void {
    const link = this.link;
    const row = link && this.rows.get(`${link.serial}:${id}`);
    if (!row || row.resolved) return;
    row.resolved = true;
    if (row.elicitationId === undefined) this.rows.delete(`${link.serial}:${id}`);
    const result = (message as { result?: Raw }).result;
    if (row.kind === 'permission') {
      const outcome = result?.outcome as Raw | undefined;
      const selected = outcome?.outcome === 'selected' && typeof outcome.optionId === 'string';
      const permission = selected
        ? { id: row.rowId, resolution: 'selected' as const, optionId: outcome.optionId as string }
        : { id: row.rowId, resolution: result ? ('cancelled' as const) : ('unanswerable' as const) };
      this.record({ kind: 'permission_resolution', permission, raw: (message as unknown as Raw) ?? {} });
      this.delivery.requestEnded(row.rowId, permission.resolution);
    } else {
      const action = result?.action;
      const resolution = action === 'accept' ? 'answered' : action === 'decline' ? 'declined' : 'cancelled';
      this.record({
        kind: 'elicitation_resolution',
        elicitation: toResolutionRecord(row.rowId, resolution, row.answerText),
        raw: (message as unknown as Raw) ?? {},
      });
      this.delivery.requestEnded(row.rowId, resolution);
    }
  }

  /** `elicitation/complete`: the external flow of a url question finished. Unknown ids are ignored. */
  private completeUrl(elicitationId: unknown): void {
    if (typeof elicitationId !== 'string') return;
    for (const [key, row] of this.rows) {
      if (row.elicitationId === elicitationId) {
        this.rows.delete(key);
        this.record({
          kind: 'elicitation_complete',
          elicitation: { id: row.rowId, completed: true },
          raw: { elicitationId },
        });
        return;
      }
    }
  }

  async permission(
    requestId: string | number,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const row = this.link && this.rows.get(`${this.link.serial}:${requestId}`);
    if (!row || !this.options.handlesPermissions || this.turn?.cancelled || this.writer?.error)
      return CANCELLED_PERMISSION;
    const pending = this.permissions.open(row.rowId, CANCELLED_PERMISSION, signal);
    const toolCall = normalizeToolCall(params.toolCall as unknown as Raw, false) ?? { toolCallId: '' };
    this.delivery.permission({ id: row.rowId, sessionId: this.sessionId, toolCall, options: params.options });
    return pending;
  }

  async elicitation(
    requestId: string | number,
    params: CreateElicitationRequest,
    signal: AbortSignal,
  ): Promise<CreateElicitationResponse> {
    const n = normalizeElicitation(params, { form: true, url: true });
    if (n.invalid) throw RequestError.invalidParams({ reason: n.invalid });
    const row = this.link && this.rows.get(`${this.link.serial}:${requestId}`);
    if (!row || !this.options.handlesElicitations || this.turn?.cancelled || this.writer?.error)
      return CANCELLED_ELICITATION;
    const pending = this.elicitations.open(row.rowId, CANCELLED_ELICITATION, signal);
    this.delivery.elicitation({
      id: row.rowId,
      ...(n.sessionId ? { sessionId: n.sessionId } : {}),
      mode: n.mode,
      message: n.message,
      questions: n.questions,
      acknowledgeOnly: n.acknowledgeOnly,
      ...(n.toolCallId ? { toolCallId: n.toolCallId } : {}),
      ...(n.url ? { url: n.url } : {}),
      unsupported: n.unsupported,
      raw: n.raw,
    });
    return pending;
  }

  /** The page chose an option (or `null` to cancel). Rejects with `invalid-params` for an unknown option. */
  async answerPermission(rowId: string, optionId: string | null): Promise<void> {
    const row = this.findRow(rowId);
    if (optionId !== null && !row?.options?.some((o) => o.optionId === optionId)) {
      throw new SiloError('invalid-params', `Unknown permission option ${optionId}`);
    }
    const answer: RequestPermissionResponse =
      optionId === null ? CANCELLED_PERMISSION : { outcome: { outcome: 'selected', optionId } };
    if (!this.permissions.answer(rowId, answer))
      throw SiloError.closed('This permission request can no longer be answered');
  }

  /** The page answered a question. Accept validates first: `invalid-params` with `data.errors`. */
  async answerElicitation(rowId: string, action: ElicitationAction): Promise<void> {
    const row = this.findRow(rowId);
    if (!row || !this.elicitations.has(rowId))
      throw SiloError.closed('This question can no longer be answered');
    if (action.action !== 'accept') {
      this.elicitations.answer(rowId, { action: action.action });
      return;
    }
    if (row.unsupported)
      throw new SiloError('invalid-params', 'This question can only be declined or cancelled');
    const result = validateAnswers(row.questions ?? [], action.answers);
    if (!result.ok)
      throw new SiloError('invalid-params', 'Some answers are not valid', { errors: result.errors });
    row.answerText = result.text;
    // A url accept is consent to open the URL: it carries no content.
    this.elicitations.answer(
      rowId,
      row.elicitationId ? { action: 'accept' } : { action: 'accept', content: result.content },
    );
  }

  private findRow(rowId: string): RequestRow | undefined {
    for (const row of this.rows.values()) if (row.rowId === rowId) return row;
    return undefined;
  }

  private endRequest(kind: 'permission' | 'elicitation', rowId: string, resolution: 'unanswerable'): void {
    if (kind === 'permission')
      this.record({ kind: 'permission_resolution', permission: { id: rowId, resolution }, raw: {} });
    else this.record({ kind: 'elicitation_resolution', elicitation: { id: rowId, resolution }, raw: {} });
    this.delivery.requestEnded(rowId, resolution);
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

/** Kinds that carry the agent's own work (not echoes of the user, not state). */
const AGENT_SIDE = new Set(['agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update']);

/** The text of a raw chunk's content block ('' for other blocks). */
function textOf(u: Raw): string {
  const content = u.content as { type?: unknown; text?: unknown } | undefined;
  return content?.type === 'text' && typeof content.text === 'string' ? content.text : '';
}

/** The agent-given id of a raw update (messageId of a chunk, toolCallId of a tool call). */
function agentIdOf(u: Raw): string | undefined {
  if (typeof u.messageId === 'string') return u.messageId;
  if (typeof u.toolCallId === 'string') return u.toolCallId;
  return undefined;
}
