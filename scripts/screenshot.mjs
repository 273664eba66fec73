// `node scripts/screenshot.mjs`: screenshots from a headless Chromium run against the real bridge and
// the reference agent, mid-conversation:
// - <silo-chat> alone, light and dark (screenshots/silo-chat-light.png, silo-chat-dark.png) and on a
//   phone (silo-chat-390.png);
// - the demo (`npm start`'s pieces) at 360×640, 390×844, 780×493, 1000×650 and 1280×800, light and
//   dark, in the tab that drives the session and in a second tab that follows it
//   (screenshots/demo-<w>x<h>-<scheme>.png, demo-follower-…), and the phone's history drawer
//   (demo-390x844-drawer.png), with the geometry of each checked (scripts/layout-check.mjs): what is
//   wrong is printed, and the script exits 1. test/e2e/demo-layout.test.ts asserts the same.
// Everything it starts (Vite dev server, bridges + agents, the demo server, Chromium) is stopped before
// it exits.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { createServer } from 'vite';
import { ROOT, startBridgeProcess } from '../test/support/bridge-process.mjs';
import { chromiumArgs, ensureBrowsers } from './browsers.mjs';
import { shootDemo } from './demo-shots.mjs';
import { startDemo } from './start.mjs';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>silo-chat screenshot</title>
    <style>
      html, body { margin: 0; height: 100%; background: Canvas; color-scheme: light dark; }
      body { padding: 16px; box-sizing: border-box; }
      silo-chat { height: calc(100vh - 32px); }
      @media (max-width: 480px) { body { padding: 0; } silo-chat { height: 100vh; } }
    </style>
    <script type="module" src="/components/index.ts"></script>
  </head>
  <body>
    <silo-chat id="chat"></silo-chat>
    <script type="module">
      const q = new URLSearchParams(location.search);
      const chat = document.getElementById('chat');
      chat.setAttribute('cwd', '/home/dev/project');
      chat.setAttribute('bridge-url', q.get('url'));
      chat.setAttribute('bridge-token', q.get('token'));
    </script>
  </body>
</html>`;

const screenshotPage = {
  name: 'silo-screenshot-page',
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      if (!req.url?.startsWith('/__screenshot')) return next();
      res.setHeader('content-type', 'text/html');
      res.end(PAGE);
    });
  },
};

const { chromium } = ensureBrowsers(['chromium']);
const server = await createServer({
  root: ROOT,
  configFile: false,
  logLevel: 'error',
  plugins: [screenshotPage],
  server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
});
let bridge;
let browser;
try {
  await server.listen();
  const origin = `http://127.0.0.1:${server.httpServer.address().port}`;
  bridge = await startBridgeProcess({ allowOrigin: [origin] });
  browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 820, deviceScaleFactor: 1 });
  await page.goto(
    `${origin}/__screenshot?url=${encodeURIComponent(bridge.url)}&token=${encodeURIComponent(bridge.token)}`,
  );

  const chat = await page.waitForFunction(
    () => {
      const c = document.querySelector('silo-chat');
      return c?.session && c.shadowRoot.querySelector('[part="state"]')?.dataset.state === 'connected' && c;
    },
    { timeout: 90000 },
  );
  const send = (text) =>
    chat.evaluate((c, t) => {
      const ta = c.shadowRoot.querySelector('textarea');
      ta.value = t;
      ta.dispatchEvent(new Event('input'));
      return c.updateComplete.then(() =>
        ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })),
      );
    }, text);
  const turnEnds = () =>
    chat.evaluate(
      (c) =>
        c.shadowRoot.querySelector('silo-transcript').model.rows.filter((r) => r.type === 'turn-end').length,
    );

  await send('Give me a quick tour, please.');
  await page.waitForFunction(
    (c) => c.shadowRoot.querySelector('silo-transcript').model.rows.some((r) => r.type === 'turn-end'),
    { timeout: 30000 },
    chat,
  );
  await send('/scenario demo');
  await page.waitForFunction(
    (c) =>
      c.shadowRoot.querySelector('silo-transcript').model.rows.filter((r) => r.type === 'turn-end').length >=
      2,
    { timeout: 30000 },
    chat,
  );
  // Mid-conversation: a live permission prompt waiting for an answer, a draft in the composer.
  await send('/scenario permission');
  await page.waitForFunction(
    (c) =>
      c.shadowRoot.querySelector('silo-transcript').shadowRoot.querySelector('[data-prompt][data-pending]'),
    { timeout: 30000 },
    chat,
  );
  await chat.evaluate((c) => {
    const ta = c.shadowRoot.querySelector('textarea');
    ta.value = 'Looks good — next, add a test for greet()';
    ta.dispatchEvent(new Event('input'));
    return c.updateComplete;
  });
  if ((await turnEnds()) < 2) throw new Error('the conversation did not reach the expected point');

  const dir = join(ROOT, 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const scheme of ['light', 'dark']) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    // Two frames for styles and the virtualizer to settle after the scheme change.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const file = join(dir, `silo-chat-${scheme}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
  }
  // A phone: 390 px wide, light.
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 1 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const phone = join(dir, 'silo-chat-390.png');
  await page.screenshot({ path: phone });
  console.log(`wrote ${phone}`);
} finally {
  await browser?.close();
  await bridge?.stop();
  await server.close();
}

// The demo at every size, in both tabs.
let demo;
let demoBrowser;
let problems = 0;
try {
  demo = await startDemo({
    port: 0,
    sessionsDir: mkdtempSync(join(tmpdir(), 'silo-screenshots-')),
    log: () => {},
    bridgeLog: () => {},
  });
  demoBrowser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
  const dir = join(ROOT, 'screenshots');
  const { shots } = await shootDemo({ browser: demoBrowser, demo, dir });
  for (const shot of shots) {
    console.log(`wrote ${shot.file}${shot.problems.length ? '' : ' (geometry holds)'}`);
    for (const p of shot.problems) console.log(`  ✗ ${p}`);
    problems += shot.problems.length;
  }
  console.log(`wrote ${join(dir, 'demo-390x844-drawer.png')}`);
} finally {
  await demoBrowser?.close();
  await demo?.stop();
}
if (problems > 0) {
  console.error(`${problems} layout problem(s), see above`);
  process.exitCode = 1;
}
