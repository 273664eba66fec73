/**
 * Terminal output drawn at once and coloured later: until the ANSI chunk (ansi.ts, with `ansi_up`)
 * arrives, the output shows as plain text (escape sequences removed, `terminalText`); then only the
 * block that asked re-renders (content/code.lazy.ts's `whenLoaded`). A failed load leaves the plain
 * text, and the next block that asks tries again.
 * @packageDocumentation
 */
import { html, type TemplateResult } from 'lit';
import { terminalText } from '../../src/index.ts';
import { ansiChunk } from './ansi.chunk.ts';
import type { AnsiRun } from './ansi.ts';
import { whenLoaded } from './code.lazy.ts';

/** Runs as Lit templates: text through text bindings, class and style through attribute bindings. */
function runTemplates(runs: readonly AnsiRun[]): unknown[] {
  return runs.map((r): string | TemplateResult =>
    r.classes || r.style ? html`<span class=${r.classes} style=${r.style}>${r.text}</span>` : r.text,
  );
}

/** Runs of the last outputs drawn, so a block redrawn with the same output does not parse it again. */
const cache = new Map<string, AnsiRun[]>();
const CACHE_SIZE = 16;

function runsOf(m: typeof import('./ansi.ts'), output: string): AnsiRun[] {
  let runs = cache.get(output);
  if (!runs) {
    runs = m.ansiRuns(output);
    cache.set(output, runs);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return runs;
}

/** `output` with its ANSI colours once the chunk is loaded; as plain text until then. */
export function ansiText(output: string): unknown {
  return whenLoaded(ansiChunk, (m) => runTemplates(runsOf(m, output)), terminalText(output));
}
