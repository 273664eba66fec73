/**
 * Updates an agent sends in another shape than live, read as live (docs/agents.md). Applied to each
 * normalized update before it is journaled; `raw` always stays what the agent sent, only the
 * normalized fields (and `kind`) change:
 * - in a `session/load` replay:
 *   - Gemini CLI's hidden `<session_context>…</session_context>` user message and its
 *     `[Function Response: x]` user chunks become {@link HIDDEN_CONTEXT_KIND} (no row, no title);
 *   - its `[Function Call: x]` markers are cut from agent text (a chunk left blank draws nothing);
 *   - claude-agent-acp's (0.23) Claude Code command markup (`<command-name>/model</command-name>…`,
 *     `<local-command-stdout>…`), replayed as user text the client never sent, is
 *     {@link HIDDEN_CONTEXT_KIND} too;
 *   - codex-acp's tool call with no `kind` titled `exec_command` is an `execute` call;
 *   - its `update_plan` tool call with steps in `rawInput.plan` is a `plan` update;
 * - outside a turn: Gemini CLI's agent text `[MODE_UPDATE] <modeId>` is a `current_mode_update`.
 * Total: anything else comes back unchanged; nothing throws.
 */

import { isObject, type ReadonlyRaw as Raw, str } from '../src/json.ts';
import type { AgentPlanEntry, AgentSessionUpdate } from '../src/types.ts';

/** Silo's kind for a user chunk an agent replays that no user typed; the transcript draws nothing. */
export const HIDDEN_CONTEXT_KIND = 'agent_context';

const SESSION_CONTEXT = /^\s*<session_context>[\s\S]*<\/session_context>\s*$/;
const FUNCTION_RESPONSE = /^\s*\[Function Response: [^\]\n]*\]\s*$/;
const FUNCTION_CALL = /\n*\[Function Call: [^\]\n]*\]/g;
const COMMAND_MARKUP =
  /^\s*(?:<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>[\s\S]*?<\/\1>\s*)+$/;

/** Where the update arrived: in a `session/load` replay, and whether a turn is running. */
export interface ShapeContext {
  readonly replaying: boolean;
  readonly inTurn: boolean;
}

function planOf(rawInput: unknown): AgentPlanEntry[] | undefined {
  const steps = isObject(rawInput) ? rawInput.plan : undefined;
  if (!Array.isArray(steps)) return undefined;
  return steps.filter(isObject).map((s) => ({
    content: typeof s.step === 'string' ? s.step : '',
    priority: 'medium',
    status: typeof s.status === 'string' ? s.status : 'pending',
  }));
}

function replayed(u: AgentSessionUpdate): AgentSessionUpdate {
  const { kind, raw, text } = u;
  if (kind === 'user_message_chunk' && text !== undefined) {
    if (SESSION_CONTEXT.test(text) || FUNCTION_RESPONSE.test(text) || COMMAND_MARKUP.test(text))
      return { kind: HIDDEN_CONTEXT_KIND, raw, seq: u.seq };
  } else if (kind === 'agent_message_chunk' && text !== undefined) {
    const cut = text.replace(FUNCTION_CALL, '');
    if (cut !== text) return { ...u, text: cut, content: { type: 'text', text: cut } };
  } else if (kind === 'tool_call' && u.toolCall && raw.kind === undefined) {
    if (u.toolCall.title === 'exec_command') return { ...u, toolCall: { ...u.toolCall, kind: 'execute' } };
    const plan = u.toolCall.title === 'update_plan' ? planOf(raw.rawInput) : undefined;
    if (plan) return { kind: 'plan', raw, seq: u.seq, plan };
  }
  return u;
}

const MODE_UPDATE = /^\[MODE_UPDATE\] (\S+)\s*$/;

/**
 * The mode id of Gemini CLI's mode announcement, an `agent_message_chunk` whose text is
 * `[MODE_UPDATE] <modeId>` (sent outside any turn); {@link shapeUpdate} makes it a
 * `current_mode_update` with that raw chunk. `undefined` for anything else.
 */
export function modeUpdateMarker(raw: Raw): string | undefined {
  const content = isObject(raw.content) ? raw.content : undefined;
  const text = content?.type === 'text' ? str(content.text) : undefined;
  return text === undefined ? undefined : MODE_UPDATE.exec(text)?.[1];
}

/** `u` read as live (see the module comment). */
export function shapeUpdate(u: AgentSessionUpdate, at: ShapeContext): AgentSessionUpdate {
  try {
    if (!at.inTurn && u.kind === 'agent_message_chunk') {
      const modeId = modeUpdateMarker(u.raw);
      if (modeId !== undefined) return { kind: 'current_mode_update', raw: u.raw, seq: u.seq };
    }
    return at.replaying ? replayed(u) : u;
  } catch {
    return u;
  }
}
