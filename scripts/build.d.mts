/** Types of scripts/build.mjs for TypeScript callers (the benchmark). */
export declare const entries: readonly { name: string; entry: string; also?: Record<string, string> }[];
export declare function buildLibrary(options?: {
  root?: string;
  outDir?: string;
  sourcemap?: boolean;
  /** The page and components entries import the package's dependencies by name. */
  external?: boolean;
}): Promise<void>;
