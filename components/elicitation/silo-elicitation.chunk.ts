/**
 * What `<silo-chat>` does not need for its first paint, loaded with `import()` when first needed:
 * `<silo-elicitation>` (a question's form), requested by the first question row a transcript renders
 * (so a transcript's first rows, with no question, never load it) and, once the page is idle, by the
 * components entry when the document itself holds a `<silo-elicitation>` not yet defined (a page that
 * writes one in its HTML). A page that creates one later calls {@link loadElicitation}. Bundlers split
 * it into its own chunk.
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

/**
 * Once the page is idle (after first paint), loads `<silo-elicitation>` if the document holds one not
 * yet defined; failures are left to a later load. A question inside a transcript loads it itself.
 */
export function loadElicitationWhenIdle(): void {
  const load = () => {
    if (document.querySelector('silo-elicitation:not(:defined)'))
      void loadElicitation().catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}
