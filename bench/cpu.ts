/**
 * CPU time of the browser's renderer threads, from Linux `/proc` (no instrumentation inside the
 * browser, so nothing it measures slows what is measured). The page calls the exposed
 * `siloBenchCpu('start' | 'end')` around a timed flood; the runner samples every thread of the
 * browser's renderer processes and attributes the difference to the page's main thread
 * (the renderer process's main thread) and to dedicated workers (threads named `DedicatedWorker…`). Threads that started during the
 * flood count from zero; a thread that ended before the `end` sample is not counted (the page samples
 * before it tears anything down). Returns undefined where `/proc` cannot be read (not Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ThreadTime {
  name: string;
  ns: number;
}

export interface CpuSplit {
  /** CPU time of the page's main thread(s), ms. */
  mainMs: number;
  /** CPU time of dedicated worker threads, ms. */
  workerMs: number;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function children(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === pid) out.push(Number(name));
  }
  return out;
}

/** Renderer processes among the descendants of `browserPid`. */
function renderers(browserPid: number): number[] {
  const found: number[] = [];
  const queue = [browserPid];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const child of children(pid)) {
      queue.push(child);
      if (read(`/proc/${child}/cmdline`)?.includes('--type=renderer')) found.push(child);
    }
  }
  return found;
}

function sample(pids: number[]): Map<string, ThreadTime> {
  const threads = new Map<string, ThreadTime>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const name = read(`/proc/${pid}/task/${tid}/comm`)?.trim();
      const ns = Number(read(`/proc/${pid}/task/${tid}/schedstat`)?.split(' ')[0]);
      // A process's main thread has its pid as thread id (Chromium renames it, e.g. CrRendererMain).
      if (name !== undefined && Number.isFinite(ns))
        threads.set(`${pid}/${tid}`, { name: tid === String(pid) ? 'main' : name, ns });
    }
  }
  return threads;
}

/** Samples renderer threads on `start` and `end`; `take()` returns the last start→end split. */
export function cpuSampler(browserPid: number | undefined) {
  let pids: number[] = [];
  let before = new Map<string, ThreadTime>();
  let split: CpuSplit | undefined;
  const readable = browserPid !== undefined && read('/proc/self/schedstat') !== undefined;
  return {
    mark(phase: 'start' | 'end'): void {
      if (!readable) return;
      if (phase === 'start') {
        pids = renderers(browserPid);
        before = sample(pids);
        split = undefined;
        return;
      }
      let main = 0;
      let worker = 0;
      for (const [key, t] of sample(pids)) {
        const delta = t.ns - (before.get(key)?.ns ?? 0);
        if (t.name === 'main') main += delta;
        else if (t.name.startsWith('DedicatedWorker')) worker += delta;
      }
      split = { mainMs: main / 1e6, workerMs: worker / 1e6 };
    },
    /** The split measured by the last start/end pair (and forgets it). */
    take(): CpuSplit | undefined {
      const s = split;
      split = undefined;
      return s;
    },
  };
}
