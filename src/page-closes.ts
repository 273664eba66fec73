/**
 * The sessions this page is closing, across every `AgentsService` it holds. A service's
 * worker keeps its session's Web Lock until the agent has let the session go (worker/ownership.ts),
 * so a service that restored the session meanwhile would find it driven and follow it, and stay
 * following once the close is done: a component remounted with a service of its own (React's
 * StrictMode, a `<silo-chat>` swapped for another on the same `cwd`) would come up read-only. A
 * `connect` with `resume` therefore waits for this page's close of that session first. Within one
 * service its worker does the same (worker/service.ts), for a session continued by another too.
 */
const closing = new Map<string, Promise<void>>();

/**
 * Records that the page is closing `sessionId` until `done` settles. Every close settles: the
 * worker bounds the agent's answer, and a call to a worker that is gone rejects.
 */
export function trackClose(sessionId: string, done: Promise<unknown>): void {
  if (!sessionId) return;
  // Two handles of one session may close at once: a connect waits for both.
  const settled = Promise.all([closing.get(sessionId), done.catch(() => {})]).then(() => {});
  closing.set(sessionId, settled);
  void settled.then(() => {
    if (closing.get(sessionId) === settled) closing.delete(sessionId);
  });
}

/** Resolves once every close of `sessionId` this page started has settled (at once when none is in flight). */
export function closedInPage(sessionId: string): Promise<void> {
  return closing.get(sessionId) ?? Promise.resolve();
}
