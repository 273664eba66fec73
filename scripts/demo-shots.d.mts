/** Types for scripts/demo-shots.mjs (for test/e2e/demo-layout.test.ts). */
import type { Browser, Page } from 'puppeteer-core';

export declare const SIZES: readonly (readonly [number, number])[];

/** One measured screenshot. */
export interface DemoShot {
  readonly file: string;
  readonly tab: 'driver' | 'follower';
  /** `360×640` */
  readonly size: string;
  readonly scheme: 'light' | 'dark';
  /** What is wrong with its geometry (scripts/layout-check.mjs); empty when it holds. */
  readonly problems: string[];
}

export declare function shootDemo(options: {
  browser: Browser;
  demo: { readonly url: string; launchUrl(): string };
  dir: string;
}): Promise<{ shots: DemoShot[]; driver: Page; follower: Page }>;
