/**
 * What every benchmark is given: the page (with `window.siloBench`), the browser, the two bridges, the
 * CPU sampler, the built files, the run's configuration; and the calls into the page and the
 * DevTools protocol (heap sizes) they share.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { startBridgeProcess } from '../test/support/bridge-process.mjs';
import type { BundleSize } from './build.ts';
import type { cpuSampler } from './cpu.ts';
import type { Config } from './options.ts';
import type { SiloBench } from './page/main.ts';

export type Bridge = Awaited<ReturnType<typeof startBridgeProcess>>;
export type Cpu = ReturnType<typeof cpuSampler>;

export interface Bench {
  page: Page;
  browser: Browser;
  config: Config;
  quick: boolean;
  /** The bridge in front of the reference agent, and the one in front of the fast agent. */
  bridges: { reference: Bridge; fast: Bridge };
  cpu: Cpu;
  origin: string;
  buildDir: string;
  sizes: BundleSize[];
}

/** A bridge's address for the page. */
export const address = (b: Bridge) => ({ url: b.url, token: b.token });

/** Calls `window.siloBench[name](...args)` in the page. */
export function call<K extends keyof SiloBench>(
  page: Page,
  name: K,
  ...args: SiloBench[K] extends (...a: infer A) => unknown ? A : never
): Promise<SiloBench[K] extends (...a: never[]) => infer R ? Awaited<R> : never> {
  return page.evaluate(
    (n, a) => (window.siloBench[n as keyof SiloBench] as (...x: unknown[]) => unknown)(...a),
    name,
    args as unknown[],
  ) as never;
}

/** The page's JS heap in use after a full garbage collection (DevTools `Runtime.getHeapUsage`). */
export async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize;
  } finally {
    await cdp.detach();
  }
}

/**
 * The JS heap in use of the page and of each of its dedicated workers, after a garbage collection
 * in each. The benchmark's own connection never attaches to workers (that would instrument the
 * floods); this opens a second DevTools connection to the same browser for the moment of the
 * measure, which attaches to the page's workers, and closes it.
 */
export async function pageAndWorkerHeap(
  browser: Browser,
  page: Page,
): Promise<{ page: number; workers: { url: string; bytes: number }[] }> {
  const url = page.url();
  const second = await puppeteer.connect({
    browserWSEndpoint: browser.wsEndpoint(),
    protocolTimeout: 120_000,
  });
  try {
    const twin = (await second.pages()).find((p) => p.url() === url);
    if (!twin) throw new Error('the benchmark page is not visible on the second connection');
    // Workers are attached as the connection attaches to the page: give them a moment to show.
    const deadline = Date.now() + 5000;
    while (twin.workers().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const heapOf = async (
      send: (m: 'HeapProfiler.collectGarbage' | 'Runtime.getHeapUsage') => Promise<unknown>,
    ) => {
      await send('HeapProfiler.collectGarbage');
      return ((await send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    };
    const pageSession = await twin.createCDPSession();
    const pageBytes = await heapOf((m) => pageSession.send(m));
    await pageSession.detach();
    const workers: { url: string; bytes: number }[] = [];
    for (const w of twin.workers()) {
      workers.push({ url: w.url(), bytes: await heapOf((m) => w.client.send(m)) });
    }
    return { page: pageBytes, workers };
  } finally {
    await second.disconnect();
  }
}
