/**
 * What `<silo-chat>` does not need for its first paint, loaded with `import()` when first needed:
 * `<silo-elicitation>` (a question's form), requested by the first question row a transcript renders
 * and, once the page is idle after its first paint and a transcript's first rows, by the components
 * entry (so a page that writes `<silo-elicitation>` itself, in its markup or from script, gets it
 * without a call; the first rows of a transcript with no question neither wait for it nor share the
 * network with it). Bundlers split it into its own chunk.
 * @packageDocumentation
 */
import { whenIdleAfterFirstRows } from '../shared/first-rows.ts';
import type { SiloElicitation } from './silo-elicitation.ts';

let elicitation: Promise<typeof SiloElicitation> | undefined;

/**
 * Loads and registers `<silo-elicitation>` (once; later calls return the same promise) and resolves to
 * its class. Rejects if the chunk cannot be loaded (a network error); the next call tries again.
 */
export function loadElicitation(): Promise<typeof SiloElicitation> {
  elicitation ??= import('./silo-elicitation.define.ts').then(
    (m) => m.SiloElicitation,
    (error: unknown) => {
      elicitation = undefined;
      throw error;
    },
  );
  return elicitation;
}

/**
 * Loads `<silo-elicitation>` once the page is idle after its first paint and after the first rows of
 * any `<silo-transcript>` connected by then (their rows and Markdown chunks, shared/first-rows.ts), so
 * that it does not compete with them; a page with no transcript gets it at the first idle callback.
 * Failures are left to a later load.
 */
export function loadElicitationWhenIdle(): void {
  whenIdleAfterFirstRows(() => void loadElicitation().catch(() => undefined));
}
