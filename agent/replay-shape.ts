/**
 * `--replay-shape <agent>`: a `session/load` replay shaped the way that agent replays a session,
 * which differs from what it sends live (docs/agents.md):
 * - `codex`: every tool call replayed once, already final (`completed` unless it failed; no
 *   pending → completed sequence); shell tool calls (kind `execute`) titled `exec_command` with no
 *   `kind`; each `plan` update replayed as an `update_plan` tool call (its steps in `rawInput.plan`);
 *   the agent text and thoughts of cancelled turns dropped, and their calls that never finished; a
 *   turn that never ended (its process died while it waited for the client) as its prompt alone;
 * - `gemini`: a hidden first user message `<session_context>…</session_context>`; each tool call as an
 *   agent chunk `[Function Call: <title>]` and a user chunk `[Function Response: <title>]`; the tool
 *   calls themselves grouped after the last turn; plans dropped; cancelled turns omitted;
 * - `qwen` (Qwen Code): the history as stored, so a tool call it announced live only through its
 *   permission request (agent/scenarios/interactive.ts) is replayed as a `tool_call`;
 * - `copilot` (Copilot CLI): the history as stored, without the `Info: <path>` chunk it sends live
 *   after each file write (agent/turn.ts); the calls of a turn that never ended replayed `failed`;
 * - `claude` (claude-agent-acp): each message as one chunk (ids kept), each tool call as its
 *   `tool_call` and one `tool_call_update` with every patch folded in, and after each cancelled turn
 *   a user message the client never sent: `[Request interrupted by user for tool use]` when it had a
 *   tool call, else `[Request interrupted by user]`;
 * - `claude-0.23` (claude-agent-acp 0.23.1): as `claude`, without message ids, and starting with the
 *   `/model` command markup Claude Code keeps in its history;
 * - `opencode` (OpenCode): the history as stored (ids kept), a command's prompt replayed as the
 *   instructions it stands for ({@link commandExpansion}).
 * `claude`, `codex` and `copilot` leave the turns of the agent's own commands ({@link AGENT_COMMANDS})
 * out, as those agents do with the commands they run themselves (`/context`, `/status`). None but
 * `claude` and `opencode` send message ids. The history is read as turns by replay-turns.ts. Pure:
 * the stored history is never changed. Free of Node imports, so a test page can read its constants.
 */
import {
  finalCalls,
  finished,
  type HistoryUpdate,
  type Turn,
  type TurnMark,
  textOf,
  turnsOf,
  withoutCommands,
} from './replay-turns.ts';

export { AGENT_COMMANDS, type HistoryUpdate, OPEN_TURN, type TurnMark } from './replay-turns.ts';

/** The replay shapes `--replay-shape` takes. */
export const REPLAY_SHAPES = [
  'codex',
  'gemini',
  'qwen',
  'copilot',
  'claude',
  'claude-0.23',
  'opencode',
] as const;
export type ReplayShape = (typeof REPLAY_SHAPES)[number];

/** The prompt OpenCode replays for a command it expanded: what `/<name> <args>` stands for. */
export function commandExpansion(name: string, args: string): string {
  return name === 'web'
    ? `Search the web for: ${args}`
    : 'Review the current changes in this repository and say what you find.';
}

function codex(turns: readonly Turn[]): HistoryUpdate[] {
  const out: HistoryUpdate[] = [];
  let plans = 0;
  for (const turn of withoutCommands(turns)) {
    if (turn.open) {
      out.push(...turn.updates.filter((u) => u.sessionUpdate === 'user_message_chunk'));
      continue;
    }
    const calls = finalCalls(turn.updates);
    const done = finished(turn.updates);
    if (turn.cancelled) for (const id of calls.keys()) if (!done.has(id)) calls.delete(id);
    for (const u of turn.updates) {
      const kind = u.sessionUpdate;
      if (kind === 'agent_message_chunk' || kind === 'agent_thought_chunk') {
        if (!turn.cancelled) out.push(u);
      } else if (kind === 'tool_call' || kind === 'tool_call_update') {
        const id = u.toolCallId as string;
        const call = calls.get(id);
        if (!call) continue; // already replayed once
        calls.delete(id);
        if (call.kind !== 'execute') out.push(call);
        else {
          const { kind: _, ...shell } = call;
          out.push({ ...shell, title: 'exec_command' });
        }
      } else if (kind === 'plan') {
        const entries = Array.isArray(u.entries) ? (u.entries as HistoryUpdate[]) : [];
        out.push({
          sessionUpdate: 'tool_call',
          toolCallId: `update_plan-${++plans}`,
          title: 'update_plan',
          status: 'completed',
          rawInput: { plan: entries.map((e) => ({ step: e.content, status: e.status })) },
        });
      } else out.push(u);
    }
  }
  return out;
}

