/**
 * What a scenario gets to play one prompt turn: helpers that send `session/update`s (recording them
 * into the session's history for `session/load`), stream text, wait cancellably, and write raw
 * lines to stdout for the robustness scenarios.
 */
import { randomUUID } from 'node:crypto';
import type { AgentContext, ClientCapabilities, ContentBlock, StopReason } from '@agentclientprotocol/sdk';
import { SteerInbox } from './mid-turn.ts';
import type { AgentOptions } from './options.ts';
import type { SessionRecord } from './store.ts';

/** A session update as written on the wire; unknown kinds and fields are allowed on purpose. */
export type RawUpdate = { sessionUpdate: string } & Record<string, unknown>;

/** Writes one raw line (without the newline) to the agent's stdout, in order with SDK messages. */
export type RawWriter = (line: string) => Promise<void>;

/** Numbers of the updates this process sent under `--sent-log` (see {@link Turn.update}). */
let sentCounter = 0;

/** The context of one prompt turn. */
export class Turn {
  private idCounter = 0;
  /** Messages the client steered into this turn (`--steering`). */
  readonly steers = new SteerInbox();
  /** The tool-call id each scenario name got in this turn (see {@link Turn.toolCallId}). */
  private readonly toolIds = new Map<string, string>();
  /** What each tool call of this turn writes, if it is a file edit: its path (or title). */
  private readonly writes = new Map<string, string>();

  constructor(
    readonly sessionId: string,
    readonly args: string[],
    /** Prompt text after the `/scenario` line (or the whole prompt for `default`). */
    readonly text: string,
    /** Aborted by `session/cancel` or `session/close` for this session. */
    readonly signal: AbortSignal,
    readonly client: AgentContext,
    readonly clientCapabilities: ClientCapabilities,
    readonly options: AgentOptions,
    readonly session: SessionRecord,
    private readonly rawWriter: RawWriter,
    /** The prompt's content blocks as the client sent them. */
    readonly prompt: readonly ContentBlock[] = [],
    /** Stores the session's history as it is now (so a process that dies keeps the turn so far). */
    private readonly keep: () => void = () => {},
  ) {}

  /** A fresh messageId (`msg-…`). */
  newMessageId(): string {
    return `msg-${randomUUID().slice(0, 8)}-${++this.idCounter}`;
  }

  /**
   * The tool-call id a scenario's `name` (e.g. `call-read`) stands for in this turn: `name` itself the
   * first time in the session, else `name.2`, `name.3`, … so ids stay unique within the session when a
   * scenario runs twice (ACP requires it). Under `--reuse-tool-call-ids` it is always `name`.
   */
  toolCallId(name: string): string {
    let id = this.toolIds.get(name);
    if (id !== undefined) return id;
    id = name;
    if (!this.options.reuseToolCallIds) {
      const taken = new Set<unknown>(this.session.history.map((u) => u.toolCallId));
      for (const used of this.toolIds.values()) taken.add(used);
      for (let n = 2; taken.has(id); n++) id = `${name}.${n}`;
    }
    this.toolIds.set(name, id);
    return id;
  }

  /**
   * Sends one `session/update`. Chunk `messageId`s are dropped under `--no-message-id`; a `toolCallId`
   * is a scenario name, sent as {@link Turn.toolCallId} gives it. The update is appended to the history
   * replayed by `session/load` unless `history` is false (notices, floods). Under `--sent-log` it is
   * numbered in `_meta["silo/sent"]` (agent/cli.ts logs it once written). With `sessionId` it goes
   * out under that session id (a subagent's child session) instead of the turn's.
   */
  async update(update: RawUpdate, opts: { history?: boolean; sessionId?: string } = {}): Promise<void> {
    update = this.prepared(update);
    if (opts.history !== false) this.push(update);
    await this.client.notify('session/update', {
      sessionId: opts.sessionId ?? this.sessionId,
      update,
    } as never);
    await this.afterWrite(update);
  }

