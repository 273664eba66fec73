/**
 * Page side of the benchmarks added for #32 (scale, find): what they do with a reopened transcript,
 * and the transcript's find (the export's: export.ts). Merged into `window.siloBench`.
 */
import type { SiloTranscript } from '../../components/transcript/silo-transcript.ts';
import { afterPaint } from './measure.ts';

const transcript = () => document.querySelector('silo-transcript') as SiloTranscript | null;

export const scaleBench = {
  /**
   * Waits until the open `<silo-transcript>` has folded its whole source (after the tail first, the
   * rest of the journal comes in one read): its `updateComplete`, which waits for the source's reads
   * and the render of what they applied; then checks the model holds all `updates` (its last applied
   * `seq`, read from outside) and lets one frame paint. Returns the rows and the time.
   */
  async settle(updates: number, timeoutMs: number) {
    const el = transcript();
    if (!el) throw new Error('no <silo-transcript> is open');
    const t0 = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      el.updateComplete,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the transcript did not finish loading')), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    const last = (el.model as unknown as { lastSeq: number }).lastSeq;
    if (last !== updates - 1) throw new Error(`the transcript folded ${last + 1} of ${updates} updates`);
    await afterPaint();
    return { rows: el.model.rows.length, ms: performance.now() - t0 };
  },

  /**
   * Types `query` into the open transcript's find, one character every `keyMs` (each keystroke a
   * `find()`, as the chat's find bar does), and times from the last keystroke (typing stops) to the
   * first `silo-find` of the whole query with a current match, to that match painted (after the
   * paint of the frame in which its row shows `data-find="active"`), and to the search's end.
   */
  async typeFind(query: string, keyMs: number, timeoutMs: number) {
    const el = transcript();
    if (!el) throw new Error('no <silo-transcript> is open');
    let firstMs: number | undefined;
    let t0 = 0;
    let total = 0;
    const heard = (e: CustomEvent<{ query: string; current: number; total: number }>) => {
      if (e.detail.query !== query || e.detail.current < 1) return;
      firstMs ??= performance.now() - t0;
      total = e.detail.total;
    };
    el.addEventListener('silo-find', heard);
    try {
      for (let i = 1; i < query.length; i++) {
        void el.find(query.slice(0, i)).catch(() => {});
        await new Promise((r) => setTimeout(r, keyMs));
      }
      t0 = performance.now();
      const done = el.find(query);
      let paintedMs: number | undefined;
      while (performance.now() - t0 < timeoutMs) {
        await afterPaint();
        if (el.shadowRoot?.querySelector('[data-find="active"]')) {
          paintedMs = performance.now() - t0;
          break;
        }
      }
      const result = await done;
      const doneMs = performance.now() - t0;
      return { firstMs, paintedMs, doneMs, total: result.total || total, current: result.current };
    } finally {
      el.removeEventListener('silo-find', heard);
      el.clearFind();
    }
  },
};
