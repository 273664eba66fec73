// Browser tests: real Chromium and Firefox ESR from Debian, TypeScript through esbuild, and the
// real bridge + reference agent started by a plugin on port 0 for every run.
import { createServer } from 'node:net';
import minifyTemplates from '@lit-labs/rollup-plugin-minify-html-literals';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import { chromeLauncher } from '@web/test-runner-chrome';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { chromiumArgs, ensureBrowsers } from './scripts/browsers.mjs';
import { templateMinifying } from './scripts/build.mjs';
import { siloFixtures } from './test/support/fixtures-plugin.mjs';
import { requestLog, requestLogSummary } from './test/support/request-log.mjs';
import { siloSummary } from './test/support/summary-plugin.mjs';
import { siloTestServices } from './test/support/wtr-plugin.mjs';

const paths = ensureBrowsers(['chromium', 'firefox']);

/**
 * A free port from the kernel. The test runner's default (the first free port from 8000, found by
 * probing) let two runs on one machine — parallel worktrees, CI jobs — end up on port 8000 at once,
 * and Firefox (which resolves localhost to ::1 first) then ran the other run's test files (seen: a
 * run reporting the summary figures of an older checkout). SILO_WTR_PORT pins a port.
 */
async function freePort() {
  if (process.env.SILO_WTR_PORT) return Number(process.env.SILO_WTR_PORT);
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
// Failed, cut-off and slow dev-server requests, logged as they happen (test/support/request-log.mjs).
const requests = requestLog();

const only = process.env.SILO_BROWSERS?.split(',') ?? ['chromium', 'firefox'];

const browsers = [];
if (only.includes('chromium')) {
  browsers.push(
    chromeLauncher({ launchOptions: { executablePath: paths.chromium, headless: true, args: chromiumArgs } }),
  );
}
if (only.includes('firefox')) {
  browsers.push(
    puppeteerLauncher({
      launchOptions: { browser: 'firefox', executablePath: paths.firefox, headless: true },
    }),
  );
}

export default {
  port: await freePort(),
  files: process.env.SILO_TEST_FILES?.split(',') ?? ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'import', 'default'] },
  browsers,
  concurrency: 1,
  concurrentBrowsers: 1,
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 600000,
  testFramework: { config: { timeout: 60000 } },
  // SILO_GREP=<regexp>: run only the tests whose full title matches; the others are reported skipped
  // (see test/support/grep.js for why mocha's own grep made such a run exit 1).
  ...(process.env.SILO_GREP
    ? {
        testRunnerHtml: (framework) =>
          `<!DOCTYPE html><html><head></head><body>` +
          `<script type="module" src="${framework}"></script>` +
          `<script>window.__SILO_GREP__ = ${JSON.stringify(process.env.SILO_GREP)};</script>` +
          `<script type="module" src="/test/support/grep.js"></script></body></html>`,
      }
    : {}),
  middleware: [requests.middleware],
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    // SILO_MINIFY_TEMPLATES=1: the components' Lit templates minified as the library build minifies
    // them (scripts/build.mjs), to check that the minifier changes no rendering.
    ...(process.env.SILO_MINIFY_TEMPLATES ? [fromRollup(minifyTemplates)(templateMinifying())] : []),
    siloTestServices(),
    siloFixtures(),
    siloSummary(),
    requestLogSummary(requests),
  ],
};
