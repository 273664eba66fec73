/**
 * The benchmark page. The Node runner (bench/run.ts) calls `window.siloBench.*` one measurement at a
 * time; every function sets up what it needs, measures, tears it down and returns plain numbers.
 * Silo itself is loaded from the built library bundles (`./silo.js`, `./components.js`, whose default
 * worker is `./worker.js`), exactly as an app would ship them.
 */
import '../../components/index.ts';
import { exportBench } from './export.ts';
import { deleteDatabase } from './measure.ts';
import { reopenBench } from './reopen.ts';
import { scaleBench } from './scale.ts';
import { streamingBench } from './streaming.ts';
import { turnsBench } from './turns.ts';

const bench = {
  ...turnsBench,
  ...streamingBench,
  ...reopenBench,

  deleteDatabase,

  ...scaleBench,
  ...exportBench,
};

export type SiloBench = typeof bench;

declare global {
  interface Window {
    siloBench: SiloBench;
    /** Exposed by the runner: samples per-thread CPU time of the renderer (see bench/cpu.ts). */
    siloBenchCpu?: (phase: 'start' | 'end') => Promise<void>;
  }
}

window.siloBench = bench;
