/**
 * What `<silo-chat>` does not need for its first paint, loaded with `import()` when first needed:
 * `<silo-elicitation>` (a question's form), requested by the first question row a transcript renders
 * and, once the page is idle after its first paint, by the components entry (so a page that writes
 * `<silo-elicitation>` itself, in its markup or from script, gets it without a call; the first rows of
 * a transcript with no question do not wait for it). Bundlers split it into its own chunk.
 * @packageDocumentation
 */
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

/** Loads `<silo-elicitation>` once the page is idle (after first paint); failures are left to a later load. */
export function loadElicitationWhenIdle(): void {
  const load = () => void loadElicitation().catch(() => undefined);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}
