/**
 * How much of a command's output the transcript draws and searches (transcript/rows/terminal-block.ts,
 * transcript/find/text.ts): its end only, so that a huge output never holds the page.
 * @packageDocumentation
 */

/** The most lines of an output drawn before "Show all". */
export const TAIL_LINES = 2000;
/** The most characters of an output drawn (and searched by find) before "Show all". */
export const TAIL_CHARS = 200_000;
/** The most characters "Show all" draws (the end of the output; Copy still copies all of it). */
export const ALL_CHARS = 2_000_000;
