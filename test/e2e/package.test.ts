// The package as a user installs it (README "Install" and "Embedding"): `npm pack`, the tarball
// installed into a temporary Vite app and into a temporary no-build page, `vite build`, and
// `npx silo-bridge --demo-agent` started from the installed package (cwd in the temporary folder, no
// repository file on its path). Chromium (puppeteer-core) then opens the built app, the same app under
// `vite` dev, and the plain page: each starts the worker, sends a prompt, and `<silo-chat>` renders the
// answer. A page whose bundle was moved away from its worker gets the error naming the URL and the fix.
// Each page also imports the page API's sub-entries (`silo-acp/export`, `silo-acp/elicitation`; in
// the plain page their standalone files) and uses them: a Markdown and JSONL export, a JSONL parse
// error that is the main entry's `SiloError` (one copy of the class), answers validated with the
// main entry's default messages.
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
import { test } from 'node:test';
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
const VITE_VERSION = versionOf('vite');
const ESBUILD_VERSION = versionOf('esbuild');

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
 * The page API's sub-entries at work, as a page's module (after imports of `SiloError`, the export
 * functions and `validateAnswers`): its results go to `window.siloEntries` for {@link chatThrough}.
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

test('the packed package: a Vite app (build and dev), an esbuild bundle and a plain page talk to npx silo-bridge --demo-agent', {
  timeout: 300_000,
}, async (t) => {
  const { chromium } = ensureBrowsers(['chromium']);
  const tmp = mkdtempSync(join(tmpdir(), 'silo-package-e2e-'));
  const app = join(tmp, 'app');
  const plain = join(tmp, 'plain');
  let bridge: ChildProcess | undefined;
  let browser: Browser | undefined;
  const servers: Server[] = [];
  let dev: { close(): Promise<void> } | undefined;
  try {
    // npm pack (prepack builds dist/), then one tarball installed into each project.
    await run('npm', ['pack', '--pack-destination', tmp], ROOT);
    const tarball = join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);
    for (const dir of [app, plain]) {
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'package.json'),
        `${JSON.stringify({ name: 'try-silo', private: true, type: 'module' })}\n`,
      );
    }
    await Promise.all([
      run(
        'npm',
        ['install', '--prefer-offline', tarball, `vite@${VITE_VERSION}`, `esbuild@${ESBUILD_VERSION}`],
        app,
      ),
      run('npm', ['install', '--prefer-offline', tarball], plain),
    ]);
    await t.test('installing pulls no TypeScript loader or build tool into an app', () => {
      for (const name of ['tsx', 'esbuild', 'typescript'])
        assert.equal(existsSync(join(plain, 'node_modules', name)), false, `${name} is not installed`);
    });
    await t.test('npx silo-bridge --version and --help exit 0', async () => {
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      const printed = await run('npx', ['--no-install', 'silo-bridge', '--version'], plain);
      assert.ok(printed.split('\n').includes(`silo-bridge ${version}`), printed);
      const help = await run('npx', ['--no-install', 'silo-bridge', '--help'], plain);
      assert.match(help, /^usage: silo-bridge /m);
    });

    // Where the pages will be served, so the bridge can allow exactly those origins.
    const built = await serveStatic(join(app, 'dist'));
    const page = await serveStatic(plain);
    const esbuilt = await serveStatic(join(app, 'esbuild-out'));
    servers.push(built.server, page.server, esbuilt.server);
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

    const started = await startBridge(app, [
      '--demo-agent',
      ...[built.origin, devOrigin, page.origin, esbuilt.origin].flatMap((o) => ['--allow-origin', o]),
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
  <head><meta charset="utf-8" /><title>Silo in a Vite app</title></head>
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
import { validateAnswers } from 'silo-acp/elicitation';
import { EXPORT_HEADER_KIND, parseJsonl, toJsonl, toMarkdown } from 'silo-acp/export';
${ENTRIES_CHECK}`,
    );
    writeFileSync(
      join(plain, 'index.html'),
      `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Silo without a build</title></head>
  <body>
    <silo-chat bridge="${connection}" cwd="${app}"></silo-chat>
    <script type="module">
      import { SiloError } from './node_modules/silo-acp/dist/standalone/silo.js';
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
    await run('npx', ['--no-install', 'vite', 'build'], app);
    // esbuild (docs/install.md): it bundles the page API and the elements but copies no asset, so the
    // worker file goes beside the bundle by hand — the one documented extra line.
    await run(
      'npx',
      ['--no-install', 'esbuild', 'main.js', '--bundle', '--format=esm', '--outdir=esbuild-out'],
      app,
    );
    copyFileSync(join(app, 'node_modules/silo-acp/dist/worker.js'), join(app, 'esbuild-out/worker.js'));
    copyFileSync(join(app, 'index.html'), join(app, 'esbuild-out/index.html'));

    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });

    await t.test('vite build: the bundler emits the worker; a prompt is answered', async () => {
      const { workers, errors, entries } = await chatThrough(browser!, `${built.origin}/`);
      assert.deepEqual(errors, []);
      assert.deepEqual(entries, ENTRIES_EXPECTED);
      assert.equal(workers.length, 1, `one worker: ${workers.join(' ')}`);
      assert.match(workers[0]!, new RegExp(`^${built.origin}/assets/worker-[\\w-]+\\.js$`));
    });

    await t.test('vite dev (no configuration): the worker starts; a prompt is answered', async () => {
      const { workers, errors, entries } = await chatThrough(browser!, `${devOrigin}/`);
      assert.deepEqual(errors, []);
      assert.deepEqual(entries, ENTRIES_EXPECTED);
      assert.equal(workers.length, 1, `one worker: ${workers.join(' ')}`);
      assert.ok(workers[0]!.includes('/node_modules/silo-acp/dist/worker.js'), workers[0]);
    });

    await t.test('esbuild, with worker.js copied beside the bundle: a prompt is answered', async () => {
      const { workers, errors, entries } = await chatThrough(browser!, `${esbuilt.origin}/`);
      assert.deepEqual(errors, []);
      assert.deepEqual(entries, ENTRIES_EXPECTED);
      assert.deepEqual(workers, [`${esbuilt.origin}/worker.js`]);
    });

    await t.test('no build step: the standalone bundle; a prompt is answered', async () => {
      const { workers, errors, entries } = await chatThrough(browser!, `${page.origin}/`);
      assert.deepEqual(errors, []);
      assert.deepEqual(entries, ENTRIES_EXPECTED);
      assert.deepEqual(workers, [`${page.origin}/node_modules/silo-acp/dist/standalone/worker.js`]);
    });

    await t.test('a bundle moved away from its worker: the error names the URL and the fix', async () => {
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
        assert.ok(
          error?.message.includes(`could not start from ${page.origin}/moved/worker.js`),
          error?.message,
        );
        assert.ok(error?.message.includes("optimizeDeps: { exclude: ['silo-acp'] }"), error?.message);
      } finally {
        await tab.close();
      }
    });
  } finally {
    await browser?.close();
    if (bridge && bridge.exitCode === null) {
      const exited = new Promise((r) => bridge!.once('exit', r));
      process.kill(-bridge.pid!, 'SIGTERM');
      await exited;
    }
    await dev?.close();
    for (const s of servers) s.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
