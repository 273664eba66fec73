/**
 * For the demo's end-to-end security tests (test/e2e/demo-*.test.ts): requests with exactly the
 * headers a test chooses, a server playing another local user on another port of 127.0.0.1, the
 * bridge's spawns counted from its log, and what a demo tab shows.
 */
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { childPids } from './bridge-process.mjs';
import { waitFor } from './page-wait.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request with exactly these headers (fetch would not send a `Host` or `Sec-Fetch-Site` of our
 * choosing); an array value sends the header once per item.
 */
export function send(
  url: string,
  headers: Record<string, string | string[]>,
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
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

/** The launch key of a URL `npm start` printed (`#launch=`; `?launch=` before the fragment was used). */
export function launchKeyOf(url: string): string {
  const key = /[#?&]launch=([\w-]+)/.exec(url)?.[1];
  if (!key) throw new Error(`no launch key in ${url}`);
  return key;
}

export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP server on another port of 127.0.0.1, recording every request a browser sends it. */
export interface OtherUser {
  origin: string;
  seen: Seen[];
  close(): void;
}

/** Starts an {@link OtherUser} that answers every GET with the HTML `page()` returns. */
export async function otherUserServer(page: () => string): Promise<OtherUser> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('Content-Type', 'text/html');
      res.end(req.method === 'GET' ? page() : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Counts, from the bridge's log (startDemo's `bridgeLog`), the agents it spawned and the sockets that
 * closed. The log is one ordered stream: once `closed` equals `spawned`, every connection so far is
 * over and counted.
 */
export class BridgeLog {
  spawned = 0;
  closed = 0;
  readonly line = (text: string): void => {
    if (/: agent spawned pid=/.test(text)) this.spawned++;
    if (/: socket closed \(/.test(text)) this.closed++;
  };
}

/** Agents a bridge runs now: its children, without tsx's esbuild helper. */
export function bridgeAgents(bridgePid: number): number {
  return childPids(bridgePid).filter((pid) => {
    try {
      return !/esbuild/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  }).length;
}

/**
 * Waits until the demo page or embed.html in `page` has its `<silo-chat>` connected, or, with
 * `following`, also following a session another tab drives (two tabs of one browser restore the same
 * session).
 */
export function chatConnected(page: Page, what: string, following = false): Promise<void> {
  return waitFor(
    page,
    what,
    (alsoFollowing: boolean) => {
      const chat = document.querySelector('silo-chat');
      const state = chat?.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state');
      return state === 'connected' || (alsoFollowing && state === 'following');
    },
    [following],
  );
}

/**
 * What the demo page in `page` made of the bridge, once it knows: `online`, `offline` or `locked` (no
 * launch key or secret for this tab: it never connects).
 */
export async function bridgeState(page: Page): Promise<string> {
  await waitFor(page, 'the demo to know its bridge state', () => {
    const state = document.querySelector('[data-bridge]')?.getAttribute('data-bridge');
    return state !== undefined && state !== null && state !== 'checking';
  });
  return page.$eval('[data-bridge]', (e) => e.getAttribute('data-bridge') ?? '');
}

/** What embed.html in `page` did, once it knows: `in` (connected or following), or `refused` (it says why). */
export async function embedState(page: Page): Promise<'in' | 'refused'> {
  await waitFor(page, 'embed.html to connect or say why not', () => {
    const chat = document.querySelector('silo-chat');
    const state = chat?.shadowRoot?.querySelector('[part="state"]')?.getAttribute('data-state');
    return state === 'connected' || state === 'following' || document.getElementById('notice') !== null;
  });
  return (await page.$('#notice')) ? 'refused' : 'in';
}
