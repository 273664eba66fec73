// The demo server's defenses (docs/security.md), end to end against `npm start`'s pieces
// (scripts/start.mjs) and Debian's Chromium driven by puppeteer-core:
// - GET /.silo-bridge.json hands the token only to a same-origin fetch from the browser that opened
//   the printed URL, uncached, with nothing but what the page needs;
// - every page sends a Content-Security-Policy that the browser enforces (no inline script, no inline
//   handler, no remote image, sockets only to the demo and the bridge) and that still lets
//   the demo and embed.html work;
// - a page on another origin cannot frame the demo (frame-ancestors 'none', X-Frame-Options DENY),
//   so hidden frames neither get an agent session nor use up the bridge's connections.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, ensureBrowsers } from '../../scripts/browsers.mjs';
import { type Demo, ensureBundle, startDemo } from '../../scripts/start.mjs';
import { childPids } from '../support/bridge-process.mjs';
import { waitFor } from '../support/page-wait.ts';
import { pollUntil } from '../support/poll.ts';

const CSP_PARTS = [
  "script-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
];

/** Agents the demo's bridge runs now (its children, without tsx's esbuild helper). */
function agentCount(demo: Demo): number {
  const pid = demo.bridge!.pid;
  return childPids(pid).length - childPids(pid).filter((p) => isEsbuild(p)).length;
}

