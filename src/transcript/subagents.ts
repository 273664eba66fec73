/**
 * Subagents in the transcript model: a subagent's work is folded into a transcript of its own, drawn
 * inside the card of the call that launched it ({@link SubagentView}). Two shapes reach it:
 *
 * - ACP subagents (claude-agent-acp when the client advertises `clientCapabilities.subagents`): a
 *   `subagent_update` on the parent announces a child session and patches its title, description and
 *   work state; the parent's `session_message` to the child is its task, the child's back is its
 *   answer; the child's own updates arrive under its session id and are journaled in the parent's
 *   journal with {@link AgentSessionUpdate.subagentSessionId}. Claude does not show the Task call
 *   itself then, so the child gets a card of its own (`subagent:<child session id>`), where it was announced.
 * - What a Task/Agent call's subagent sends in the session itself ({@link AgentSessionUpdate.parentToolCallId}:
 *   claude-agent-acp's text, thoughts and tool calls of its subagents, stamped with the call's id,
 *   all of it with `_meta["subagent-transcript"]`): it goes into that call's card.
 *
 * One router, on the top model, routes for every level (a child may launch children); the models it
 * nests are plain transcript models that never route.
 * @packageDocumentation
 */

import type { ReadonlyRaw as Raw } from '../json.ts';
import { isObject, str } from '../json.ts';
import type { AgentSessionUpdate } from '../types.ts';
import { flatText, JoinCounts } from './flat-text.ts';
import { kindOf } from './raw.ts';
import type { SubagentView, TranscriptRow } from './rows.ts';

/** What the router needs of each model it routes into (the top one and the nested ones). */
export interface SubagentHost {
  readonly rows: readonly TranscriptRow[];
  /** The row with this key, if any. */
  get(key: string): TranscriptRow | undefined;
  apply(update: AgentSessionUpdate): number;
  /** The index of the newest card of a tool-call id, if any. */
  cardIndex(toolCallId: string): number | undefined;
  /** The key of the card of a child session, opened (where the model's rows end) when it has none. */
  subagentCard(sessionId: string, seq: number | undefined): string;
  /** Merges `patch` into the subagent view of the card with `key`; returns the card's index. */
  setSubagent(key: string, patch: Partial<SubagentView>): number;
}

/** One subagent: its model, the nest whose model holds its card (none: the top), and that card's key. */
interface Nest {
  readonly model: SubagentHost;
  readonly parent: string | undefined;
  readonly key: string;
}

