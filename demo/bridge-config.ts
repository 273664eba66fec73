/**
 * Where the demo's bridge is, and how this tab is let in (docs/security.md, "The demo server").
 * `npm start` prints a URL with a one-time launch key in its `#fragment`, which no server ever sees.
 * The page takes it out of the address bar, redeems it once (`POST /.silo-session`, in a header) for a
 * secret of this tab, and sends that secret (in a header again) to get the bridge's URL and token
 * (`GET /.silo-bridge.json`). A tab opened without a key, by a link or by another site, gets no bridge.
 *
 * The secret is kept in `history.state`: it belongs to this page's entry in this tab's history, so a
 * reload or Back returns it, no other origin (another port of 127.0.0.1 included) can read it, and
 * nothing copies it into another tab. `sessionStorage` would be copied: Chromium gives a window that
 * a page opens (`window.open`) a copy of the opener tab's, so a page the user went on to in the demo's
 * tab could open the demo again, connected. demo/public/embed.js, a plain script, does the same.
 */

/** The field of `history.state` holding this tab's secret. */
const SESSION_FIELD = 'siloDemoSession';

/** What `/.silo-bridge.json` holds (see scripts/start.mjs). */
export interface BridgeConfig {
  readonly url: string;
  readonly token: string;
  readonly cwd: string;
  readonly agent: string;
  /** True when the bridge runs Silo's reference agent (the scenario picker applies). */
  readonly reference: boolean;
}

/**
 * What this tab may do: `online` with the bridge's config; `offline` when no bridge runs (or the
 * server cannot be reached); `locked` when a bridge runs but this tab holds no launch key or session
 * of this server (opened without the printed URL, a spent URL, or a server started since).
 */
export type BridgeAccess =
  | { readonly state: 'online'; readonly config: BridgeConfig }
  | { readonly state: 'offline' }
  | { readonly state: 'locked' };

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** This tab's secret, if this history entry holds one. */
function session(): string | undefined {
  const value: unknown = (history.state as Record<string, unknown> | null)?.[SESSION_FIELD];
  return typeof value === 'string' ? value : undefined;
}

function keepSession(value: string | undefined): void {
  history.replaceState({ ...(history.state as object | null), [SESSION_FIELD]: value }, '');
}

/** Takes `#launch=<key>` out of the address bar (and so out of a reload or a bookmark). */
function takeLaunchKey(): string | undefined {
  const key = new URLSearchParams(location.hash.slice(1)).get('launch');
  if (key === null) return undefined;
  history.replaceState(history.state, '', location.pathname + location.search);
  return key;
}

/** Redeems a launch key for this tab's secret; a spent or unknown key leaves the secret as it was. */
async function redeem(key: string): Promise<void> {
  const response = await fetch('/.silo-session', { method: 'POST', headers: bearer(key), cache: 'no-store' });
  if (!response.ok) return;
  const body = (await response.json()) as { session?: unknown };
  if (typeof body.session === 'string') keepSession(body.session);
}

/**
 * Redeems a launch key in the URL's fragment, if any, then fetches the bridge's config with this tab's
 * session. Never rejects: a failure is `offline` (no server, 503, a malformed answer) or `locked`.
 */
export async function loadBridgeConfig(): Promise<BridgeAccess> {
  try {
    const key = takeLaunchKey();
    if (key) await redeem(key);
    const secret = session();
    const response = await fetch('/.silo-bridge.json', {
      cache: 'no-store',
      headers: secret ? bearer(secret) : {},
    });
    if (response.status === 403) {
      if (secret) keepSession(undefined);
      return { state: 'locked' };
    }
    if (!response.ok) return { state: 'offline' };
    const body = (await response.json()) as Partial<BridgeConfig>;
    if (typeof body.url !== 'string' || typeof body.token !== 'string') return { state: 'offline' };
    return {
      state: 'online',
      config: {
        url: body.url,
        token: body.token,
        cwd: typeof body.cwd === 'string' ? body.cwd : '/',
        agent: typeof body.agent === 'string' ? body.agent : 'agent',
        reference: body.reference === true,
      },
    };
  } catch {
    return { state: 'offline' };
  }
}

/**
 * Opens `path` of the demo (`/`, `/embed.html`) in a new tab that gets in on a launch key of its own
 * (`POST /.silo-launch`: valid once, for a minute), since a new tab holds none of this one's history.
 * Call it in a click: the tab is opened at once, blank, within the click's user activation (a window
 * opened after the key's answer would be refused by a popup blocker when the answer is slow), and
 * goes to `path#launch=…` once the key is in. It has no `opener` from the start, as with `noopener`
 * (which would leave no handle to send it on with): the page there cannot reach this tab, its history
 * or its secret. Resolves to `opened`; `blocked` when the browser opened no tab; `refused` when this
 * tab has no secret to ask with or the server refused (the blank tab closed). Rejects, the blank tab
 * closed, when the request fails.
 */
export async function openDemoTab(path = '/'): Promise<'opened' | 'blocked' | 'refused'> {
  const secret = session();
  if (!secret) return 'refused';
  const tab = window.open('about:blank', '_blank');
  if (!tab) return 'blocked';
  tab.opener = null;
  try {
    const response = await fetch('/.silo-launch', {
      method: 'POST',
      headers: bearer(secret),
      cache: 'no-store',
    });
    const { launch } = response.ok ? ((await response.json()) as { launch?: unknown }) : {};
    if (typeof launch !== 'string') {
      tab.close();
      return 'refused';
    }
    tab.location.replace(`${path}#launch=${launch}`);
    return 'opened';
  } catch (e) {
    tab.close();
    throw e;
  }
}