function isEsbuild(pid: number): boolean {
  try {
    return /esbuild/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

/** A GET with exactly these headers (fetch would not send a Host of our choosing). */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the demo server: token endpoint, CSP on every page, no framing', { timeout: 120_000 }, async (t) => {
  ensureBundle();
  const { chromium } = ensureBrowsers(['chromium']);
  const sessionsDir = mkdtempSync(join(tmpdir(), 'silo-demo-sec-'));
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  let framer: Server | undefined;
  try {
    demo = await startDemo({ port: 0, sessionsDir, log: () => {} });
    const { origin, url } = demo;
    const host = new URL(origin).host;
    const config = new URL('/.silo-bridge.json', origin).href;

    await t.test(
      '/.silo-bridge.json: only a same-origin fetch with the launch cookie gets the token',
      async () => {
        const launch = await fetch(url);
        const setCookie = launch.headers.get('set-cookie') ?? '';
        assert.match(
          setCookie,
          new RegExp(`^silo-demo-launch-${new URL(origin).port}=[\\w-]+; HttpOnly; SameSite=Strict; Path=/$`),
        );
        const cookie = setCookie.split(';')[0]!;
        const noLaunch = await fetch(new URL('/', origin));
        assert.equal(noLaunch.headers.get('set-cookie'), null, 'no cookie without the printed key');
        const wrongKey = await fetch(new URL('/?launch=guess', origin));
        assert.equal(wrongKey.headers.get('set-cookie'), null, 'no cookie for a wrong key');

        const browserLike = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', cookie };
        const refused: [string, Record<string, string>][] = [
          ['no headers at all (curl)', {}],
          ['the cookie alone', { cookie }],
          ['same-origin without the cookie', { 'sec-fetch-site': 'same-origin' }],
          ['a wrong cookie', { ...browserLike, cookie: `silo-demo-launch-${new URL(origin).port}=guess` }],
          ['same-site (another port of 127.0.0.1)', { ...browserLike, 'sec-fetch-site': 'same-site' }],
          ['cross-site', { ...browserLike, 'sec-fetch-site': 'cross-site' }],
          ['a navigation (none)', { ...browserLike, 'sec-fetch-site': 'none' }],
          ['a foreign Origin', { ...browserLike, origin: 'https://evil.example' }],
          ['Origin: null', { ...browserLike, origin: 'null' }],
          ['a rebound Host', { ...browserLike, host: `attacker.example:${new URL(origin).port}` }],
          ['another loopback name', { ...browserLike, host: `localhost:${new URL(origin).port}` }],
        ];
        for (const [what, headers] of refused) {
          const r = await get(config, headers);
          assert.equal(r.status, 403, what);
          assert.ok(!r.body.includes(demo!.bridge!.token), `${what}: no token`);
        }
        const ok = await fetch(config, { headers: { ...browserLike, origin, host } });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('cache-control'), 'no-store');
        assert.equal(ok.headers.get('access-control-allow-origin'), null, 'no CORS');
        const body = (await ok.json()) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body).sort(), [
          'agent',
          'connection',
          'cwd',
          'reference',
          'token',
          'url',
        ]);
        assert.equal(body.token, demo!.bridge!.token);
        assert.equal(body.agent, 'Silo reference agent', 'a name, not the command line');
        assert.equal(body.reference, true);
      },
    );

    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: chromiumArgs });
    const page = await browser.newPage();

    await t.test(
      'every page sends the CSP and frame headers, and the demo still connects under them',
      async () => {
        for (const path of ['/', '/offline.html', '/embed.html', '/embed.js', '/.silo-bridge.json']) {
          const r = await fetch(new URL(path, origin));
          const csp = r.headers.get('content-security-policy') ?? '';
          for (const part of CSP_PARTS) assert.ok(csp.includes(part), `${path}: ${part} in ${csp}`);
          assert.match(csp, new RegExp(`connect-src 'self' ws://${host} ${demo!.bridge!.url}(;|$)`), path);
          assert.equal(r.headers.get('x-frame-options'), 'DENY', path);
        }
        await page.goto(url);
        await waitFor(page, 'the demo online under its CSP', () =>
          document.querySelector('[data-bridge="online"]'),
        );
        await waitFor(page, 'the chat connected under the CSP', () => {
          const chat = document.querySelector('silo-chat');
          return (
            chat?.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected'
          );
        });
        await page.goto(new URL('/embed.html', origin).href);
        await waitFor(page, 'embed.html connected under the CSP', () => {
          const chat = document.querySelector('silo-chat');
          return (
            chat?.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected'
          );
        });
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
      let foreignRequests = 0;
      const foreign = createServer((_req, res) => {
        foreignRequests++;
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.end(
          `${JSON.stringify({ kind: 'agent_message_chunk', text: 'ATTACKER TEXT', content: { type: 'text', text: 'ATTACKER TEXT' }, raw: {} })}\n`,
        );
      });
      await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', r));
      try {
        const src = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/t.jsonl`;
        for (const attempt of [src, `//127.0.0.1:${(foreign.address() as AddressInfo).port}/t.jsonl`]) {
          await page.goto(`${origin}/offline.html?src=${encodeURIComponent(attempt)}`);
          await waitFor(page, 'the foreign URL refused', () =>
            document.getElementById('status')?.hasAttribute('data-refused'),
          );
          const shown = await page.evaluate(
            () => document.querySelector('silo-transcript')?.shadowRoot?.textContent ?? '',
          );
          assert.ok(!shown.includes('ATTACKER TEXT'), attempt);
        }
        assert.equal(foreignRequests, 0, 'the foreign server was never asked');
      } finally {
        foreign.close();
      }
    });

    await t.test('a page on another origin cannot frame the demo; its frames get no agent', async () => {
      // The attacker's page: another origin (another port), nine hidden frames of the demo.
      framer = createServer((_req, res) => {
        res.setHeader('Content-Type', 'text/html');
        res.end(
          Array.from({ length: 9 }, () => `<iframe src="${url}" width="10" height="10"></iframe>`).join('\n'),
        );
      });
      await new Promise<void>((r) => framer!.listen(0, '127.0.0.1', r));
      const attacker = `http://127.0.0.1:${(framer.address() as AddressInfo).port}/`;
      await page.close();
      await pollUntil(() => agentCount(demo!) === 0, 'the earlier tabs’ agents ended');
      const evil = await browser!.newPage();
      await evil.goto(attacker, { waitUntil: 'load' });
      const frames = evil.frames().filter((f) => f !== evil.mainFrame());
      assert.equal(frames.length, 9);
      for (const frame of frames) {
        assert.notEqual(frame.url(), url, 'the demo did not load in the frame');
      }
      // The user's own tab still gets a live session: the frames hold no connection.
      const own = await browser!.newPage();
      await own.goto(url);
      await waitFor(own, "the user's own tab connected", () => {
        const chat = document.querySelector('silo-chat');
        return chat?.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state') === 'connected';
      });
      // The demo also asks the agent for its loadable sessions once, on a short-lived connection:
      // wait for that to end; nine framed demos would hold nine more agents for good.
      await pollUntil(() => agentCount(demo!) === 1, "only the user's tab holds an agent");
      await evil.close();
      await own.close();
    });
  } finally {
    await browser?.close();
    framer?.close();
    await demo?.stop();
    rmSync(sessionsDir, { recursive: true, force: true });
  }
});
