// Browser tests: real Chromium and Firefox ESR from Debian, TypeScript through esbuild, and the
// real bridge + reference agent started by a plugin on port 0 for every run.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { chromiumArgs, ensureBrowsers } from './scripts/browsers.mjs';
import { siloFixtures } from './test/support/fixtures-plugin.mjs';
import { siloSummary } from './test/support/summary-plugin.mjs';
import { siloTestServices } from './test/support/wtr-plugin.mjs';

const paths = ensureBrowsers(['chromium', 'firefox']);
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
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    siloTestServices(),
    siloFixtures(),
    siloSummary(),
  ],
};
