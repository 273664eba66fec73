/** `npm run bench` options: the sections, the sizes of a full and a quick run, the command line. */
import { join, resolve } from 'node:path';

export const SECTIONS = [
  'throughput',
  'main-thread',
  'streaming',
  'reopen',
  'scale',
  'export',
  'find',
  'latency',
  'size',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface Config {
  runs: number;
  /** Chunks per flood for Silo and its baselines (all but the naive client). */
  flood: number;
  /** Chunks per flood for the naive client (one transaction per update is slow; rates are compared). */
  naiveFlood: number;
  streamRate: number;
  streamCount: number;
  chunksPerMessage: number;
  /** The journal reopened, exported and searched (and the base of the scale ratio). */
  reopenUpdates: number;
  /** The big journal of the scale section (reopen, memory), compared with `reopenUpdates`. */
  scaleUpdates: number;
  /** Runs of the scale section (each reopens the big journal and the base one, paired). */
  scaleRuns: number;
  /** Runs of the export and find sections. */
  journalRuns: number;
  latencyRate: number;
  latencyCount: number;
  /** One long answer: its size in characters, its chunks, and chunks fed per frame. */
  answerBytes: number;
  answerChunks: number;
  answerChunksPerFrame: number;
}

export const FULL: Config = {
  runs: 5,
  flood: 100_000,
  naiveFlood: 5000,
  streamRate: 5000,
  streamCount: 50_000,
  chunksPerMessage: 400,
  reopenUpdates: 100_000,
  scaleUpdates: 1_000_000,
  scaleRuns: 2,
  journalRuns: 3,
  latencyRate: 100,
  latencyCount: 500,
  answerBytes: 50_000,
  answerChunks: 4000,
  answerChunksPerFrame: 20,
};

export const QUICK: Config = {
  runs: 2,
  flood: 20_000,
  naiveFlood: 1000,
  streamRate: 5000,
  streamCount: 10_000,
  chunksPerMessage: 400,
  reopenUpdates: 10_000,
  scaleUpdates: 100_000,
  scaleRuns: 2,
  journalRuns: 2,
  latencyRate: 100,
  latencyCount: 200,
  answerBytes: 50_000,
  answerChunks: 4000,
  answerChunksPerFrame: 20,
};

export interface Options {
  quick: boolean;
  config: Config;
  out: string;
  only: Section[];
}

export function parseArgs(argv: string[], root: string): Options {
  let quick = false;
  let runs: number | undefined;
  let out: string | undefined;
  let only: Section[] = [...SECTIONS];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--quick') quick = true;
    else if (a === '--runs') runs = Math.max(1, Number(argv[++i]));
    else if (a === '--out') out = resolve(argv[++i] ?? '.bench/latest.json');
    else if (a === '--only') {
      only = (argv[++i] ?? '')
        .split(',')
        .filter((s): s is Section => (SECTIONS as readonly string[]).includes(s));
    } else if (a === '--help' || a === '-h') {
      console.log(`npm run bench [-- --quick] [--runs N] [--only ${SECTIONS.join(',')}] [--out file.json]`);
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  const base = quick ? QUICK : FULL;
  const config = {
    ...base,
    ...(runs
      ? { runs, scaleRuns: Math.min(runs, base.scaleRuns), journalRuns: Math.min(runs, base.journalRuns) }
      : {}),
  };
  // A full run of every section is "the latest figures"; smaller runs never overwrite them.
  const partial = only.length < SECTIONS.length;
  out ??= join(root, `.bench/latest${quick ? '-quick' : ''}${partial ? '-partial' : ''}.json`);
  return { quick, config, out, only };
}
