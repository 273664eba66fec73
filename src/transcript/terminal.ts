/**
 * Plain text of a command's terminal output, for where it is shown without colours (the Markdown
 * export, the transcript until the ANSI chunk is in, find): escape sequences removed, and a carriage
 * return overwrites its line as a terminal does (progress bars show their last state).
 * @packageDocumentation
 */

/** CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC \`), and two-character escapes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are made of control characters
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_]?)/g;

/**
 * Applies carriage returns as a terminal does: `\r\n` ends a line; after a lone `\r` the text
 * overwrites the line from its start (a progress bar shows its last state).
 */
export function overwriteLines(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => {
      let shown = '';
      for (const part of line.split('\r')) shown = part + shown.slice(part.length);
      return shown;
    })
    .join('\n');
}

/** The output as plain text: no escape sequences, carriage returns applied. Never throws. */
export function terminalText(output: string): string {
  return overwriteLines(typeof output === 'string' ? output.replace(ESCAPES, '') : '');
}
