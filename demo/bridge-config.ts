/**
 * Where the demo's bridge is. `npm start` serves `GET /.silo-bridge.json` only to a same-origin fetch
 * from the browser that opened the URL it printed: the bridge's URL and per-launch token, the
 * sessions' working directory and the agent's display name (docs/security.md).
 */

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
 * Fetches the bridge's config. Resolves to `undefined` when no bridge is running (503, no server,
 * or a malformed answer): the demo then works offline from the journal.
 */
export async function loadBridgeConfig(): Promise<BridgeConfig | undefined> {
  try {
    const response = await fetch('/.silo-bridge.json', { cache: 'no-store' });
    if (!response.ok) return undefined;
    const body = (await response.json()) as Partial<BridgeConfig>;
    if (typeof body.url !== 'string' || typeof body.token !== 'string') return undefined;
    return {
      url: body.url,
      token: body.token,
      cwd: typeof body.cwd === 'string' ? body.cwd : '/',
      agent: typeof body.agent === 'string' ? body.agent : 'agent',
      reference: body.reference === true,
    };
  } catch {
    return undefined;
  }
}