/** The text of a session message's content (an array of blocks, or one block for a chunk). */
function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => (isObject(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('');
}

/** Routes subagents' updates; owned by the top transcript model. */
export class SubagentRouter {
  /** By nest id: the child session id, or `tool:<nest>:<call id>` for calls made inside a call. */
  private readonly nests = new Map<string, Nest>();
  /** The nest of every tool call routed into one (a later update of it may lack its parent id). */
  private readonly toolNest = new Map<string, string>();
  /**
   * Chunks joined into a child's task or answer (`session_message_chunk`) since it was last flattened,
   * by card key and field: like a message's text (src/transcript/flat-text.ts), it is flattened once
   * its joins are due, so a long streamed answer is held as its characters, not a rope of its chunks.
   */
  private readonly joined = new JoinCounts<string>();
  /** The codes read by flattening (kept, so that the reads are not dropped as dead code). */
  private flattened = 0;

  constructor(
    private readonly top: SubagentHost,
    private readonly nested: () => SubagentHost,
  ) {}

  /** True when the tool call with this id is drawn inside a subagent's card. */
  owns(toolCallId: string): boolean {
    return this.toolNest.has(toolCallId);
  }

  /**
   * Routes one update: returns the index of the top model's row it changed (-1 when none), or
   * undefined when the update is the top model's own.
   */
  route(u: AgentSessionUpdate, raw: Raw): number | undefined {
    const from =
      typeof u.subagentSessionId === 'string' && u.subagentSessionId ? u.subagentSessionId : undefined;
    const kind = kindOf(u);
    // One naming no child session is drawn as any unknown update is.
    if (kind === 'subagent_update' && str(raw.sessionId)) return this.announce(from, raw, u.seq);
    if (kind === 'session_message' || kind === 'session_message_chunk') {
      const routed = this.message(from, raw, kind === 'session_message_chunk');
      if (routed !== undefined || from === undefined) return routed;
      return -1; // a child's copy of its task: its card shows the task already
    }
    const nest = this.parentNest(from, u);
    if (nest !== undefined) return this.into(nest, u);
    if (from === undefined) return undefined;
    return this.into(this.nestOf(from, u.seq), u);
  }

  /** The model that holds a nest's card (the top one for a nest of the top). */
  private holder(parent: string | undefined): SubagentHost {
    return parent === undefined ? this.top : this.nests.get(parent)!.model;
  }

  /** The nest of a child session, opened in the top model when no announcement came first. */
  private nestOf(sessionId: string, seq: number | undefined): string {
    if (!this.nests.has(sessionId)) this.open(sessionId, undefined, seq);
    return sessionId;
  }

  private open(sessionId: string, parent: string | undefined, seq: number | undefined): Nest {
    const key = this.holder(parent).subagentCard(sessionId, seq);
    const nest: Nest = { model: this.nested(), parent, key };
    this.nests.set(sessionId, nest);
    this.holder(parent).setSubagent(key, { sessionId });
    return nest;
  }

  /** A `subagent_update` from `from` (none: the top session): opens or patches its child's card. */
  private announce(from: string | undefined, raw: Raw, seq: number | undefined): number {
    const child = str(raw.sessionId)!;
    const parent = from === undefined ? undefined : this.nestOf(from, seq);
    const nest = this.nests.get(child) ?? this.open(child, parent, seq);
    const patch: { -readonly [K in keyof SubagentView]?: SubagentView[K] } = {};
    for (const field of ['title', 'description'] as const) {
      if (raw[field] === null) patch[field] = undefined;
      else if (typeof raw[field] === 'string') patch[field] = raw[field];
    }
    if (raw.state === null) {
      patch.state = undefined;
      patch.stopReason = undefined;
    } else if (isObject(raw.state)) {
      patch.state = str(raw.state.state);
      patch.stopReason = str(raw.state.stopReason);
    }
    this.holder(nest.parent).setSubagent(nest.key, patch);
    return this.up(nest.parent);
  }

  /**
   * A session message between a child and the session that holds its card: its task (to the child)
   * or its answer (from it). Undefined when it links no such pair.
   */
  private message(from: string | undefined, raw: Raw, chunk: boolean): number | undefined {
    const heldBy = (id: string | undefined) =>
      id !== undefined && this.nests.has(id) && this.nests.get(id)!.parent === from;
    const to = str(raw.recipientSessionId);
    const by = str(raw.senderSessionId);
    const target = heldBy(to) ? to : undefined;
    const source = target === undefined && heldBy(by) ? by : undefined;
    const child = target ?? source;
    if (child === undefined) return undefined;
    const nest = this.nests.get(child)!;
    const field = target !== undefined ? 'prompt' : 'reply';
    const holder = this.holder(nest.parent);
    const card = holder.get(nest.key);
    const before = chunk && card?.type === 'tool' ? (card.subagent?.[field] ?? '') : '';
    const text = before + textOf(raw.content);
    this.settle(`${nest.key}\n${field}`, text, chunk);
    holder.setSubagent(nest.key, { [field]: text });
    return this.up(nest.parent);
  }

  /** Counts a chunk joined into `text` (a whole message starts the count again); flattens it when due. */
  private settle(id: string, text: string, chunk: boolean): void {
    if (!chunk) this.joined.forget(id);
    else if (this.joined.joined(id, text.length)) this.flattened |= flatText(text);
  }

  /**
   * The nest of an update a subagent sent in the same session (`parentToolCallId` naming a card of
   * the model it arrives in), or of a tool call already routed into a nest; undefined for any other.
   * A tool call that already has a card of its own keeps it.
   */
  private parentNest(from: string | undefined, u: AgentSessionUpdate): string | undefined {
    const call = u.kind === 'tool_call' || u.kind === 'tool_call_update' ? u.toolCall : undefined;
    const known = call ? this.toolNest.get(call.toolCallId) : undefined;
    if (known !== undefined) return known;
    const launch = u.parentToolCallId;
    const holder = from === undefined ? this.top : this.nests.get(from)?.model;
    if (!launch || !holder || (call && holder.cardIndex(call.toolCallId) !== undefined)) return undefined;
    const card = holder.cardIndex(launch);
    if (card === undefined) return undefined;
    const id = `tool:${from ?? ''}:${launch}`;
    if (!this.nests.has(id)) {
      const key = holder.rows[card]!.key;
      this.nests.set(id, { model: this.nested(), parent: from, key });
    }
    if (call) this.toolNest.set(call.toolCallId, id);
    return id;
  }

  /** Applies an update to a nest's model and redraws its card, and each card holding that one. */
  private into(id: string, u: AgentSessionUpdate): number {
    const { subagentSessionId: _from, parentToolCallId: _parent, ...own } = u;
    const nest = this.nests.get(id)!;
    nest.model.apply(own);
    if (u.toolCall && (u.kind === 'tool_call' || u.kind === 'tool_call_update'))
      this.toolNest.set(u.toolCall.toolCallId, id);
    return this.up(id);
  }

  /** Redraws the card of nest `id` and of every nest above it; the top model's card index (-1: none). */
  private up(id: string | undefined): number {
    let index = -1;
    for (let at = id; at !== undefined; at = this.nests.get(at)!.parent) {
      const nest = this.nests.get(at)!;
      index = this.holder(nest.parent).setSubagent(nest.key, { rows: nest.model.rows.slice() });
    }
    return index;
  }
}