/** The hidden context Gemini CLI replays as the session's first user message. */
export const GEMINI_SESSION_CONTEXT =
  '<session_context>\nThis is the Gemini CLI. The date is today; the working directory is the session cwd.\n</session_context>';

const text = (t: string) => ({ type: 'text', text: t });

function gemini(turns: readonly Turn[]): HistoryUpdate[] {
  const out: HistoryUpdate[] = [
    { sessionUpdate: 'user_message_chunk', content: text(GEMINI_SESSION_CONTEXT) },
  ];
  const grouped: HistoryUpdate[] = [];
  for (const turn of turns) {
    if (turn.cancelled) continue;
    const calls = finalCalls(turn.updates);
    for (const u of turn.updates) {
      const kind = u.sessionUpdate;
      if (kind === 'plan' || kind === 'tool_call_update') continue;
      if (kind !== 'tool_call') {
        out.push(u);
        continue;
      }
      const call = calls.get(u.toolCallId as string)!;
      const name = String(call.title ?? '');
      out.push({ sessionUpdate: 'agent_message_chunk', content: text(`\n[Function Call: ${name}]`) });
      out.push({ sessionUpdate: 'user_message_chunk', content: text(`[Function Response: ${name}]`) });
      grouped.push(call);
    }
  }
  return [...out, ...grouped];
}

/** The marker claude-agent-acp leaves in its history after a cancelled turn. */
export const INTERRUPT_MARKER = '[Request interrupted by user]';
/** The marker it leaves after a turn cancelled while a tool call was in it. */
export const INTERRUPT_TOOL_MARKER = '[Request interrupted by user for tool use]';

/** The `/model` command markup claude-agent-acp 0.23.1 replays first (Claude Code's own history). */
export const CLAUDE_MODEL_MARKUP = [
  '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>',
  '<local-command-stdout>Set model to claude-sonnet-4-5</local-command-stdout>',
];

const isChunk = (u: HistoryUpdate) =>
  typeof u.sessionUpdate === 'string' && u.sessionUpdate.endsWith('_chunk');

function claude(turns: readonly Turn[]): HistoryUpdate[] {
  const out: HistoryUpdate[] = [];
  for (const turn of withoutCommands(turns)) {
    const folded = new Set<string>();
    for (const u of turn.updates) {
      const last = out.at(-1);
      const content = u.content as { type?: unknown } | undefined;
      if (isChunk(u) && content?.type === 'text') {
        // One chunk per message: consecutive text of one kind and one id.
        const same = last && last.sessionUpdate === u.sessionUpdate && last.messageId === u.messageId;
        if (same && u.sessionUpdate !== 'user_message_chunk' && isChunk(last))
          out[out.length - 1] = { ...last, content: text(textOf(last) + textOf(u)) };
        else out.push(u);
      } else if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
        const id = u.toolCallId as string;
        if (folded.has(id)) continue;
        folded.add(id);
        const announced = turn.updates.find((x) => x.sessionUpdate === 'tool_call' && x.toolCallId === id);
        out.push(announced ?? { sessionUpdate: 'tool_call', toolCallId: id, title: '' });
        const patch: HistoryUpdate = { sessionUpdate: 'tool_call_update', toolCallId: id };
        for (const x of turn.updates)
          if (x.sessionUpdate === 'tool_call_update' && x.toolCallId === id)
            for (const [k, v] of Object.entries(x)) if (v !== undefined && v !== null) patch[k] = v;
        if (Object.keys(patch).length > 2) out.push(patch);
      } else out.push(u);
    }
    if (turn.cancelled) {
      const tools = turn.updates.some((u) => u.sessionUpdate === 'tool_call');
      out.push({
        sessionUpdate: 'user_message_chunk',
        messageId: crypto.randomUUID(),
        content: text(tools ? INTERRUPT_TOOL_MARKER : INTERRUPT_MARKER),
      });
    }
  }
  return out;
}

