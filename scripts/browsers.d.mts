/** Types for scripts/browsers.mjs (for TypeScript callers such as bench/run.ts). */
export declare function ensureBrowsers<N extends 'chromium' | 'firefox'>(names: N[]): Record<N, string>;
export declare const chromiumArgs: string[];