  /**
   * Keeps `update` in the history `session/load` replays without sending it: what Qwen Code does
   * with a tool call that needs permission (announced live only through the permission request).
   */
  remember(update: RawUpdate): void {
    this.push(this.prepared(update));
  }

  /**
   * Appends to the history; a tool call is stored at once, as agents keep their transcript while a
   * turn runs: a page that dies while the call waits for it (a permission, a question) ends the
   * process, and a later `session/load` replays the turn as far as it got.
   */
  private push(update: RawUpdate): void {
    this.session.history.push(update);
    if (update.sessionUpdate === 'tool_call') this.keep();
  }

  private prepared(raw: RawUpdate): RawUpdate {
    let update = raw;
    if (typeof update.toolCallId === 'string')
      update = { ...update, toolCallId: this.toolCallId(update.toolCallId) };
    if (!this.options.messageId && 'messageId' in update) {
      const { messageId: _drop, ...rest } = update;
      update = rest as RawUpdate;
    }
    if (this.options.sentLog) {
      const meta = typeof update._meta === 'object' && update._meta !== null ? update._meta : {};
      update = { ...update, _meta: { ...meta, 'silo/sent': `${process.pid}-${++sentCounter}` } };
    }
    const id = update.toolCallId as string;
    if (update.sessionUpdate === 'tool_call' && update.kind === 'edit') {
      const at = (update.locations as { path?: string }[] | undefined)?.[0]?.path;
      this.writes.set(id, at ?? String(update.title ?? id));
    }
    return update;
  }

  /** As Copilot CLI (`--replay-shape copilot`): after a file write, an `Info: <path>` chunk its replay lacks. */
  private async afterWrite(update: RawUpdate): Promise<void> {
    const path = this.writes.get(update.toolCallId as string);
    if (this.options.replayShape !== 'copilot' || update.sessionUpdate !== 'tool_call_update') return;
    if (update.status !== 'completed' || path === undefined) return;
    const info = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Info: ${path}\n` } };
    await this.client.notify('session/update', { sessionId: this.sessionId, update: info } as never);
  }

  /**
   * Streams `text` as chunks of about `chunkSize` characters (split on spaces), all with one
   * messageId (a new one unless given; `null` = none), `delayMs` apart (cancellable).
   */
  async say(
    text: string,
    opts: {
      kind?: 'agent_message_chunk' | 'agent_thought_chunk';
      chunkSize?: number;
      messageId?: string | null;
      delayMs?: number;
    } = {},
  ): Promise<string | null> {
    const messageId = opts.messageId === undefined ? this.newMessageId() : opts.messageId;
    for (const piece of splitText(text, opts.chunkSize ?? 24)) {
      if (this.signal.aborted) break;
      const update: RawUpdate = {
        sessionUpdate: opts.kind ?? 'agent_message_chunk',
        content: { type: 'text', text: piece },
      };
      if (messageId !== null) update.messageId = messageId;
      await this.update(update);
      if (opts.delayMs) await this.sleep(opts.delayMs);
    }
    return messageId;
  }

  /** Waits `ms`, or less if the turn is cancelled. Never rejects. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Resolves when the turn is cancelled. */
  cancelled(): Promise<void> {
    return new Promise((resolve) => {
      if (this.signal.aborted) resolve();
      else this.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Writes a raw line to stdout (after every message sent so far). */
  raw(line: string): Promise<void> {
    return this.rawWriter(line);
  }

  /** The stop reason for a scenario that finished normally: `cancelled` if the turn was cancelled. */
  end(reason: StopReason | string = 'end_turn'): StopReason {
    return (this.signal.aborted ? 'cancelled' : reason) as StopReason;
  }
}

/** Splits text into pieces of about `size` characters, keeping spaces, never losing a character. */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut <= 0) cut = size;
    pieces.push(rest.slice(0, cut + (rest[cut] === ' ' ? 1 : 0)));
    rest = rest.slice(pieces[pieces.length - 1]!.length);
  }
  if (rest) pieces.push(rest);
  return pieces;
}
