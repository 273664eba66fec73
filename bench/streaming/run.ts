/**
 * 2b. One long answer streaming: the main-thread time per frame at the start and at the end of one
 * 50 KB Markdown answer streamed into `<silo-transcript>` in 4,000 chunks (flat = ≤ 1.5×).
 */
import { type Bench, call } from '../harness.ts';
import { elapsed, figures, judge, log, range } from '../results.ts';
import { figure, formatNumber, quantile } from '../stats.ts';

export async function streaming({ page, config }: Bench): Promise<void> {
  const start: number[] = [];
  const end: number[] = [];
  const ratio: number[] = [];
  const whole: number[] = [];
  let frames = 0;
  for (let i = 0; i < config.runs; i++) {
    const r = await call(
      page,
      'streamAnswer',
      config.answerBytes,
      config.answerChunks,
      config.answerChunksPerFrame,
    );
    const tenth = Math.max(1, Math.floor(r.frames.length / 10));
    const a = quantile(r.frames.slice(0, tenth), 0.5);
    const b = quantile(r.frames.slice(-tenth), 0.5);
    start.push(a);
    end.push(b);
    ratio.push(b / a);
    whole.push(r.wholeRenderMs);
    frames = r.frames.length;
    if (r.rendered < r.chars / 2)
      throw new Error(`the answer was not rendered (${r.rendered} of ${r.chars} characters)`);
    const split = (xs: number[]) =>
      `render ${formatNumber(quantile(xs.slice(0, tenth), 0.5), 2)} → ${formatNumber(quantile(xs.slice(-tenth), 0.5), 2)}`;
    log(
      `streaming run ${i + 1}/${config.runs}: per frame ${formatNumber(a, 2)} ms at the start, ${formatNumber(b, 2)} ms at the end (${formatNumber(b / a, 2)}×; ${split(r.renders)} ms, layout ${split(r.layouts).slice(7)} ms); whole-answer Markdown render ${formatNumber(r.wholeRenderMs, 1)} ms (${elapsed()})`,
    );
  }
  const endOverStart = figure(ratio, '×');
  figures.streaming = {
    answerChars: config.answerBytes,
    chunks: config.answerChunks,
    chunksPerFrame: config.answerChunksPerFrame,
    frames,
    frameStart: figure(start, 'ms'),
    frameEnd: figure(end, 'ms'),
    endOverStart,
    wholeAnswerMarkdownRender: figure(whole, 'ms'),
  };
  judge({
    section: 'streaming',
    name: `main-thread time per frame, end / start of one ${formatNumber(config.answerBytes / 1000)} KB answer`,
    value: `${range(endOverStart, 2, '×')}: ${formatNumber(figure(start, 'ms').median, 2)} → ${formatNumber(figure(end, 'ms').median, 2)} ms`,
    measured: endOverStart.median,
    op: '≤',
    limit: 1.5,
    unit: '×',
    digits: 2,
  });
}
