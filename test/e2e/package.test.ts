// The package as a user installs it (README "Install" and "Embedding", docs/install.md "Tested
// bundlers"): `npm pack`, the tarball installed into a temporary app with every bundler tested and into
// a temporary no-build page, a build with each bundler (Vite, Rollup, Parcel, webpack, esbuild), and
// `npx silo-bridge --demo-agent` started from the installed package (cwd in the temporary folder, no
// repository file on its path). Chromium (puppeteer-core) then opens each built app, the same app
// under `vite` dev, and the plain page: each starts the worker, sends a prompt, and `<silo-chat>`
// renders the answer. A page whose bundle was moved away from its worker gets the error naming the
// URL and each bundler's fix. Each page also imports the page API's sub-entries (`silo-acp/export`,
// `silo-acp/elicitation`; in the plain page their standalone files) and uses them: a Markdown and
// JSONL export, a JSONL parse error that is the main entry's `SiloError` (one copy of the class),
// answers validated with the main entry's default messages. A second test type-checks a React, a Vue
// and a Svelte usage of the elements against `silo-acp/react`, `silo-acp/vue` and `silo-acp/svelte`,
// and a wrong property type in each, which must fail.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { waitFor } from '../support/page-wait.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PROMPT = 'Hello from an installed package';
/** The version of a package the repository has installed (so the temporary app's install hits the cache). */
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

/**
 * What the temporary app installs beside the tarball, at the versions tested (README and
 * docs/install.md list them): Vite and esbuild at the repository's own versions, the others pinned
 * here. `--prefer-offline` takes them from the npm cache once they are in it.
 */
const BUNDLERS = [
  `vite@${versionOf('vite')}`,
  `esbuild@${versionOf('esbuild')}`,
  'rollup@4.68.5',
  '@rollup/plugin-node-resolve@16.0.3',
  '@web/rollup-plugin-import-meta-assets@2.3.3',
  'parcel@2.16.4',
  'webpack@5.112.2',
];
/** What the typed app installs: the frameworks' types and checkers (no framework runs). */
const TYPE_CHECKERS = [
  `typescript@${versionOf('typescript')}`,
  '@types/react@19.3.0',
  'vue@3.5.45',
  'vue-tsc@3.3.14',
  'svelte@5.57.3',
  'svelte-check@4.7.8',
];

const tmp = mkdtempSync(join(tmpdir(), 'silo-package-e2e-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let packed: string | undefined;
// `npm pack` (prepack builds dist/) once for both tests, before either.
before(
  async () => {
    await run('npm', ['pack', '--pack-destination', tmp], ROOT);
    packed = join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);
  },
  { timeout: 300_000 },
);

/** A temporary project `name` in the test's folder: its package.json, then `npm install` of `packages`. */
async function project(name: string, packages: string[]): Promise<string> {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `try-silo-${name}`, private: true, type: 'module' })}\n`,
  );
  await run('npm', ['install', '--prefer-offline', packed!, ...packages], dir);
  return dir;
}

/**
 * The environment of every command: no loader or option of the test runner, and none of the outer
 * `npm test`'s own settings (`npm_*`, `INIT_CWD`), leaks into it.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_OPTIONS' || key === 'INIT_CWD' || /^npm_/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false' };
}

/** Runs a command to completion; rejects with its output when it fails. */
function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${code}:\n${out}`)),
    );
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.map': 'application/json',
  '.json': 'application/json',
};

/** A static file server for `dir` on 127.0.0.1 (any free port), as any web server would serve it. */
async function serveStatic(dir: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    let path = normalize(join(dir, decodeURIComponent((req.url ?? '/').split('?')[0]!)));
    if (path.endsWith(sep)) path = join(path, 'index.html');
    if (!path.startsWith(dir + sep) || !existsSync(path) || !statSync(path).isFile()) {
      res.statusCode = 404;
      res.end('not found\n');
      return;
    }
    res.setHeader('Content-Type', TYPES[extname(path)] ?? 'application/octet-stream');
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Starts `npx silo-bridge …` in `cwd`; resolves to its printed lines once it is ready. */
function startBridge(cwd: string, args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn('npx', ['--no-install', 'silo-bridge', ...args], {
    cwd,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so the test can end npx and the bridge under it together.
    detached: true,
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\nSILO_BRIDGE ')) resolve({ child, lines: out.split('\n') });
    });
    child.once('exit', (code) =>
      reject(new Error(`silo-bridge exited (${code}) before it was ready:\n${out}${err}`)),
    );
  });
}

