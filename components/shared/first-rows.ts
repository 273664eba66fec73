/**
 * The first rows' claim on the network: loads a transcript's first rows wait for (its rows and
 * Markdown chunks, until it has drawn with them) are registered here while under way, and work that
 * is only wanted "once the page is idle" (loading `<silo-elicitation>`) waits for them first, so it
 * does not compete with them. No Lit in it; the components entry and the transcript share it.
 * @packageDocumentation
 */

/** Held loads still under way (each settles, whatever the load's outcome). */
const held = new Set<Promise<void>>();

/**
 * Registers `work` as part of a transcript's first rows: {@link afterFirstRows} waits for it. Its
 * outcome does not matter (a failed load releases the hold as a success would); a `work` that never
 * settles holds idle work back for good, so callers release on disconnect.
 */
export function holdForFirstRows(work: Promise<unknown>): void {
  const done = work.then(
    () => undefined,
    () => undefined,
  );
  held.add(done);
  void done.then(() => held.delete(done));
}

/**
 * Resolves once no first-rows load is held (at once when none is), including loads held while it
 * waits. Never rejects.
 */
export async function afterFirstRows(): Promise<void> {
  while (held.size) await Promise.all(held);
}

/** Calls `fn` in an idle callback (`requestIdleCallback`, timeout `timeout` ms; a timer where there is none). */
function whenIdle(fn: () => void, timeout: number): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout });
  else setTimeout(fn, 200);
}

/**
 * Calls `fn` once the page is idle and no transcript's first rows are loading: at the first idle
 * callback if none is held then, else at the first idle callback after the held loads settle.
 */
export function whenIdleAfterFirstRows(fn: () => void, timeout = 2000): void {
  whenIdle(() => {
    if (!held.size) fn();
    else void afterFirstRows().then(() => whenIdle(fn, timeout));
  }, timeout);
}
