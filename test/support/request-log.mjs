// Dev-server middleware for browser test runs: says which request failed when a page or a worker
// could not load its modules. A worker whose script (or one of its imports) did not load fires only
// a bare `error` event: the browser tells the page no URL and no status, and the worker's console is
// not in the runner's log, so the dev server is the one place that can name the request.
//
// Logged to stderr as `[silo-requests] …`, each when it happens:
//   - a response with status ≥ 400 (a 500 is the esbuild plugin's "Error while transforming file");
//   - a request the dev server threw on (rethrown: koa answers it with 500);
//   - a request whose connection closed before its response was sent (the browser gave up, or the
//     page that asked went away — a reload cancels its page's requests: that is logged too);
//   - a response that took longer than SILO_SLOW_REQUEST_MS (default 5000; a figure to read, never a
//     limit: nothing is cut short).
// At the end of the run, one line: how many requests, how many failed / closed early / slow, and the
// slowest three with their times.
import { performance } from 'node:perf_hooks';

const PREFIX = '[silo-requests]';
const write = (line) => process.stderr.write(`${PREFIX} ${line}\n`);

/** The middleware and the end-of-run summary; `slowMs` defaults to SILO_SLOW_REQUEST_MS or 5000. */
export function requestLog(slowMs = Number(process.env.SILO_SLOW_REQUEST_MS ?? 5000)) {
  const counts = { requests: 0, failed: 0, closedEarly: 0, slow: 0 };
  /** The slowest few requests: `{ ms, what }`, slowest first. */
  let slowest = [];
  const keepSlowest = (ms, what) => {
    slowest = [...slowest, { ms, what }].sort((a, b) => b.ms - a.ms).slice(0, 3);
  };

  async function middleware(ctx, next) {
    counts.requests++;
    const t0 = performance.now();
    const what = () => `${ctx.method} ${ctx.url} ${ctx.status}`;
    const since = () => Math.round(performance.now() - t0);
    // A worker's requests say who asked for them (Chromium: Sec-Fetch-Dest: worker / script).
    const dest = ctx.get('sec-fetch-dest');
    const from = dest ? ` (${dest})` : '';
    ctx.res.once('close', () => {
      const ms = since();
      keepSlowest(ms, what());
      if (!ctx.res.writableFinished) {
        counts.closedEarly++;
        write(`closed before its response was sent, after ${ms} ms: ${what()}${from}`);
        return;
      }
      if (ctx.status >= 400) {
        counts.failed++;
        write(`${ctx.status} after ${ms} ms: ${ctx.method} ${ctx.url}${from}`);
      } else if (ms > slowMs) {
        counts.slow++;
        write(`slow: ${ms} ms: ${what()}${from}`);
      }
    });
    try {
      await next();
    } catch (error) {
      write(`threw after ${since()} ms: ${ctx.method} ${ctx.url}${from}: ${error?.stack ?? error}`);
      throw error;
    }
  }

  function summary() {
    const top = slowest.map((s) => `${s.ms} ms ${s.what}`).join('; ');
    return (
      `${counts.requests} requests, ${counts.failed} failed (≥ 400), ${counts.closedEarly} closed before ` +
      `their response, ${counts.slow} slower than ${slowMs} ms; slowest: ${top || 'none'}`
    );
  }

  return { middleware, summary, counts };
}

/** A @web/test-runner plugin that prints {@link requestLog}'s summary when the server stops. */
export function requestLogSummary(log) {
  return {
    name: 'silo-request-log',
    serverStop() {
      write(log.summary());
    },
  };
}
