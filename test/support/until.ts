/**
 * The one wait of the browser tests: poll a condition on every animation frame until it holds. No
 * sleeps: the timeout bounds a broken test, it is not a wait on time.
 * @packageDocumentation
 */

/** Waits one animation frame. */
export function frame(): Promise<void> {
  return new Promise((r) => requestAnimationFrame(() => r()));
}

/**
 * Polls `condition` on every animation frame until it returns a truthy value, and resolves to that
 * value; rejects with `what` if it does not within `timeoutMs`. A condition may be async (one that
 * asks the test server, say): it is awaited before the next frame's poll.
 */
export async function until<T>(
  condition: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await frame();
  }
}
