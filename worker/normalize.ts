/**
 * The normalizer: a raw ACP `session/update` object → {@link AgentSessionUpdate}.
 * Total: malformed input yields an update with only `kind` and `raw`, never an exception.
 * It applies the defaults the SDK does not (tool kind `other`, status `pending`), keeps unknown kinds
 * with `raw` intact, and synthesizes `messageId` deterministically when the agent omits it.
 */

import { isObject, type ReadonlyRaw as Raw, str } from '../src/json.ts';
import { isPromptId } from '../src/prompt-ids.ts';
import { SESSION_STATE_KINDS } from '../src/session-state.ts';
import type {
  AgentContentBlock,
  AgentPlanEntry,
  AgentSessionUpdate,
  AgentSessionUsage,
  AgentTerminal,
  AgentToolCall,
  AgentToolCallContent,
  AgentToolCallLocation,
  AgentToolKind,
} from '../src/types.ts';
import { shapeUpdate } from './replay-shape.ts';

const CHUNK_KINDS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk']);
const TOOL_KINDS = new Set<AgentToolKind>([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
const TOOL_STATUSES = new Set(['pending', 'in_progress', 'completed', 'failed']);

/** True for the three streaming-text kinds. */
export function isChunkKind(kind: string): boolean {
  return CHUNK_KINDS.has(kind);
}

/**
 * Synthesizes message ids for chunks that carry none. Consecutive same-kind id-less chunks share one
 * id; a chunk of another kind or any other content (a tool call, a plan, Silo's own records) starts a
 * new one, while a metadata-only update (usage, commands, config options, session info, mode) between
 * two chunks does not: Codex sends those in the middle of a reasoning block. In a `session/load` replay
 * ({@link MessageIdSynthesizer.replaying}), a user chunk whose block is text also starts a new one:
 * an agent replays each past prompt whole, so two texts in a row are two prompts, while a non-text
 * block (an image, a resource) stays with the prompt before it. The id is derived from the journal
 * sequence number of the run's first chunk, so replaying the same journal yields the same ids.
 */
export class MessageIdSynthesizer {
  private run: { kind: string; id: string } | undefined;
  /**
   * True while a `session/load` replay streams in: set by the session for the request; ended by the
   * session, or (a load into an empty journal) by Silo's next prompt passing through {@link next}.
   */
  replaying = false;

  /**
   * Returns the messageId for the update at `seq`; call once per journaled update, in order.
   * `content` is the chunk's content block (read only in a replay).
   */
  next(kind: string, agentId: string | undefined, seq: number, content?: unknown): string | undefined {
    if (SESSION_STATE_KINDS.has(kind)) return undefined; // metadata only: the message goes on
    if (!isChunkKind(kind)) {
      this.run = undefined;
      return undefined;
    }
    if (agentId !== undefined) {
      // Silo's own prompt (`silo-u…`) ends a load's replay: what follows is live.
      if (isPromptId(agentId)) this.replaying = false;
      this.run = undefined;
      return agentId;
    }
    const newPrompt =
      this.replaying &&
      kind === 'user_message_chunk' &&
      (content as { type?: unknown } | null | undefined)?.type === 'text';
    if (this.run?.kind !== kind || newPrompt) this.run = { kind, id: `silo-m${seq}` };
    return this.run.id;
  }

  /**
   * Carries on from a journaled update (after reading a journal back): an id-less run the journal
   * ends with continues with the next id-less chunk of its kind.
   */
  continueFrom(u: {
    readonly kind: string;
    readonly messageId?: string | undefined;
    readonly raw: object;
  }): void {
    const synthesized =
      u.messageId?.startsWith('silo-m') && (u.raw as { messageId?: unknown }).messageId === undefined;
    this.run = isChunkKind(u.kind) && synthesized ? { kind: u.kind, id: u.messageId! } : undefined;
  }

  /** Forgets the current run (for example after Silo records its own update). */
  reset(): void {
    this.run = undefined;
  }
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function contentBlock(v: unknown): AgentContentBlock | undefined {
  return isObject(v) && typeof v.type === 'string' ? (v as AgentContentBlock) : undefined;
}

function toolContent(v: unknown): AgentToolCallContent | undefined {
  if (!isObject(v)) return undefined;
  if (v.type === 'content') {
    const content = contentBlock(v.content);
    return content ? { type: 'content', content } : undefined;
  }
  if (v.type === 'diff' && typeof v.path === 'string' && typeof v.newText === 'string') {
    const oldText = typeof v.oldText === 'string' ? v.oldText : null;
    return { type: 'diff', path: v.path, oldText, newText: v.newText };
  }
  if (v.type === 'terminal' && typeof v.terminalId === 'string')
    return { type: 'terminal', terminalId: v.terminalId };
  return undefined;
}

function location(v: unknown): AgentToolCallLocation | undefined {
  if (!isObject(v) || typeof v.path !== 'string') return undefined;
  const line = num(v.line);
  return line === undefined ? { path: v.path } : { path: v.path, line };
}

function list<T>(v: unknown, item: (x: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map(item).filter((x): x is T => x !== undefined);
}

const record = (v: unknown): Raw | undefined => (isObject(v) ? v : undefined);

/**
 * The terminal a tool call's `_meta` reports (claude-agent-acp, codex-acp): `terminal_info` opens it,
 * `terminal_output` replaces its output, `terminal_output_delta` appends to it, `terminal_exit` ends
 * it. The id is the first `terminal_id` given; a key naming another id is ignored.
 */
export function normalizeTerminal(meta: unknown): AgentTerminal | undefined {
  const m = record(meta);
  if (!m) return undefined;
  const keys = [m.terminal_info, m.terminal_output, m.terminal_output_delta, m.terminal_exit].map(record);
  const id = keys.map((k) => str(k?.terminal_id)).find((v) => v !== undefined);
  if (id === undefined) return undefined;
  const [info, replace, delta, exit] = keys.map((k) => (k && (k.terminal_id ?? id) === id ? k : undefined));
  const out: { -readonly [K in keyof AgentTerminal]: AgentTerminal[K] } = { id };
  const cwd = str(info?.cwd);
  if (cwd !== undefined) out.cwd = cwd;
  const whole = str(replace?.data);
  const chunk = str(delta?.data);
  if (whole !== undefined) out.output = whole + (chunk ?? '');
  else if (chunk !== undefined) {
    out.output = chunk;
    out.append = true;
  }
  if (exit) {
    out.exited = true;
    out.exitCode = num(exit.exit_code) ?? null;
    out.signal = str(exit.signal) ?? null;
  }
  return out;
}

/**
 * claude-agent-acp's `_meta.claudeCode.parentToolUseId`: the Task/Agent call whose subagent sent the
 * update (`{}` when none, or when it names the update's own tool call: a progress beat of the Task).
 */
function parentOf(raw: Raw): { parentToolCallId?: string } {
  const id = str(record(record(raw._meta)?.claudeCode)?.parentToolUseId);
  return id && id !== raw.toolCallId ? { parentToolCallId: id } : {};
}

/**
 * A tool call from `tool_call` (`create`: defaults applied) or `tool_call_update` / a permission's
 * `toolCall` (patch: only what was sent; `null` means unchanged).
 */
export function normalizeToolCall(raw: Raw, create: boolean): AgentToolCall | undefined {
  const toolCallId = str(raw.toolCallId);
  if (toolCallId === undefined) return undefined;
  const kindRaw = str(raw.kind);
  const statusRaw = str(raw.status);
  const kind = kindRaw && TOOL_KINDS.has(kindRaw as AgentToolKind) ? (kindRaw as AgentToolKind) : undefined;
  const status =
    statusRaw && TOOL_STATUSES.has(statusRaw) ? (statusRaw as AgentToolCall['status']) : undefined;
  const call: Record<string, unknown> = { toolCallId };
  const title = str(raw.title);
  if (title !== undefined) call.title = title;
  else if (create) call.title = '';
  const name = str(raw.name);
  if (name !== undefined) call.name = name;
  if (kind) call.kind = kind;
  else if (create || kindRaw !== undefined) call.kind = 'other';
  if (status) call.status = status;
  else if (create || statusRaw !== undefined) call.status = 'pending';
  const content = list(raw.content, toolContent);
  if (content) call.content = content;
  else if (create) call.content = [];
  const locations = list(raw.locations, location);
  if (locations) call.locations = locations;
  else if (create) call.locations = [];
  if (raw.rawInput !== undefined && raw.rawInput !== null) call.rawInput = raw.rawInput;
  if (raw.rawOutput !== undefined && raw.rawOutput !== null) call.rawOutput = raw.rawOutput;
  const terminal = normalizeTerminal(raw._meta);
  if (terminal) call.terminal = terminal;
  return call as unknown as AgentToolCall;
}

function planEntry(v: unknown): AgentPlanEntry | undefined {
  if (!isObject(v) || typeof v.content !== 'string') return undefined;
  return { content: v.content, priority: str(v.priority) ?? 'medium', status: str(v.status) ?? 'pending' };
}

function usage(raw: Raw): AgentSessionUsage | undefined {
  const used = num(raw.used);
  const size = num(raw.size);
  if (used === undefined || size === undefined) return undefined;
  const cost = isObject(raw.cost) ? raw.cost : undefined;
  const amount = num(cost?.amount);
  const currency = str(cost?.currency);
  return amount !== undefined && currency !== undefined
    ? { used, size, cost: { amount, currency } }
    : { used, size };
}

/**
 * Normalizes one raw update. `seq` is its journal position; `ids` synthesizes message ids and must
 * see every update of the session in order. Never throws.
 */
export function normalizeUpdate(raw: unknown, seq: number, ids: MessageIdSynthesizer): AgentSessionUpdate {
  try {
    if (!isObject(raw)) {
      ids.reset();
      return { kind: 'invalid', raw: { value: raw as unknown }, seq };
    }
    const kind = typeof raw.sessionUpdate === 'string' ? raw.sessionUpdate : 'invalid';
    const base = { kind, raw, seq, ...parentOf(raw) };
    const messageId = ids.next(kind, str(raw.messageId), seq, raw.content);
    switch (kind) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const content = contentBlock(raw.content);
        const text = content?.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
        return { ...base, messageId, content, text };
      }
      case 'tool_call':
      case 'tool_call_update': {
        const toolCall = normalizeToolCall(raw, kind === 'tool_call');
        return toolCall ? { ...base, toolCall } : base;
      }
      case 'plan': {
        const plan = list(raw.entries, planEntry);
        return plan ? { ...base, plan } : base;
      }
      case 'usage_update': {
        const u = usage(raw);
        return u ? { ...base, usage: u } : base;
      }
      default:
        return base;
    }
  } catch {
    // A getter or proxy on hostile input: keep the kind and raw only.
    return { kind: 'invalid', raw: {}, seq };
  }
}

/**
 * The path of one update the agent sends for the session: {@link normalizeUpdate}, then read as live
 * where the agent sent it in another shape (worker/replay-shape.ts). An update whose kind changed
 * leaves no message run open, so the next id-less chunk starts a message of its own.
 */
export function normalizeShaped(
  raw: unknown,
  seq: number,
  ids: MessageIdSynthesizer,
  inTurn: boolean,
): AgentSessionUpdate {
  const normalized = normalizeUpdate(raw, seq, ids);
  const shaped = shapeUpdate(normalized, { replaying: ids.replaying, inTurn });
  if (shaped.kind !== normalized.kind) ids.reset();
  return shaped;
}

/** A replayed update on its own (a replay held for the merge), normalized and shaped, for its state. */
export function normalizeReplayed(raw: unknown): AgentSessionUpdate {
  const ids = new MessageIdSynthesizer();
  ids.replaying = true;
  return normalizeShaped(raw, -1, ids, false);
}

/** Normalizes a whole sequence of raw updates from scratch (replaying a journal). */
export function normalizeAll(raws: readonly unknown[], firstSeq = 0): AgentSessionUpdate[] {
  const ids = new MessageIdSynthesizer();
  return raws.map((raw, i) => normalizeUpdate(raw, firstSeq + i, ids));
}
