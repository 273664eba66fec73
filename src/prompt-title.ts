/**
 * What a prompt's text names a session (the session reducer's title until the agent sends one), and
 * the user text an agent writes itself, which names nothing.
 * @packageDocumentation
 */

/** User text an agent adds to its own history after a cancelled turn (claude-agent-acp); never a prompt. */
export const AGENT_MADE_USER = /^\s*\[Request interrupted by user[^\]\n]*\]\s*$/;

/** Longest title taken from a prompt, in characters. */
const PROMPT_TITLE_MAX = 80;
/** A block of markup around context a client or agent adds to a prompt (`<session_context>…</…>`). */
const TAGGED_BLOCK = /<([a-z][\w-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi;
/** A fenced block (a file's contents in a prompt). */
const FENCED_BLOCK = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
/** A slash command at the start of a line, and what follows it. */
const COMMAND = /^\/([\w:.-]+)(.*)$/;

/**
 * What a prompt's text names a session: its first line that says something, clipped to
 * {@link PROMPT_TITLE_MAX}, after the protocol noise is dropped — tagged context blocks
 * (`<session_context>…</session_context>`, `<system-reminder>…`), fenced file contents — with
 * `command` set when that line is a slash command (the title is then the command without its slash).
 * None when nothing is left, and for the user text an agent adds itself ({@link AGENT_MADE_USER}).
 */
export function promptTitle(text: string): { title: string; command: boolean } | undefined {
  if (AGENT_MADE_USER.test(text)) return undefined;
  const line = text
    .replace(TAGGED_BLOCK, '')
    .replace(FENCED_BLOCK, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return undefined;
  const command = COMMAND.exec(line);
  const words = command ? `${command[1]}${command[2]}`.trim() : line;
  const title = words.length > PROMPT_TITLE_MAX ? `${words.slice(0, PROMPT_TITLE_MAX - 1)}…` : words;
  return { title, command: command !== null };
}
