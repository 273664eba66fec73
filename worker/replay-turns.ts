/**
 * A conversation as the replay merge (worker/replay-merge.ts) reads it: pieces (runs of same-role
 * text, tool calls by id) split into turns at each prompt, and what the journal says of each turn
 * (cancelled, left open, one of the agent's commands). Pure.
 */

import type { Raw } from '../src/json.ts';
import { AGENT_MADE_USER } from '../src/prompt-title.ts';
import type { AgentSessionUpdate } from '../src/types.ts';

/** A journaled update as the merge reads it. */
export type JournalView = Pick<AgentSessionUpdate, 'kind' | 'raw' | 'messageId' | 'text'>;

/** The piece role of each chunk kind. */
export const ROLE: Readonly<Record<string, 'user' | 'agent' | 'thought'>> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
};
/** Stands for a non-text content block in a piece's text (U+FFFC OBJECT REPLACEMENT CHARACTER). */
const OBJECT = '\uFFFC';

/** One update as the merge reads it: its kind and text as Silo journals them, its raw form. */
export interface View {
  readonly kind: string;
  readonly raw: Raw;
  readonly text?: string | undefined;
  readonly messageId?: string | undefined;
}

/** One piece of conversation: a run of same-role chunks (one text per chunk), or a tool call. */
export interface Piece {
  readonly role: 'user' | 'agent' | 'thought' | 'tool';
  readonly texts: string[];
  /** Indices of the updates that make the piece, in order. */
  readonly members: number[];
  readonly messageId?: string | undefined;
  /** A tool call seen only through a permission request (an agent may keep no trace of a refused one). */
  weak?: boolean;
}

/** A prompt and what follows it, up to the next prompt. */
export interface Turn {
  /** The prompt (undefined for what comes before the first one). */
  readonly user?: Piece;
  readonly body: Piece[];
  /** Journal turns: ended `cancelled`; open: no turn end journaled, or `interrupted`. */
  cancelled?: boolean;
  open?: boolean;
  /** Journal turns: the prompt is one of the agent's commands (`/name …`, a name it announced). */
  command?: boolean;
}

export const joined = (p: Piece) => p.texts.join('');

function pieceText(v: View): string {
  if (v.text !== undefined) return v.text;
  const content = v.raw.content as { type?: unknown; text?: unknown } | null | undefined;
  if (content?.type === 'text' && typeof content.text === 'string') return content.text;
  return `${OBJECT}${typeof content?.type === 'string' ? content.type : ''}${OBJECT}`;
}

function toolIdOf(v: View): string | undefined {
  const id =
    v.kind === 'permission'
      ? (v.raw.toolCall as Raw | undefined)?.toolCallId
      : v.kind.startsWith('tool_call')
        ? v.raw.toolCallId
        : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The conversation as pieces. A tool call is a piece where it is first seen — a `tool_call`, or a
 * `tool_call_update` or permission request for an id not seen before (agents that announce a call
 * only through its permission, or patch it before announcing it). Prompts split where their message
 * id changes when `splitPrompts` (a journal: Silo gives each prompt its id). Every other update is
 * ignored, and so is the user text agents add themselves (`[Request interrupted by user]`).
 */
export function piecesOf(views: readonly View[], splitPrompts: boolean): Piece[] {
  const pieces: Piece[] = [];
  const everSeen = new Set<string>();
  let turnSeen = new Set<string>();
  const announced = new Set<string>();
  const viaPermission: Piece[] = [];
  views.forEach((v, i) => {
    const role = ROLE[v.kind];
    if (role) {
      const text = pieceText(v);
      if (role === 'user' && AGENT_MADE_USER.test(text)) return;
      const last = pieces.at(-1);
      const split = role === 'user' && splitPrompts && last?.messageId !== v.messageId;
      if (last?.role === role && !split) {
        last.texts.push(text);
        last.members.push(i);
        return;
      }
      if (role === 'user') turnSeen = new Set();
      pieces.push({ role, texts: [text], members: [i], messageId: v.messageId });
      return;
    }
    const id = toolIdOf(v);
    if (id === undefined) return;
    if (v.kind !== 'permission') announced.add(id);
    const fresh = v.kind === 'tool_call' ? !turnSeen.has(id) : !everSeen.has(id);
    everSeen.add(id);
    turnSeen.add(id);
    if (!fresh) return;
    const piece: Piece = { role: 'tool', texts: [id], members: [i] };
    pieces.push(piece);
    if (v.kind === 'permission') viaPermission.push(piece);
  });
  for (const p of viaPermission) if (!announced.has(p.texts[0]!)) p.weak = true;
  return pieces;
}

/** The pieces split into turns at each prompt (the first turn holds what comes before any prompt). */
export function turnsOf(pieces: readonly Piece[]): Turn[] {
  const turns: Turn[] = [{ body: [] }];
  for (const p of pieces) {
    if (p.role === 'user') turns.push({ user: p, body: [] });
    else turns.at(-1)!.body.push(p);
  }
  return turns;
}

/**
 * Marks each journal turn cancelled / open from the turn ends Silo journaled, and `command` when its
 * prompt names a command the agent announced before it (`available_commands_update`).
 */
export function markJournalTurns(turns: readonly Turn[], journal: readonly JournalView[]): void {
  const commands = new Set<string>();
  let read = 0;
  turns.forEach((turn, t) => {
    if (!turn.user) return;
    const from = turn.user.members[0]!;
    for (; read < from; read++) for (const name of commandsOf(journal[read]!)) commands.add(name);
    const to = turns[t + 1]?.user?.members[0] ?? journal.length;
    const end = journal.slice(from, to).find((u) => u.kind === 'turn_end');
    const reason = end?.raw.stopReason;
    turn.cancelled = reason === 'cancelled';
    turn.open = !end || reason === 'interrupted';
    const name = /^\s*\/([^\s/]+)/.exec(joined(turn.user))?.[1];
    turn.command = name !== undefined && commands.has(name);
  });
}

/** The command names an `available_commands_update` announces (without a leading `/`). */
function commandsOf(u: JournalView): string[] {
  const list = u.kind === 'available_commands_update' ? u.raw.availableCommands : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .map((c) => (c as { name?: unknown } | null)?.name)
    .filter((n): n is string => typeof n === 'string')
    .map((n) => n.replace(/^\//, ''));
}
