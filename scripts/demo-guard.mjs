// What `npm start`'s demo server (scripts/start.mjs) sends besides the pages themselves: the security
// headers on every response, and the check in front of GET /.silo-bridge.json, which hands the
// bridge's token to the demo page and to nothing else. See docs/security.md.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { basename } from 'node:path';

/**
 * Name of the cookie that carries the launch key (set when the printed URL is opened). Cookies do not
 * tell ports apart, so the name carries the demo's port: two demos on one host keep their own.
 */
export function launchCookie(demoOrigin) {
  return `silo-demo-launch-${new URL(demoOrigin).port}`;
}

/** A fresh launch key: 128 random bits, base64url. */
export function launchKey() {
  return randomBytes(16).toString('base64url');
}

/**
 * The Content-Security-Policy of every demo response. Scripts, workers and frames come from the
 * demo's own origin only (no inline script, no inline event handler, no eval); sockets and fetches go
 * to the demo (Vite's reload socket included) and to the bridge; images are same-origin, `data:` or
 * `blob:` (agent Markdown never loads a remote image); no page may frame the demo.
 */
export function contentSecurityPolicy(demoOrigin, bridgeUrl) {
  const socket = demoOrigin.replace(/^http/, 'ws');
  const connect = ["'self'", socket, ...(bridgeUrl ? [bridgeUrl] : [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    `connect-src ${connect}`,
    "img-src 'self' data: blob:",
    // Vite injects imported CSS as <style> elements; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sets the headers every demo response carries (pages, scripts, the worker, JSON). */
export function setSecurityHeaders(res, demoOrigin, bridgeUrl) {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(demoOrigin, bridgeUrl));
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function cookie(req, name) {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sameSecret(a, b) {
  const x = Buffer.from(String(a));
  const y = Buffer.from(String(b));
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * When a request carries `?launch=<key>` (the URL `npm start` prints), answers with the cookie that
 * lets this browser fetch the bridge config: HttpOnly, SameSite=Strict, for this origin's path only.
 */
export function grantLaunchCookie(req, res, key, demoOrigin) {
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('launch');
  if (query && sameSecret(query, key)) {
    res.setHeader('Set-Cookie', `${launchCookie(demoOrigin)}=${key}; HttpOnly; SameSite=Strict; Path=/`);
  }
}

/**
 * Why a GET /.silo-bridge.json must be refused, or undefined to serve it. Served only to a browser's
 * `fetch` from the demo page itself: `Host` is the demo's (no DNS rebinding), `Sec-Fetch-Site` is
 * `same-origin` (browsers always send it, so curl, another site and a navigation are refused), an
 * `Origin` if sent is the demo's, and the launch cookie is present (a local process that forges those
 * headers still lacks the key printed to the terminal of whoever ran `npm start`).
 */
export function bridgeConfigRefusal(req, demoOrigin, key) {
  const h = req.headers;
  const names = req.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  if (names.filter((n) => n === 'host').length > 1 || names.filter((n) => n === 'origin').length > 1)
    return 'duplicated Host or Origin';
  if (h.host !== new URL(demoOrigin).host) return 'Host is not the demo';
  if (h['sec-fetch-site'] !== 'same-origin') return 'not a same-origin fetch';
  if (h.origin !== undefined && h.origin !== demoOrigin) return 'Origin not the demo';
  if (!sameSecret(cookie(req, launchCookie(demoOrigin)) ?? '', key)) return 'no launch cookie';
  return undefined;
}

/** A display name for an agent command that reveals no paths or arguments. */
export function agentDisplayName(command, reference) {
  if (reference) return 'Silo reference agent';
  const words = command.filter((w) => !w.startsWith('-')).map((w) => basename(w));
  return words.slice(0, 2).join(' ') || 'agent';
}

/** Exactly what the demo page needs from the bridge's announcement. */
export function bridgeConfigBody(announcement, { cwd, agentCommand, reference }) {
  return {
    url: announcement.url,
    token: announcement.token,
    connection: announcement.connection,
    cwd,
    agent: agentDisplayName(agentCommand, reference),
    reference,
  };
}
