// `npm test`: Node's test runner for the Node side, the demo end to end in Chromium (test/e2e), then
// @web/test-runner in Chromium and Firefox ESR.
// Flags: --node-only, --browser-only, --long (the long reliability variants; also SILO_LONG=1),
// --quick (`npm run test:quick`: the Node tests and the browser suite in Chromium only; no demo e2e,
// no Firefox). SILO_BROWSERS, SILO_TEST_FILES and SILO_GREP narrow the browser suite (docs/testing.md).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printSummary } from '../test/support/summary-print.mjs';
import { ensureBrowsers } from './browsers.mjs';

const args = process.argv.slice(2);
const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' };
const quick = args.includes('--quick');
if (quick) env.SILO_BROWSERS = 'chromium';
if (args.includes('--long')) env.SILO_LONG = '1';
// The reliability and security suite appends its figures here; printed at the end.
env.SILO_SUMMARY_FILE = join(mkdtempSync(join(tmpdir(), 'silo-summary-')), 'summary.jsonl');
let failed = false;

function run(cmd, cmdArgs) {
  console.log(`\n[silo] ${cmd} ${cmdArgs.join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env });
  if (r.status !== 0) failed = true;
}

if (!args.includes('--browser-only')) {
  const files = readdirSync('test/node')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/node/${f}`);
  run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files]);
}
if (!args.includes('--node-only')) {
  const paths = ensureBrowsers(['chromium', 'firefox']);
  env.CHROME_PATH = paths.chromium;
  env.FIREFOX_PATH = paths.firefox;
  // The demo end to end (npm start's pieces + Chromium through puppeteer-core); screenshots/.
  const e2e = readdirSync('test/e2e')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/e2e/${f}`);
  if (!quick) run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...e2e]);
  run(process.execPath, [
    'node_modules/@web/test-runner/dist/bin.js',
    '--config',
    'web-test-runner.config.mjs',
  ]);
}
if (!printSummary(env.SILO_SUMMARY_FILE, env.SILO_LONG === '1')) failed = true;
process.exit(failed ? 1 : 0);
