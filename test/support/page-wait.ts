/** Waiting on a condition inside a puppeteer page, for the end-to-end tests. */
import type { Page } from 'puppeteer-core';

/**
 * Polls `fn(...args)` in the page on every animation frame until it returns something truthy. Rejects
 * naming `what` (and puppeteer's reason) when it has not held after `timeout` ms.
 */
export async function waitFor<A extends unknown[]>(
  page: Page,
  what: string,
  fn: (...args: A) => unknown,
  args: A = [] as unknown as A,
  timeout = 30_000,
): Promise<void> {
  try {
    await page.waitForFunction(fn as (...a: unknown[]) => unknown, { timeout, polling: 'raf' }, ...args);
  } catch (e) {
    throw new Error(`Timed out waiting for: ${what} (${(e as Error).message.split('\n')[0]})`);
  }
}
