/**
 * How long the page's main thread was held, for tests that bound it: in Chromium the longest task
 * (`PerformanceObserver` with `longtask` entries: tasks over 50 ms, rendering included), elsewhere
 * (Firefox has no long-task entries) the longest gap between two animation frames.
 * @packageDocumentation
 */

/** A measurement under way; `stop()` ends it and gives the longest hold in milliseconds (0: none). */
export interface MainThreadWatch {
  /** `longtask` (Chromium) or `frame gap` (elsewhere). */
  readonly kind: string;
  stop(): number;
}

/** Starts measuring how long the main thread is held (see the module's description). */
export function watchMainThread(): MainThreadWatch {
  if (PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
    let longest = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    return {
      kind: 'longtask',
      stop() {
        for (const e of observer.takeRecords()) longest = Math.max(longest, e.duration);
        observer.disconnect();
        return Math.round(longest);
      },
    };
  }
  return watchFrameGaps();
}

/** A frame-gap watch; `frames` is how many animation frames ran so far. */
export interface FrameGapWatch extends MainThreadWatch {
  readonly frames: number;
}

/** Starts measuring the longest gap between two animation frames, in any browser. */
export function watchFrameGaps(): FrameGapWatch {
  let last = performance.now();
  let longest = 0;
  let running = true;
  let frames = 0;
  const tick = (now: number) => {
    frames++;
    longest = Math.max(longest, now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {
    kind: 'frame gap',
    get frames() {
      return frames;
    },
    stop() {
      running = false;
      return Math.round(Math.max(longest, performance.now() - last));
    },
  };
}
