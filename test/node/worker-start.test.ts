// The error of a worker that could not start (src/worker-start.ts): it names the fix for the setup
// the page can tell — Vite's dev optimizer, webpack, a bundler that wrote a file: URL, the package's
// own file in place, a worker the page passed in — and else each bundler's fix. The packed package's
// end-to-end test (test/e2e/package.test.ts) sees the last one from a page whose bundle was moved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { workerStartAdvice, workerStartError } from '../../src/worker-start.ts';

const FIXES = {
  vite: "optimizeDeps: { exclude: ['silo-acp'] }",
  webpack: 'output.publicPath',
  rollup: '@web/rollup-plugin-import-meta-assets',
  esbuild: 'copy node_modules/silo-acp/dist/worker.js to that URL',
  standalone: 'keep the files of dist/standalone/ together',
  csp: "worker-src 'self'",
  own: 'createAgentsService({ worker })',
};

/** Which of {@link FIXES} `advice` names. */
const named = (advice: string) =>
  Object.entries(FIXES)
    .filter(([, text]) => advice.includes(text))
    .map(([name]) => name);

test('each setup the page can tell gets its own fix, and only that', () => {
  assert.deepEqual(
    named(workerStartAdvice({ url: 'http://localhost:5173/node_modules/.vite/deps/worker.js' })),
    ['vite', 'own'],
  );
  assert.deepEqual(named(workerStartAdvice({ bundler: 'webpack' })), ['webpack', 'csp', 'own']);
  assert.match(
    workerStartAdvice({ url: 'file:///node_modules/silo-acp/dist/worker.js' }),
    /^Your bundler emits/,
  );
  assert.deepEqual(named(workerStartAdvice({ url: 'http://a.test/node_modules/silo-acp/dist/worker.js' })), [
    'csp',
  ]);
  assert.deepEqual(
    named(workerStartAdvice({ url: 'http://a.test/node_modules/silo-acp/dist/standalone/worker.js' })),
    ['csp'],
  );
  assert.match(
    workerStartAdvice(undefined),
    /^The worker passed to createAgentsService must run silo-acp\/worker/,
  );
});

test("a worker missing beside a bundle (Rollup, esbuild, a moved file) gets every bundler's fix", () => {
  assert.deepEqual(named(workerStartAdvice({ url: 'http://a.test/assets/worker.js' })), [
    'rollup',
    'esbuild',
    'standalone',
    'own',
  ]);
});

test('the error names the URL it tried, never a build-time file: path, and carries it as data', () => {
  const error = workerStartError(
    { url: 'http://a.test/assets/worker.js' },
    {
      message: 'Uncaught SyntaxError: Unexpected token',
      filename: 'http://a.test/assets/chunk.js',
      lineno: 3,
      afterMs: 1234,
    },
  );
  assert.equal(error.code, 'internal');
  assert.match(
    error.message,
    /^The Silo worker could not start from http:\/\/a\.test\/assets\/worker\.js: it threw Uncaught SyntaxError: Unexpected token \(http:\/\/a\.test\/assets\/chunk\.js:3\), 1\.2 s after it was started\. /,
  );
  assert.deepEqual(error.data, {
    workerUrl: 'http://a.test/assets/worker.js',
    cause: 'threw',
    afterMs: 1234,
  });
  const parcel = workerStartError({ url: 'file:///node_modules/silo-acp/dist/worker.js' }, { afterMs: 20 });
  assert.match(
    parcel.message,
    /^The Silo worker could not start: its script or one of its imports did not load, 0\.0 s after it was started \(.*\)\. Your bundler emits/,
  );
  assert.deepEqual(parcel.data, { workerUrl: undefined, cause: 'load', afterMs: 20 });
});