function copilot(turns: readonly Turn[]): HistoryUpdate[] {
  return withoutCommands(turns).flatMap((turn) => {
    if (!turn.open) return [...turn.updates];
    const unfinished = [...finalCalls(turn.updates).keys()].filter((id) => !finished(turn.updates).has(id));
    return [
      ...turn.updates,
      ...unfinished.map((toolCallId) => ({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'failed',
      })),
    ];
  });
}

function opencode(turns: readonly Turn[]): HistoryUpdate[] {
  return turns.flatMap((turn) => {
    const { command } = turn;
    if (!command) return [...turn.updates];
    const [prompt, ...rest] = turn.updates;
    return [{ ...prompt, content: text(commandExpansion(command.name, command.args)) }, ...rest];
  });
}

const withoutIds = (updates: HistoryUpdate[]) => updates.map(({ messageId: _, ...u }) => u);

/** The `session/load` replay of `history` in `shape`; `marks` say where each turn starts and how it ended. */
export function shapeReplay(
  history: readonly HistoryUpdate[],
  marks: readonly TurnMark[],
  shape: ReplayShape,
): HistoryUpdate[] {
  const turns = turnsOf(history, marks);
  switch (shape) {
    case 'codex':
      return withoutIds(codex(turns));
    case 'gemini':
      return withoutIds(gemini(turns));
    case 'claude':
      return claude(turns);
    case 'claude-0.23':
      return withoutIds([
        ...CLAUDE_MODEL_MARKUP.map((t) => ({ sessionUpdate: 'user_message_chunk', content: text(t) })),
        ...claude(turns),
      ]);
    case 'copilot':
      return withoutIds(copilot(turns));
    case 'opencode':
      return opencode(turns);
    default:
      // Qwen Code replays what it keeps, without message ids.
      return withoutIds([...history]);
  }
}

/** The notice codex-acp sends at the end of each load here (its sandbox helper is missing). */
export const CODEX_LOAD_NOTICE = {
  sessionUpdate: 'notice',
  severity: 'warning',
  title: 'Codex could not find bubblewrap on PATH. Codex will use the bundled bubblewrap in the meantime.',
};

/**
 * What a load sends around the replay besides the conversation: as codex-acp (`codex`), the
 * session's commands and title (when it has one) before it and a notice at its end, all before the
 * load response.
 */
export function aroundReplay(
  replay: HistoryUpdate[],
  shape: ReplayShape | undefined,
  session: { readonly commands: readonly unknown[]; readonly title: string | null },
): HistoryUpdate[] {
  if (shape !== 'codex') return replay;
  return [
    { sessionUpdate: 'available_commands_update', availableCommands: [...session.commands] },
    ...(session.title ? [{ sessionUpdate: 'session_info_update', title: session.title }] : []),
    ...replay,
    CODEX_LOAD_NOTICE,
  ];
}

/**
 * What `session/load` replays of a session: its history as stored, with fresh message ids under
 * `--new-ids-on-load`, or shaped under `--replay-shape`.
 */
export function loadReplay(
  record: { readonly history: readonly HistoryUpdate[]; readonly turns?: readonly TurnMark[] },
  options: { readonly newIdsOnLoad: boolean; readonly replayShape: ReplayShape | undefined },
): HistoryUpdate[] {
  if (options.replayShape) return shapeReplay(record.history, record.turns ?? [], options.replayShape);
  const ids = new Map<string, string>();
  return record.history.map((update) => {
    if (!options.newIdsOnLoad || typeof update.messageId !== 'string') return update;
    const old = update.messageId;
    if (!ids.has(old)) ids.set(old, `${old}-r${crypto.randomUUID().slice(0, 4)}`);
    return { ...update, messageId: ids.get(old) };
  });
}
