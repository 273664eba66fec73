/**
 * The turns Silo frames itself in a session's journal, beside the prompts it sends:
 * - a turn the agent starts by itself: agent content (a message, a thought, a tool call) that arrives
 *   when no prompt is running and the journal's last turn ended (Claude runs a model turn when a
 *   background task finishes) is journaled after a `turn_start`, so it is never glued onto the turn
 *   before; the turn ends (`end_turn`) with Claude's last usage of a model turn (its
 *   `_meta["_claude/origin"]`), else when the next prompt is sent;
 * - a turn left open when its page died (no turn end journaled): ended `interrupted` once the session
 *   is restored, so every turn ends.
 */
import type { Raw } from '../src/json.ts';
import { isSiloPrompt } from '../src/prompt-ids.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { modeUpdateMarker } from './replay-shape.ts';

/** What the agent sends that makes a turn. Patches of earlier calls, plans and state do not. */
const CONTENT = new Set(['agent_message_chunk', 'agent_thought_chunk', 'tool_call']);

/** Journals an update Silo records itself (the session's `record`). */
export type RecordUpdate = (update: Omit<AgentSessionUpdate, 'seq'>) => void;

/** The turn a journal holds open after the updates read so far ({@link frameAfter}). */
export interface TurnFrame {
  /** The turn the journal holds open: a prompt's, the agent's own, or none. */
  readonly open: 'prompt' | 'agent' | undefined;
  /** True once a turn ended and none started since. */
  readonly ended: boolean;
}

/** A journal that holds no turn yet. */
export const NO_FRAME: TurnFrame = { open: undefined, ended: false };

/** The turn the journal holds open once one more update is journaled after `f`, in journal order. */
export function frameAfter(f: TurnFrame, u: Pick<AgentSessionUpdate, 'kind' | 'messageId'>): TurnFrame {
  if (u.kind === 'turn_end') return { open: undefined, ended: true };
  if (u.kind === 'turn_start') return { open: 'agent', ended: false };
  if (isSiloPrompt(u)) return { open: 'prompt', ended: false };
  return f;
}

/**
 * The turn a session's journal holds open, read from the updates journaled, in order, and the
 * turn starts and ends Silo journals for it.
 */
export class TurnFrames {
  /** The turn the journal holds open: a prompt's, the agent's own, or none. */
  open: 'prompt' | 'agent' | undefined;
  /** True once a turn ended and none started since. */
  private ended = false;

  constructor(private readonly record: RecordUpdate) {}

  /** Before an update from the agent is journaled (`live`: no prompt runs, no replay streams). */
  beforeUpdate(raw: Raw, live: boolean): void {
    if (live && this.startsAgentTurn(raw))
      this.record({
        kind: 'turn_start',
        turnStart: { origin: 'agent' },
        timestamp: new Date().toISOString(),
        raw: { origin: 'agent' },
      });
  }

  /** After an update from the agent is journaled. */
  afterUpdate(raw: Raw, live: boolean): void {
    if (live && this.endsAgentTurn(raw)) this.end('end_turn');
  }

  /** Before a prompt is journaled: the agent's own turn is over. */
  beforePrompt(): void {
    if (this.open === 'agent') this.end('end_turn');
  }

  /**
   * Journals the end of the turn the journal holds open (none that a prompt of this worker runs),
   * `interrupted` with `why` when it was cut off.
   */
  end(stopReason: string, why?: string): void {
    const error = why ? { error: { code: 'interrupted', message: why } } : {};
    this.record({
      kind: 'turn_end',
      turnEnd: { stopReason, ...error },
      timestamp: new Date().toISOString(),
      raw: { stopReason, ...error },
    });
  }

  /** Takes what the journal's fold says (worker/journal-fold.ts), when a session is bound. */
  restore(frame: TurnFrame): void {
    this.open = frame.open;
    this.ended = frame.ended;
  }

  /** Reads one update as it is journaled. */
  learn(u: Pick<AgentSessionUpdate, 'kind' | 'messageId'>): void {
    const next = frameAfter({ open: this.open, ended: this.ended }, u);
    this.open = next.open;
    this.ended = next.ended;
  }

  /**
   * Whether `raw`, from the agent while no prompt runs and no replay streams, opens a turn of its
   * own: agent content after a turn ended. A blank chunk does not (Codex opens blocks with "\n\n"),
   * nor Gemini CLI's `[MODE_UPDATE]` text (a mode change).
   */
  private startsAgentTurn(raw: Raw): boolean {
    if (!this.ended || this.open !== undefined || !CONTENT.has(String(raw.sessionUpdate))) return false;
    const content = raw.content as { type?: unknown; text?: unknown } | undefined;
    if (content?.type === 'text' && typeof content.text === 'string' && content.text.trim() === '')
      return false;
    return raw.sessionUpdate !== 'agent_message_chunk' || modeUpdateMarker(raw) === undefined;
  }

  /** Whether `raw` ends the agent's own turn: Claude's last usage of a model turn says what started it. */
  private endsAgentTurn(raw: Raw): boolean {
    if (this.open !== 'agent' || raw.sessionUpdate !== 'usage_update') return false;
    const meta = raw._meta as Raw | undefined;
    return typeof meta?.['_claude/origin'] === 'object' && meta['_claude/origin'] !== null;
  }
}