/**
 * The page API's sub-entries and the transcript entry at work, as a page's module (after imports of
 * `SiloError`, the export functions, `validateAnswers` and the transcript entry's class as
 * `TranscriptAlone`): its results go to `window.siloEntries` for {@link chatThrough}.
 */
const ENTRIES_CHECK = `
const updates = [
  { kind: 'user_message_chunk', text: 'Hi there', messageId: 'u1', raw: {} },
  { kind: 'agent_message_chunk', text: 'Hello back', messageId: 'a1', raw: {} },
];
let thrown;
try {
  parseJsonl('{oops');
} catch (e) {
  thrown = e;
}
const questions = [{ id: 'name', type: 'text', label: 'Name', required: true }];
window.siloEntries = {
  markdown: toMarkdown(updates, { title: 'Check' }),
  jsonl: toJsonl(updates.slice(0, 1), { agent: 'Demo' }),
  roundTrip: parseJsonl(toJsonl(updates)).map((u) => u.text),
  header: EXPORT_HEADER_KIND,
  parseError: { siloError: thrown instanceof SiloError, code: thrown && thrown.code },
  invalid: validateAnswers(questions, {}),
  valid: validateAnswers(questions, { name: 'Ada' }),
  // The transcript entry gives the class the components entry registered: one copy, shared chunks.
  transcriptEntry: customElements.get('silo-transcript') === TranscriptAlone,
};
`;

/** What {@link ENTRIES_CHECK} computes, written out. */
const ENTRIES_EXPECTED = {
  markdown: '# Check\n\n## You\n\nHi there\n\n**Agent:**\n\nHello back\n',
  jsonl:
    '{"kind":"silo_export","agent":"Demo","raw":{}}\n{"kind":"user_message_chunk","text":"Hi there","messageId":"u1","raw":{}}\n',
  roundTrip: ['Hi there', 'Hello back'],
  header: 'silo_export',
  parseError: { siloError: true, code: 'invalid-params' },
  invalid: {
    ok: false,
    errors: { name: 'This question needs an answer.' },
    issues: { name: { code: 'required' } },
  },
  valid: { ok: true, content: { name: 'Ada' }, text: { name: 'Ada' } },
  transcriptEntry: true,
};

interface Row {
  type: string;
  role?: string;
  text?: string;
}

/**
 * Opens `url`, waits for `<silo-chat>` to connect, sends {@link PROMPT}, and waits for the agent's
 * answer in the rendered transcript. Returns the URLs of the workers the page started, and what the
 * page's use of the sub-entries gave ({@link ENTRIES_CHECK}).
 */
async function chatThrough(
  browser: Browser,
  url: string,
): Promise<{ workers: string[]; errors: string[]; entries: unknown }> {
  const page = await browser.newPage();
  const workers: string[] = [];
  const errors: string[] = [];
  page.on('workercreated', (w) => workers.push(w.url()));
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(url);
    await waitFor(
      page,
      `<silo-chat> connected (or showing an error) at ${url}`,
      () => {
        const chat = document.querySelector('silo-chat') as (HTMLElement & { session?: unknown }) | null;
        const root = chat?.shadowRoot;
        return (
          root?.querySelector('[part="banner"][role="alert"]') ||
          (chat?.session && root?.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected')
        );
      },
      [],
    );
    const banner = await page.evaluate(
      () =>
        document.querySelector('silo-chat')?.shadowRoot?.querySelector('[part="banner"][role="alert"]')
          ?.textContent ?? '',
    );
    assert.equal(banner.trim(), '', `no error banner at ${url}`);
    await page.evaluate(async (text: string) => {
      const chat = document.querySelector('silo-chat') as HTMLElement & { updateComplete: Promise<boolean> };
      const ta = chat.shadowRoot!.querySelector('textarea')!;
      ta.value = text;
      ta.dispatchEvent(new Event('input'));
      await chat.updateComplete;
      ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    }, PROMPT);
    await waitFor(
      page,
      `the agent's answer rendered at ${url}`,
      (text: string) => {
        const transcript = document
          .querySelector('silo-chat')
          ?.shadowRoot?.querySelector('silo-transcript') as (HTMLElement & { model: { rows: Row[] } }) | null;
        const answered = transcript?.model.rows.some(
          (r) => r.type === 'message' && r.role === 'agent' && r.text?.includes(`**Echo:** ${text}`),
        );
        // Rendered, not only modelled: the answer's Markdown is in the transcript's shadow DOM.
        const strong = Array.from(transcript?.shadowRoot?.querySelectorAll('strong') ?? []);
        return answered && strong.some((s) => s.textContent === 'Echo:');
      },
      [PROMPT],
    );
    const entries = await page.evaluate(() => (window as unknown as { siloEntries?: unknown }).siloEntries);
    return { workers, errors, entries };
  } finally {
    await page.close();
  }
}

