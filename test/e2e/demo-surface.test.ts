// What the demo server serves (docs/security.md, "The demo server"), end to end against `npm start`'s
// pieces (scripts/start.mjs) and Debian's Chromium driven by puppeteer-core:
// - only the built demo (demo/dist/): no dev server, so no `/__open-in-editor` (which ran the user's
//   $EDITOR on any file a request named), no `/@fs/` (repository files, session files), no
//   `/@vite/client` (the HMR token), no source file; and no process is started for any of them;
// - every page sends a Content-Security-Policy that the browser enforces (no inline script, no inline
//   handler, no remote image, sockets only to the demo and the bridge) and that still lets the demo
//   and embed.html work;
// - `/offline.html?src=` opens same-origin URLs only;
// - a page on another origin cannot frame the demo (frame-ancestors 'none', X-Frame-Options DENY), so
//   hidden frames neither get an agent session nor use up the bridge's connections;
// - `npm run dev` (Vite, developers only) listens on loopback and drops `/__open-in-editor` and the
//   files outside the code directories.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { type Demo, startDemo } from '../../scripts/start.mjs';
import { childPids, ROOT } from '../support/bridge-process.mjs';
import { bridgeAgents, chatConnected, otherUserServer, send } from '../support/demo-e2e.ts';
import { waitFor } from '../support/page-wait.ts';
import { pollUntil } from '../support/poll.ts';

const CSP_PARTS = [
  "script-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
];

/**
 * A stand-in for the user's editor (Vite's launch-editor runs `$LAUNCH_EDITOR <file>`), and a
 * secret, mode-0600 file inside the repository (`tmp/` is git-ignored), as the red team found
 * `/@fs/` serving to another local user.
 */
