/**
 * Which of an agent's stderr lines says why it ended: the last *meaningful* one. Node adds lines of its
 * own after the agent's message — a warning (`(node:123) MaxListenersExceededWarning: …`) and its
 * hint, an uncaught error's stack frames, the caret under the thrown line, `Node.js v22.3.0` — and
 * quoting one of those in the page's banner says nothing about what went wrong.
 * @packageDocumentation
 */

/** Lines Node itself writes around an agent's own message (warnings, stack traces, its version). */
const NOISE: readonly RegExp[] = [
  /^\(node:\d+\) (?:\[[\w-]+\] )?\w*(?:Warning|Deprecation)\b/, // (node:12) [DEP0040] DeprecationWarning: …
  /^\(Use `node --trace-/, // (Use `node --trace-warnings ...` to show where the warning was created)
  /^Node\.js v\d/, // Node.js v20.11.0, after an uncaught error
  /^\s/, // stack frames ("    at f (file:1:2)"), an error's properties ("  code: 'ENOENT'")
  /^[\s^~{}[\]()]*$/, // the caret under the thrown line, a lone brace
];

/** Longest stderr line quoted, in characters. */
export const STDERR_QUOTE_MAX = 200;

/** True when `line` is the agent's own words, not one of Node's lines around them ({@link NOISE}). */
export function isMeaningfulStderr(line: string): boolean {
  return line.trim() !== '' && !NOISE.some((re) => re.test(line));
}

/**
 * Keeps the line to quote when the agent ends: the last meaningful stderr line, else (only Node's
 * lines were written) the last non-empty one, trimmed to {@link STDERR_QUOTE_MAX} characters.
 */
export class LastStderrLine {
  #meaningful: string | undefined;
  #any: string | undefined;

  /** Takes one line of the agent's stderr (without its newline). */
  push(line: string): void {
    const text = line.trim().slice(0, STDERR_QUOTE_MAX);
    if (!text) return;
    this.#any = text;
    if (isMeaningfulStderr(line)) this.#meaningful = text;
  }

  /** The line to quote, if the agent wrote any. */
  get value(): string | undefined {
    return this.#meaningful ?? this.#any;
  }
}