/** The Rollup configuration docs/install.md gives: resolve packages, emit `new URL(…, import.meta.url)` assets. */
const ROLLUP_CONFIG = `import { nodeResolve } from '@rollup/plugin-node-resolve';
import { importMetaAssets } from '@web/rollup-plugin-import-meta-assets';

export default {
  input: 'main.js',
  output: { dir: 'rollup-out', format: 'es' },
  plugins: [nodeResolve(), importMetaAssets()],
};
`;

/**
 * webpack 5 with only an entry and an output: production mode, not minified (terser would add most
 * of a minute and nothing that this test reads).
 */
const WEBPACK_BUILD = `import { resolve } from 'node:path';
import webpack from 'webpack';

webpack(
  {
    mode: 'production',
    entry: './main.js',
    output: { path: resolve('webpack-out') },
    optimization: { minimize: false },
    performance: { hints: false },
  },
  (error, stats) => {
    if (error || stats.hasErrors()) {
      console.error(error ?? stats.toString('errors-only'));
      process.exitCode = 1;
    }
  },
);
`;

test('the packed package: Vite (build and dev), Rollup, Parcel, webpack, esbuild and a plain page talk to npx silo-bridge --demo-agent', {
  timeout: 300_000,
}, async (t) => {
  const { chromium } = ensureBrowsers(['chromium']);
  let bridge: ChildProcess | undefined;
  let browser: Browser | undefined;
  const servers: Server[] = [];
  let dev: { close(): Promise<void> } | undefined;
  try {
    // One tarball, installed into an app with every bundler and into a plain page.
    const [app, plain] = await Promise.all([project('app', BUNDLERS), project('plain', [])]);
    await t.test('installing pulls no TypeScript loader or build tool into an app', () => {
      for (const name of ['tsx', 'esbuild', 'typescript'])
        assert.equal(existsSync(join(plain, 'node_modules', name)), false, `${name} is not installed`);
    });
    await t.test('npx silo-bridge --version, --help and -h exit 0', async () => {
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      const printed = await run('npx', ['--no-install', 'silo-bridge', '--version'], plain);
      assert.ok(printed.split('\n').includes(`silo-bridge ${version}`), printed);
      for (const flag of ['--help', '-h']) {
        const help = await run('npx', ['--no-install', 'silo-bridge', flag], plain);
        assert.match(help, /^usage: silo-bridge /m, flag);
      }
    });
    await t.test(
      'npx silo-bridge with a wrong option names it and the closest right one, and exits 2',
      async () => {
        const refused = await run(
          'npx',
          ['--no-install', 'silo-bridge', '--alow-origin', 'http://x.test'],
          plain,
        ).then(
          (out) => assert.fail(`exited 0:\n${out}`),
          (e: Error) => e.message,
        );
        assert.match(refused, / exited 2:/);
        assert.match(refused, /unknown option --alow-origin \(did you mean --allow-origin\?\)/);
      },
    );

    // Where the pages will be served, so the bridge can allow exactly those origins.
    const outputs = ['dist', 'rollup-out', 'parcel-out', 'webpack-out', 'esbuild-out'] as const;
    const served = Object.fromEntries(
      await Promise.all(outputs.map(async (out) => [out, await serveStatic(join(app, out))] as const)),
    ) as Record<(typeof outputs)[number], { origin: string; server: Server }>;
    const page = await serveStatic(plain);
    servers.push(page.server, ...Object.values(served).map((s) => s.server));
    const vite = (await import(
      pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href
    )) as typeof import('vite');
    const devServer = await vite.createServer({
      root: app,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0 },
    });
    dev = devServer;
    await devServer.listen();
    const devOrigin = `http://127.0.0.1:${(devServer.httpServer!.address() as AddressInfo).port}`;

    const origins = [...Object.values(served).map((s) => s.origin), devOrigin, page.origin];
    const started = await startBridge(app, [
      '--demo-agent',
      ...origins.flatMap((o) => ['--allow-origin', o]),
    ]);
    bridge = started.child;
    const connection = /paste into Silo: (\S+)$/.exec(started.lines[0]!)?.[1] ?? '';
    await t.test('silo-bridge prints one connection string and runs the packaged agent', () => {
      assert.match(connection, /^ws:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{43}$/);
      const agent = started.lines.find((l) => l.trim().startsWith('agent: '))!.trim();
      assert.equal(
        agent,
        `agent: ${process.execPath} ${join(app, 'node_modules/silo-acp/dist/node/agent/cli.js')}`,
      );
    });

    // README "Embedding": the element with the connection string, the app's own module.
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Silo in an app</title></head>
  <body>
    <silo-chat bridge="${connection}" cwd="${app}"></silo-chat>
    <script type="module" src="/main.js"></script>
  </body>
</html>
`,
    );
    writeFileSync(
      join(app, 'main.js'),
      `import { createAgentsService } from 'silo-acp';
import 'silo-acp/components';

// Optional: share one worker between the element and your own code.
document.querySelector('silo-chat').service = createAgentsService();
import './entries.js';
`,
    );
    writeFileSync(
      join(app, 'entries.js'),
      `import { SiloError } from 'silo-acp';
import { SiloTranscript as TranscriptAlone } from 'silo-acp/components/transcript';
import { validateAnswers } from 'silo-acp/elicitation';
import { EXPORT_HEADER_KIND, parseJsonl, toJsonl, toMarkdown } from 'silo-acp/export';
${ENTRIES_CHECK}`,
    );
    writeFileSync(join(app, 'rollup.config.mjs'), ROLLUP_CONFIG);
    writeFileSync(join(app, 'webpack-build.mjs'), WEBPACK_BUILD);
    writeFileSync(
      join(plain, 'index.html'),
      `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Silo without a build</title></head>
  <body>
    <silo-chat bridge="${connection}" cwd="${app}"></silo-chat>
    <script type="module">
      import { SiloError } from './node_modules/silo-acp/dist/standalone/silo.js';
      import { SiloTranscript as TranscriptAlone } from './node_modules/silo-acp/dist/standalone/transcript.js';
      import { validateAnswers } from './node_modules/silo-acp/dist/standalone/elicitation.js';
      import {
        EXPORT_HEADER_KIND,
        parseJsonl,
        toJsonl,
        toMarkdown,
      } from './node_modules/silo-acp/dist/standalone/export.js';
      ${ENTRIES_CHECK}
    </script>
    <script type="module" src="./node_modules/silo-acp/dist/standalone/components.js"></script>
  </body>
</html>
`,
    );
    // Each bundler as docs/install.md says: Vite and Parcel with no configuration, Rollup with its
    // config, webpack with an entry; esbuild bundles the page API and the elements but copies no
    // asset, so the worker file goes beside the bundle by hand — the one documented extra line.
    await Promise.all([
      run('npx', ['--no-install', 'vite', 'build'], app),
      run('npx', ['--no-install', 'rollup', '-c'], app),
      run('npx', ['--no-install', 'parcel', 'build', 'index.html', '--dist-dir', 'parcel-out'], app),
      run(process.execPath, ['webpack-build.mjs'], app),
      run(
        'npx',
        ['--no-install', 'esbuild', 'main.js', '--bundle', '--format=esm', '--outdir=esbuild-out'],
        app,
      ),
    ]);
    copyFileSync(join(app, 'node_modules/silo-acp/dist/worker.js'), join(app, 'esbuild-out/worker.js'));
    for (const out of ['rollup-out', 'webpack-out', 'esbuild-out'])
      copyFileSync(join(app, 'index.html'), join(app, out, 'index.html'));

    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });

    /** A prompt answered at `origin`, from one worker whose URL matches `worker`. */
    const answered = async (origin: string, worker: RegExp) => {
      const { workers, errors, entries } = await chatThrough(browser!, `${origin}/`);
      assert.deepEqual(errors, []);
      assert.deepEqual(entries, ENTRIES_EXPECTED);
      assert.equal(workers.length, 1, `one worker: ${workers.join(' ')}`);
      assert.match(workers[0]!.slice(origin.length), worker);
    };

    await t.test('vite build: the bundler emits the worker; a prompt is answered', () =>
      answered(served.dist.origin, /^\/assets\/worker-[\w-]+\.js$/),
    );
    await t.test('vite dev (no configuration): the worker starts; a prompt is answered', () =>
      answered(devOrigin, /^\/node_modules\/silo-acp\/dist\/worker\.js/),
    );
    await t.test(
      'rollup with node-resolve and import-meta-assets: the plugin emits the worker; a prompt is answered',
      () => answered(served['rollup-out'].origin, /^\/assets\/worker-[\w-]+\.js$/),
    );
    await t.test('parcel build (no configuration): Parcel emits the worker; a prompt is answered', () =>
      answered(served['parcel-out'].origin, /^\/worker\.[\da-f]+\.js$/),
    );
    await t.test(
      'webpack (an entry, no other configuration): webpack emits the worker; a prompt is answered',
      async () => {
        await answered(served['webpack-out'].origin, /^\/[\w-]+\.js$/);
        // webpack writes import.meta.url as the build's file: path; the page API keeps it out of the bundle.
        const bundle = readFileSync(join(app, 'webpack-out/main.js'), 'utf8');
        assert.equal(bundle.includes(app), false, 'the build folder is not in the bundle');
      },
    );
    await t.test('esbuild, with worker.js copied beside the bundle: a prompt is answered', () =>
      answered(served['esbuild-out'].origin, /^\/worker\.js$/),
    );
    await t.test('no build step: the standalone bundle; a prompt is answered', () =>
      answered(page.origin, /^\/node_modules\/silo-acp\/dist\/standalone\/worker\.js$/),
    );

    await t.test(
      "a bundle moved away from its worker: the error names the URL and each bundler's fix",
      async () => {
        mkdirSync(join(plain, 'moved'));
        copyFileSync(
          join(plain, 'node_modules/silo-acp/dist/standalone/silo.js'),
          join(plain, 'moved/silo.js'),
        );
        writeFileSync(join(plain, 'moved/index.html'), '<!doctype html><title>moved</title>\n');
        const tab = await browser!.newPage();
        try {
          await tab.goto(`${page.origin}/moved/`);
          const error = await tab.evaluate(async () => {
            const { createAgentsService } = await import('/moved/silo.js' as string);
            return createAgentsService()
              .sessions()
              .then(
                () => undefined,
                (e: { code: string; message: string; data?: { workerUrl?: string } }) => ({
                  code: e.code,
                  message: e.message,
                  workerUrl: e.data?.workerUrl,
                }),
              );
          });
          assert.equal(error?.code, 'internal');
          assert.equal(error?.workerUrl, `${page.origin}/moved/worker.js`);
          const message = error?.message ?? '';
          assert.ok(message.includes(`could not start from ${page.origin}/moved/worker.js`), message);
          for (const fix of [
            '@web/rollup-plugin-import-meta-assets',
            'copy node_modules/silo-acp/dist/worker.js to that URL',
            'keep the files of dist/standalone/ together',
          ])
            assert.ok(message.includes(fix), `${fix} in: ${message}`);
          assert.equal(
            message.includes('optimizeDeps'),
            false,
            `no Vite fix for a page Vite did not build: ${message}`,
          );
        } finally {
          await tab.close();
        }
      },
    );
  } finally {
    await browser?.close();
    if (bridge && bridge.exitCode === null) {
      const exited = new Promise((r) => bridge!.once('exit', r));
      process.kill(-bridge.pid!, 'SIGTERM');
      await exited;
    }
    await dev?.close();
    for (const s of servers) s.close();
  }
});

/** A React 19 component using the elements (`.tsx`); `service` is the property under test. */
const reactUsage = (service: string) => `import type {} from 'silo-acp/react';
import { createAgentsService } from 'silo-acp';
import 'silo-acp/components';
import type { SiloTranscript } from 'silo-acp/components/transcript';

const service = createAgentsService();
export const transcript: SiloTranscript | null = document.querySelector('silo-transcript');

export function Chat() {
  return (
    <>
      <silo-chat
        bridge="ws://127.0.0.1:41234/#token=t"
        cwd="/home/me/project"
        service={${service}}
        onsilo-session={(e) => console.log(e.detail.sessionId, e.detail.resumeOutcome)}
        onsilo-error={(e) => console.log(e.detail.error.code)}
      />
      <silo-transcript service={service} sessionId="s1" onsilo-find={(e) => e.detail.total.toFixed()} />
    </>
  );
}
`;

/**
 * The same in a Vue single-file component. The connection string is bound, not written as a static
 * attribute: vue-tsc 3.3 loses the element's event types when a static attribute's value holds `//`.
 */
const vueUsage = (service: string) => `<script setup lang="ts">
import type {} from 'silo-acp/vue';
import { createAgentsService } from 'silo-acp';
import 'silo-acp/components';
import { ref } from 'vue';

const bridge = 'ws://127.0.0.1:41234/#token=t';
const service = createAgentsService();
const sessionId = ref('');
const error = ref('');
</script>

<template>
  <silo-chat
    :bridge="bridge"
    cwd="/home/me/project"
    :service="${service}"
    @silo-session="(e) => (sessionId = e.detail.sessionId)"
    @silo-error="(e) => (error = e.detail.error.code)"
  />
  <silo-transcript :service="service" :session-id="sessionId" @silo-find="(e) => e.detail.total.toFixed()" />
</template>
`;

/** The same in a Svelte 5 component. */
const svelteUsage = (service: string) => `<script lang="ts">
  import type {} from 'silo-acp/svelte';
  import { createAgentsService } from 'silo-acp';
  import 'silo-acp/components';

  const service = createAgentsService();
</script>

<silo-chat
  bridge="ws://127.0.0.1:41234/#token=t"
  cwd="/home/me/project"
  service={${service}}
  onsilo-session={(e) => console.log(e.detail.sessionId, e.detail.resumeOutcome)}
  onsilo-error={(e) => console.log(e.detail.error.code)}
></silo-chat>
<silo-transcript {service} sessionId="s1" onsilo-find={(e) => e.detail.total.toFixed()}></silo-transcript>
`;

/**
 * The typed app's TypeScript settings: strict (an event handler whose parameter is not typed fails),
 * and the package's declarations checked too (`skipLibCheck: false`; the ACP SDK's need ESNext's
 * `Symbol.dispose`).
 */
const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      jsx: 'react-jsx',
      lib: ['ESNext', 'DOM', 'DOM.Iterable'],
      noEmit: true,
      skipLibCheck: false,
      types: [],
    },
    include: ['*.tsx', '*.vue', '*.svelte'],
  },
  null,
  2,
)}\n`;

/** `{ file, message }` of each error or warning a checker printed (tsc's and vue-tsc's plain lines, svelte-check's machine output). */
function diagnostics(out: string): { file: string; message: string }[] {
  const found = [];
  for (const [, file, message] of out.matchAll(/^(\S+)\(\d+,\d+\): error (TS\d+: .*)$/gm))
    found.push({ file: file!, message: message! });
  for (const [, file, message] of out.matchAll(/^\d+ (?:ERROR|WARNING) "([^"]+)" \d+:\d+ "(.*)"$/gm))
    found.push({ file: file!, message: message! });
  return found;
}

test('the packed package types its elements in React 19, Vue and Svelte templates; a wrong property type fails', {
  timeout: 300_000,
}, async (t) => {
  const typed = await project('typed', TYPE_CHECKERS);
  // Each framework's usage twice, in one project: as written (Chat), and with a number where the
  // service goes (Wrong). One check of each project must find exactly the one error in Wrong.
  const checks = [
    { framework: 'react', ext: 'tsx', usage: reactUsage, cmd: ['tsc', '-p', '.', '--pretty', 'false'] },
    { framework: 'vue', ext: 'vue', usage: vueUsage, cmd: ['vue-tsc', '-p', '.', '--pretty', 'false'] },
    {
      framework: 'svelte',
      ext: 'svelte',
      usage: svelteUsage,
      cmd: ['svelte-check', '--tsconfig', './tsconfig.json', '--output', 'machine', '--fail-on-warnings'],
    },
  ];
  const outputs = await Promise.all(
    checks.map(({ framework, ext, usage, cmd }) => {
      const dir = join(typed, framework);
      mkdirSync(dir);
      writeFileSync(join(dir, 'tsconfig.json'), TSCONFIG);
      writeFileSync(join(dir, `Chat.${ext}`), usage('service'));
      writeFileSync(join(dir, `Wrong.${ext}`), usage('42'));
      return run('npx', ['--no-install', ...cmd], dir).then(
        (out) => `(the check passed)\n${out}`,
        (e: Error) => e.message,
      );
    }),
  );
  for (const [i, { framework, ext }] of checks.entries())
    await t.test(`${framework}: the usage type-checks; a number as the service does not`, () => {
      const found = diagnostics(outputs[i]!);
      assert.deepEqual(
        found.map((d) => d.file),
        [`Wrong.${ext}`],
        outputs[i],
      );
      assert.match(found[0]!.message, /Type 'number' is not assignable to type 'AgentsService'/);
    });
});
