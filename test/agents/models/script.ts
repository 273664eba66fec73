/**
 * What the mock model says: one script for every model API. Each prompt the test sends carries a
 * marker (`silo:text`, `silo:write`, …); a request's reply is the next step of the last prompt's
 * script, chosen by how many tool results the conversation holds since that prompt. So a request the agent
 * repeats gets the same answer, and a side request (a title, a summary: no tools offered) gets a
 * short plain text. Each API module (anthropic.ts, openai-responses.ts, openai-chat.ts, gemini.ts)
 * reads its request into a {@link Conversation} and writes a {@link Reply} in its own stream format.
 * @packageDocumentation
 */

/** A tool call the model makes, in the agent's own tool vocabulary. */
export interface ToolUse {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** What the model answers to one request: a thought, text, and at most one tool call, in that order. */
export interface Reply {
  readonly thought?: string;
  readonly text?: string;
  readonly tool?: ToolUse;
}

/** A request read by an API module: the conversation up to it. */
export interface Conversation {
  /** The text of every user message, in order (tool results excluded). */
  readonly prompts: readonly string[];
  /** Tool results after the last prompt. */
  readonly toolResultsSincePrompt: number;
  /** Names of the tools the request offers (none: a side request). */
  readonly tools: readonly string[];
}

/**
 * How an agent spells the tool calls of the script: one agent module's part. `ask` is absent when the
 * agent has no tool that puts a question to the user.
 */
export interface AgentTools {
  /** A tool call that writes `content` to `file` (a name inside the session's working directory). */
  write(file: string, content: string): ToolUse;
  /** A tool call that runs `command` in a shell. */
  shell(command: string): ToolUse;
  /** A tool call that asks the user a multiple-choice question. */
  ask?(question: string, options: readonly string[]): ToolUse;
  /**
   * A tool call that hands `prompt` to a subagent (Claude Code's Agent tool) and waits for its
   * answer; absent when the agent has none the checks drive.
   */
  subagent?(description: string, prompt: string): ToolUse;
}

/**
 * The markers a prompt can carry, one per check. `sub` is the subagent's own task (the `subagent`
 * step's tool call hands it over): the subagent's requests go to the same mock, and its first
 * prompt is that task, so the same script answers it.
 */
export type Marker = 'text' | 'write' | 'shell' | 'slow' | 'ask' | 'draft' | 'subagent' | 'sub';

/** The file the `write` step writes, and what it holds. */
export const WRITTEN_FILE = 'silo-note.txt';
export const WRITTEN_TEXT = 'Written by the mock model for Silo.\n';
/** The file the `draft` step writes (a second write, for a permission left open by a reload). */
export const DRAFT_FILE = 'silo-draft.txt';
/** The `shell` step's command, and what it prints (not written in the command itself). */
export const SHELL_COMMAND = "printf 'silo-shell-%s\\n' 42";
export const SHELL_OUTPUT = 'silo-shell-42';
/** The slow command, and the lines it prints, one a second. */
export const SLOW_COMMAND = 'for i in 1 2 3 4; do echo tick-$i; sleep 1; done';
export const SLOW_LINES = ['tick-1', 'tick-2', 'tick-3', 'tick-4'];
/** The question the `ask` step asks, and its options. */
export const QUESTION = 'Which colour should the button be?';
export const QUESTION_OPTIONS = ['Blue', 'Green'];
/** What the `subagent` step's subagent is told, the command it runs, and what that prints. */
export const SUBAGENT_DESCRIPTION = 'Look around for Silo';
export const SUBAGENT_COMMAND = "printf 'silo-sub-%s\\n' 7";
export const SUBAGENT_OUTPUT = 'silo-sub-7';
/** The text the subagent says before its command (its answer is `FINAL_TEXT.sub`). */
export const SUBAGENT_TEXT = 'The subagent runs a command.';

/** The final text of each marker's script, which the checks look for in the transcript. */
export const FINAL_TEXT: Record<Marker, string> = {
  text: 'Hello from the mock model. Streaming **works**.',
  write: `I wrote ${WRITTEN_FILE}.`,
  shell: `The command printed ${SHELL_OUTPUT}.`,
  slow: 'The slow command finished.',
  ask: 'Thanks for answering the question.',
  draft: `I wrote ${DRAFT_FILE}.`,
  subagent: 'The subagent has answered.',
  sub: `The subagent saw ${SUBAGENT_OUTPUT}.`,
};

/** The prompt that triggers `marker`'s script. */
export function promptFor(marker: Marker): string {
  const asks: Record<Marker, string> = {
    text: 'Say hello.',
    write: `Write ${WRITTEN_FILE}.`,
    shell: 'Run a quick command.',
    slow: 'Run a slow command.',
    ask: 'Ask me a question.',
    draft: `Write ${DRAFT_FILE}.`,
    subagent: 'Hand a task to a subagent.',
    sub: 'Run one command and report what it printed.',
  };
  return `silo:${marker} ${asks[marker]}`;
}

const MARKER = /silo:(text|write|shell|slow|ask|draft|subagent|sub)\b/;

/** The marker of the last prompt, if it carries one. */
export function lastMarker(prompts: readonly string[]): Marker | undefined {
  const m = MARKER.exec(prompts.at(-1) ?? '');
  return m ? (m[1] as Marker) : undefined;
}

/** The steps of one marker's script: every step but the last makes a tool call. */
function steps(marker: Marker, tools: AgentTools): Reply[] {
  const done = { text: FINAL_TEXT[marker] };
  switch (marker) {
    case 'text':
      return [{ thought: 'The user wants a greeting; I will stream one.', text: FINAL_TEXT.text }];
    case 'write':
      return [{ text: 'Writing the file now.', tool: tools.write(WRITTEN_FILE, WRITTEN_TEXT) }, done];
    case 'shell':
      return [{ tool: tools.shell(SHELL_COMMAND) }, done];
    case 'slow':
      return [{ tool: tools.shell(SLOW_COMMAND) }, done];
    case 'draft':
      return [{ tool: tools.write(DRAFT_FILE, WRITTEN_TEXT) }, { text: FINAL_TEXT.draft }];
    case 'ask':
      return tools.ask ? [{ tool: tools.ask(QUESTION, QUESTION_OPTIONS) }, done] : [done];
    case 'subagent':
      return tools.subagent
        ? [{ tool: tools.subagent(SUBAGENT_DESCRIPTION, promptFor('sub')) }, done]
        : [done];
    case 'sub':
      return [{ text: SUBAGENT_TEXT, tool: tools.shell(SUBAGENT_COMMAND) }, done];
  }
}

/** Told what each request was read as and answered (the server keeps it for the report). */
export type Trace = (conversation: Conversation, reply: Reply) => void;

/** The reply to one request. */
export function nextReply(conversation: Conversation, tools: AgentTools, trace?: Trace): Reply {
  const marker = lastMarker(conversation.prompts);
  const script =
    marker && conversation.tools.length > 0 ? steps(marker, tools) : [{ text: 'Silo agent test' }];
  const reply = script[Math.min(conversation.toolResultsSincePrompt, script.length - 1)]!;
  trace?.(conversation, reply);
  return reply;
}

/**
 * One piece of a conversation, as an API module reads it, in order: a user's text block (a context
 * block, below, is not a prompt) or a tool's result.
 */
export type Turn = { readonly prompt: string } | { readonly toolResult: true };

/** Context agents wrap into user messages (Claude Code's reminders, Codex's environment): not prompts. */
const CONTEXT = /<(system-reminder|environment_context|user_instructions|session_context)>[\s\S]*?<\/\1>/g;

/** The note Claude Code adds to a turn the user cancelled: not a prompt either. */
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

/**
 * The {@link Conversation} of a request read as turns, offering tools named `tools`: the script is
 * the last prompt's (a prompt without a marker — a slash command's expansion — gets plain text).
 */
export function conversationOf(turns: readonly Turn[], tools: readonly string[]): Conversation {
  const prompts: string[] = [];
  let since = 0;
  for (const turn of turns) {
    if ('prompt' in turn) {
      const text = turn.prompt.replace(CONTEXT, '').trim();
      if (!text || INTERRUPTED.test(text)) continue;
      prompts.push(text);
      since = 0;
    } else since++;
  }
  return { prompts, toolResultsSincePrompt: since, tools };
}

/** Splits text into a few pieces, so that it streams as several deltas. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}