function plantTargets() {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', 'demo-surface-'));
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, 'SECRET-OF-THE-USER\n', { mode: 0o600 });
  const marker = join(dir, 'editor-ran');
  const editor = join(dir, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\necho "$@" >> '${marker}'\n`);
  chmodSync(editor, 0o755);
  const before = process.env.LAUNCH_EDITOR;
  // Vite's dev server, run in this process, would run it.
  process.env.LAUNCH_EDITOR = editor;
  return {
    secret,
    /** True once the editor ran: it leaves the marker, or is still a child of this process. */
    editorRan: () =>
      existsSync(marker) ||
      childPids(process.pid).some((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(editor);
        } catch {
          return false;
        }
      }),
    remove() {
      if (before === undefined) delete process.env.LAUNCH_EDITOR;
      else process.env.LAUNCH_EDITOR = before;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('the demo server serves the built demo and nothing else, under its CSP', {
  timeout: 180_000,
}, async (t) => {
  const { chromium } = ensureBrowsers(['chromium']);
  const sessionsDir = mkdtempSync(join(tmpdir(), 'silo-demo-surface-'));
  const planted = plantTargets();
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  const closers: (() => void)[] = [];
  try {
    demo = await startDemo({ port: 0, sessionsDir, log: () => {}, bridgeLog: () => {} });
    const { origin } = demo;
    const host = new URL(origin).host;
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
    const page = await browser.newPage();

    await t.test('no dev server: its endpoints and the sources are not found, no editor runs', async () => {
      const asked = [
        `/__open-in-editor?file=${encodeURIComponent(planted.secret)}`,
        `/@fs${planted.secret}`,
        `/@fs${ROOT}/package.json`,
        `/@fs${sessionsDir}`,
        '/@vite/client',
        '/@vite/env',
        '/@id/lit',
        '/src/index.ts',
        '/main.ts',
        '/bridge-config.ts',
        '/node_modules/lit/index.js',
        '/../package.json',
        '/%2e%2e/package.json',
        '/dist/standalone/../../package.json',
        '/dist/silo.js',
        '/dist/node/bridge/cli.js',
        '/.silo-agent-sessions/',
      ];
      for (const path of asked) {
        const r = await send(`${origin}${path}`, { host });
        assert.equal(r.status, 404, `${path}: ${r.status}`);
        assert.ok(!r.body.includes('SECRET-OF-THE-USER') && !r.body.includes('"name"'), path);
      }
      // From another site: an <img> is enough; and through the offline viewer's ?src=.
      const other = await otherUserServer(
        () =>
          `<!doctype html><img src="${origin}/__open-in-editor?file=${encodeURIComponent(planted.secret)}" onerror="document.title='done'" onload="document.title='done'">`,
      );
      closers.push(other.close);
      await page.goto(`${other.origin}/img`);
      await waitFor(page, 'the image request answered', () => document.title === 'done');
      await page.goto(
        `${origin}/offline.html?src=${encodeURIComponent(`/__open-in-editor?file=${planted.secret}`)}`,
      );
      await waitFor(page, 'the viewer to report the failed load', () =>
        document.getElementById('status')?.classList.contains('error'),
      );
      assert.equal(planted.editorRan(), false, 'the editor never ran');
      // Nor to a DNS-rebound name: the demo answers its own Host only.
      assert.equal(
        (await send(`${origin}/`, { host: `attacker.example:${new URL(origin).port}` })).status,
        403,
      );
      // What the server does serve: the built pages, their assets and the no-build bundle.
      for (const path of [
        '/',
        '/offline.html',
        '/embed.html',
        '/embed.js',
        '/dist/standalone/components.js',
      ]) {
        assert.equal((await send(`${origin}${path}`, { host })).status, 200, path);
      }
    });

    await t.test(
      'every page sends the CSP and frame headers, and the demo still connects under them',
      async () => {
        for (const path of [
          '/',
          '/offline.html',
          '/embed.html',
          '/embed.js',
          '/.silo-bridge.json',
          '/nothing',
        ]) {
          const r = await fetch(new URL(path, origin));
          const csp = r.headers.get('content-security-policy') ?? '';
          for (const part of CSP_PARTS) assert.ok(csp.includes(part), `${path}: ${part} in ${csp}`);
          assert.match(csp, new RegExp(`connect-src 'self' ${demo!.bridge!.url}(;|$)`), path);
          assert.equal(r.headers.get('x-frame-options'), 'DENY', path);
          assert.equal(r.headers.get('cross-origin-opener-policy'), 'same-origin', path);
        }
        await page.goto(demo!.url);
        await chatConnected(page, 'the demo connected under its CSP');
        const next = browser!.waitForTarget((target) => target.url().startsWith(`${origin}/embed.html`));
        await page.locator('#open-embed').click(); // once it holds still: the history may still lay out
        const embed = (await (await next).page())!;
        await chatConnected(embed, 'embed.html connected under the CSP', true);
        await embed.close();
      },
    );

    await t.test(
      'the browser enforces it: inline script, inline handlers, remote images and foreign sockets are blocked',
      async () => {
        await page.goto(new URL('/offline.html', origin).href);
        const outcome = await page.evaluate(async (remote: string) => {
          const w = window as unknown as { __ran: string[] };
          w.__ran = [];
          const violations: string[] = [];
          document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
          const script = document.createElement('script');
          script.textContent = 'window.__ran.push("inline script")';
          document.body.append(script);
          const div = document.createElement('div');
          div.setAttribute('onclick', 'window.__ran.push("inline handler")');
          document.body.append(div);
          div.click();
          const img = new Image();
          const loaded = await new Promise<boolean>((resolve) => {
            img.onload = () => resolve(true);
            img.onerror = () => resolve(false);
            img.src = remote;
          });
          const socket = await new Promise<boolean>((resolve) => {
            try {
              const ws = new WebSocket('ws://127.0.0.1:9/');
              ws.onopen = () => resolve(true);
              ws.onerror = () => resolve(false);
            } catch {
              resolve(false);
            }
          });
          // Violations are reported asynchronously; wait until the four blocked loads are reported.
          const deadline = Date.now() + 10_000;
          while (violations.length < 4 && Date.now() < deadline)
            await new Promise((r) => requestAnimationFrame(r));
          return { ran: w.__ran, loaded, socket, violations: [...new Set(violations)].sort() };
        }, 'http://localhost:9/pixel.png');
        assert.deepEqual(outcome.ran, [], 'no inline code ran');
        assert.equal(outcome.loaded, false);
        assert.equal(outcome.socket, false);
        for (const directive of ['script-src-elem', 'script-src-attr', 'img-src', 'connect-src']) {
          assert.ok(outcome.violations.includes(directive), `${directive} violated: ${outcome.violations}`);
        }
      },
    );

    await t.test('/offline.html?src= opens only same-origin URLs', async () => {
      const foreign = await otherUserServer(
        () =>
          `${JSON.stringify({ kind: 'agent_message_chunk', text: 'ATTACKER TEXT', content: { type: 'text', text: 'ATTACKER TEXT' }, raw: {} })}\n`,
      );
      closers.push(foreign.close);
      const src = `${foreign.origin}/t.jsonl`;
      for (const attempt of [src, src.replace('http:', '')]) {
        await page.goto(`${origin}/offline.html?src=${encodeURIComponent(attempt)}`);
        await waitFor(page, 'the foreign URL refused', () =>
          document.getElementById('status')?.hasAttribute('data-refused'),
        );
        const shown = await page.evaluate(
          () => document.querySelector('silo-transcript')?.shadowRoot?.textContent ?? '',
        );
        assert.ok(!shown.includes('ATTACKER TEXT'), attempt);
      }
      assert.equal(foreign.seen.length, 0, 'the foreign server was never asked');
    });

    await t.test('a page on another origin cannot frame the demo; its frames get no agent', async () => {
      // The attacker's page: another origin (another port), nine hidden frames of the demo, each with a
      // launch key of its own (the worst case: the attacker could not have them).
      const framed = Array.from({ length: 9 }, () => demo!.launchUrl());
      const framer = await otherUserServer(() =>
        framed.map((u) => `<iframe src="${u}" width="10" height="10"></iframe>`).join('\n'),
      );
      closers.push(framer.close);
      await page.close();
      await pollUntil(() => bridgeAgents(demo!.bridge!.pid) === 0, 'the earlier tabs’ agents ended');
      const evil = await browser!.newPage();
      await evil.goto(framer.origin, { waitUntil: 'load' });
      const frames = evil.frames().filter((f) => f !== evil.mainFrame());
      assert.equal(frames.length, 9);
      for (const frame of frames)
        assert.ok(!frame.url().startsWith(origin), 'the demo did not load in the frame');
      // The user's own tab still gets a live session: the frames hold no connection.
      const own = await browser!.newPage();
      await own.goto(demo!.launchUrl());
      await chatConnected(own, "the user's own tab connected");
      // The demo also asks the agent for its loadable sessions once, on a short-lived connection:
      // wait for that to end; nine framed demos would hold nine more agents for good.
      await pollUntil(() => bridgeAgents(demo!.bridge!.pid) === 1, "only the user's tab holds an agent");
      await evil.close();
      await own.close();
    });
  } finally {
    await browser?.close();
    for (const close of closers) close();
    await demo?.stop();
    planted.remove();
    rmSync(sessionsDir, { recursive: true, force: true });
  }
});

test('npm run dev: Vite on loopback, without its editor endpoint or the files outside the code', {
  timeout: 120_000,
}, async () => {
  const planted = plantTargets();
  let demo: Demo | undefined;
  try {
    demo = await startDemo({ port: 0, dev: true, noBridge: true, log: () => {} });
    const { origin } = demo;
    assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/, 'loopback only');
    const host = new URL(origin).host;
    const editor = await send(`${origin}/__open-in-editor?file=${encodeURIComponent(planted.secret)}`, {
      host,
    });
    assert.equal(editor.status, 404);
    const secret = await send(`${origin}/@fs${planted.secret}`, { host });
    assert.notEqual(secret.status, 200, 'a repository file outside the code directories');
    assert.ok(!secret.body.includes('SECRET-OF-THE-USER'));
    assert.equal(
      (await send(`${origin}/`, { host: `attacker.example:${new URL(origin).port}` })).status,
      403,
    );
    // What a developer needs still works: the pages from the sources, the no-build bundle.
    assert.equal((await send(`${origin}/`, { host })).status, 200);
    assert.equal((await send(`${origin}/dist/standalone/components.js`, { host })).status, 200);
    assert.equal(planted.editorRan(), false, 'the editor never ran');
  } finally {
    await demo?.stop();
    planted.remove();
  }
});
