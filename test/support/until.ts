/**
 * Polls a condition on every animation frame until it holds; rejects with `what` if it does not hold
 * within `timeoutMs` (a bound on a broken test, not a wait on time).
 */
export async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
}
