// Who gets the bridge's token from `npm start`'s demo server (docs/security.md, "The demo server").
//
// The URL `npm start` prints carries a one-time launch key in its #fragment, which browsers never send
// to any server. The page takes it out of the address bar and redeems it once, in a header:
//
//   POST /.silo-session       Authorization: Bearer <launch key>  → {session}: a secret for this tab,
//                             which the page keeps in history.state (this entry of this tab's history:
//                             nothing copies it into another tab); the key is spent
//   GET  /.silo-bridge.json   Authorization: Bearer <session>     → the bridge's URL and token
//   POST /.silo-launch        Authorization: Bearer <session>     → {launch}: a fresh one-time key, for
//                             a tab the page opens itself (it expires in a minute)
//
// No cookie is ever set: cookies are shared by every port of 127.0.0.1, so a server another local user
// runs on another port would read them. Every call must also pass fetchRefusal (scripts/demo-guard.mjs).
import { createHash, randomBytes } from 'node:crypto';
import { fetchRefusal } from './demo-guard.mjs';

/** How long a launch key minted for a tab the page opens (POST /.silo-launch) can be redeemed. */
export const TAB_LAUNCH_TTL_MS = 60_000;

/** 256 random bits, base64url. */
const secret = () => randomBytes(32).toString('base64url');

/** Secrets are kept and looked up by their SHA-256, so a lookup's timing tells nothing of them. */
const digest = (value) => createHash('sha256').update(value).digest('base64url');

/** The `Authorization: Bearer <secret>` of a request, or undefined. */
function bearer(req) {
  return /^Bearer ([\w-]{16,128})$/.exec(req.headers.authorization ?? '')?.[1];
}

function answer(res, status, body) {
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  if (typeof body === 'string') {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(`${body}\n`);
  } else {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  }
}

/** The launch keys and tab sessions of one demo server, for its whole life (in memory only). */
export class DemoAccess {
  /** Launch key digest → the time (ms) it expires at. */
  #launches = new Map();
  /** Session digests. */
  #sessions = new Set();

  /** @param {string} origin the demo's origin, `http://127.0.0.1:<port>` */
  constructor(origin) {
    this.origin = origin;
  }

  /**
   * A fresh URL of the demo with a one-time launch key in its fragment (`/#launch=<key>`). It opens
   * one tab: redeemed once, the key is gone. `ttlMs` bounds how long it stays redeemable (default:
   * as long as the server runs).
   */
  launchUrl(ttlMs = Number.POSITIVE_INFINITY) {
    return `${this.origin}/#launch=${this.#mint(ttlMs)}`;
  }

  #mint(ttlMs) {
    const now = Date.now();
    for (const [id, expires] of this.#launches) if (expires <= now) this.#launches.delete(id);
    const key = secret();
    this.#launches.set(digest(key), now + ttlMs);
    return key;
  }

  /** Spends a launch key: true once for a key minted here and not expired, false ever after. */
  #redeem(key) {
    const id = digest(key);
    const expires = this.#launches.get(id);
    this.#launches.delete(id);
    return expires !== undefined && Date.now() < expires;
  }

  #hasSession(req) {
    const token = bearer(req);
    return token !== undefined && this.#sessions.has(digest(token));
  }

  /**
   * A connect-style middleware answering the three endpoints above; any other path goes to `next`.
   * `config()` returns the body of `/.silo-bridge.json`, or undefined while no bridge runs (503).
   */
  middleware(config) {
    const routes = {
      '/.silo-session': ['POST', (req, res) => this.#openSession(req, res)],
      '/.silo-bridge.json': ['GET', (req, res) => this.#bridgeConfig(req, res, config)],
      '/.silo-launch': ['POST', (req, res) => this.#tabLaunch(req, res)],
    };
    return (req, res, next) => {
      const route = routes[(req.url ?? '').split('?')[0]];
      if (!route) return next();
      const [method, handle] = route;
      if (req.method !== method) return answer(res, 405, 'method not allowed');
      if (fetchRefusal(req, this.origin)) return answer(res, 403, 'forbidden');
      handle(req, res);
    };
  }

  #openSession(req, res) {
    const key = bearer(req);
    if (key === undefined || !this.#redeem(key)) return answer(res, 403, 'forbidden');
    const session = secret();
    this.#sessions.add(digest(session));
    answer(res, 200, { session });
  }

  #bridgeConfig(req, res, config) {
    // "No bridge" is no secret: a tab without a session is told so too, and shows the offline demo.
    const body = config();
    if (!body) return answer(res, 503, 'bridge not running');
    if (!this.#hasSession(req)) return answer(res, 403, 'forbidden');
    answer(res, 200, body);
  }

  #tabLaunch(req, res) {
    if (!this.#hasSession(req)) return answer(res, 403, 'forbidden');
    answer(res, 200, { launch: this.#mint(TAB_LAUNCH_TTL_MS) });
  }
}
