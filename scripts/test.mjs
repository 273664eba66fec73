// `npm test`: Node's test runner for the Node side, the demo end to end in Chromium (test/e2e), then
// @web/test-runner in Chromium and Firefox ESR.
// Flags: --node-only, --browser-only, --long (the long reliability variants; also SILO_LONG=1),
// --quick (`npm run test:quick`, the developer loop: the Node tests and the browser suite in Chromium,
// side by side, without the demo e2e, Firefox and the fault-injection files in QUICK_SKIPS).
// SILO_BROWSERS, SILO_TEST_FILES and SILO_GREP narrow the browser suite (docs/testing.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printSummary } from '../test/support/summary-print.mjs';
import { ensureBrowsers } from './browsers.mjs';

const args = process.argv.slice(2);
const env = { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' };
const quick = args.includes('--quick');
/**
 * Browser files `--quick` leaves to `npm test`: the fault-injection and restart tests (agents killed,
 * bridges restarted, reconnect back-off), which take about half of the Chromium run.
 */
const QUICK_SKIPS = [
  'reliability/reliability.test.ts',
  'reliability/reliability-load.test.ts',
  'session/restore.test.ts',
];
for (const f of QUICK_SKIPS)
  if (!existsSync(`test/browser/${f}`))
    throw new Error(`QUICK_SKIPS names test/browser/${f}, which does not exist`);
if (quick) {
  env.SILO_BROWSERS = 'chromium';
  env.SILO_TEST_FILES ??= readdirSync('test/browser', { recursive: true })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.test.ts') && !QUICK_SKIPS.includes(f))
    .sort()
    .map((f) => `test/browser/${f}`)
    .join(',');
}
if (args.includes('--long')) env.SILO_LONG = '1';
// The reliability and security suite appends its figures here; printed at the end.
env.SILO_SUMMARY_FILE = join(mkdtempSync(join(tmpdir(), 'silo-summary-')), 'summary.jsonl');
let failed = false;

function run(cmd, cmdArgs) {
  console.log(`\n[silo] ${cmd} ${cmdArgs.join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env });
  if (r.status !== 0) failed = true;
}

/** Runs a command with its output held back, so that it can run beside another; resolves on exit. */
function runHeld(cmd, cmdArgs) {
  const child = spawn(cmd, cmdArgs, { env });
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => out.push(c));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      console.log(`\n[silo] ${cmd} ${cmdArgs.join(' ')}`);
      process.stdout.write(Buffer.concat(out));
      if (code !== 0) failed = true;
      resolve();
    });
  });
}

let nodeDone = Promise.resolve();
if (!args.includes('--browser-only')) {
  const files = readdirSync('test/node')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/node/${f}`);
  const nodeArgs = ['--import', 'tsx', '--test', '--test-concurrency=1', ...files];
  // --quick runs the Node tests beside the browser suite and prints their output when they end.
  if (quick && !args.includes('--node-only')) nodeDone = runHeld(process.execPath, nodeArgs);
  else run(process.execPath, nodeArgs);
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
await nodeDone;
if (!printSummary(env.SILO_SUMMARY_FILE, env.SILO_LONG === '1')) failed = true;
process.exit(failed ? 1 : 0);
