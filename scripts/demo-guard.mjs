// What `npm start`'s demo server (scripts/start.mjs) sends besides the pages themselves: the security
// headers on every response, and the check in front of its own endpoints (scripts/demo-access.mjs),
// which hand the bridge's token to the demo page and to nothing else. See docs/security.md.
import { basename } from 'node:path';

/**
 * The Content-Security-Policy of every demo response. Scripts, workers and frames come from the
 * demo's own origin only (no inline script, no inline event handler, no eval); fetches go to the demo
 * and sockets to the bridge (and, with `devSocket`, to Vite's reload socket); images are same-origin,
 * `data:` or `blob:` (agent Markdown never loads a remote image); no page may frame the demo.
 */
export function contentSecurityPolicy(demoOrigin, bridgeUrl, devSocket = false) {
  const connect = [
    "'self'",
    ...(devSocket ? [demoOrigin.replace(/^http/, 'ws')] : []),
    ...(bridgeUrl ? [bridgeUrl] : []),
  ].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    `connect-src ${connect}`,
    "img-src 'self' data: blob:",
    // Lit falls back to <style> elements where constructable style sheets are missing, and Vite's dev
    // server injects imported CSS as <style>; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Sets the headers every demo response carries (pages, scripts, the worker, JSON, refusals). With
 * `Cross-Origin-Opener-Policy: same-origin`, a page of another origin that opens the demo
 * (`window.open`) gets no handle on its window.
 */
export function setSecurityHeaders(res, demoOrigin, bridgeUrl, devSocket = false) {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(demoOrigin, bridgeUrl, devSocket));
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function headerCount(req, name) {
  return req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === name).length;
}

/**
 * Why a request for the demo's files must be refused, or undefined to serve it: exactly one `Host`,
 * the demo's own (`127.0.0.1:<port>`), so a DNS-rebound name (`attacker.example:<port>`) reads
 * nothing from the demo.
 */
export function hostRefusal(req, demoOrigin) {
  if (headerCount(req, 'host') !== 1) return 'not exactly one Host';
  if (req.headers.host !== new URL(demoOrigin).host) return 'Host is not the demo';
  return undefined;
}

/**
 * Why a call of the demo's endpoints must be refused, or undefined to answer it. Answered only to a
 * browser's `fetch` from the demo page itself: the demo's `Host` (no DNS rebinding),
 * `Sec-Fetch-Site: same-origin` (browsers always send it, so another site, another port of
 * 127.0.0.1 and a navigation are refused) and, when sent (always for a POST), one `Origin`, the
 * demo's. The secret each endpoint then asks for (scripts/demo-access.mjs) is what a local process
 * that forges these headers still lacks.
 */
export function fetchRefusal(req, demoOrigin) {
  const host = hostRefusal(req, demoOrigin);
  if (host) return host;
  if (headerCount(req, 'origin') > 1) return 'duplicated Origin';
  if (req.headers['sec-fetch-site'] !== 'same-origin') return 'not a same-origin fetch';
  if (req.headers.origin !== undefined && req.headers.origin !== demoOrigin) return 'Origin not the demo';
  if (req.method !== 'GET' && req.headers.origin === undefined) return 'no Origin';
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
