/**
 * For Node-side tests: polls `check` every `intervalMs` until it holds; rejects naming `what` after
 * `timeoutMs` (a bound on a broken test, not a wait on time). The browser's twin is `until.ts`, which
 * polls once a frame.
 */
export async function pollUntil(
  check: () => boolean,
  what: string | (() => string),
  timeoutMs = 30_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
