/**
 * One writer per session across tabs: the tab whose worker holds the Web Lock `silo:session:<id>`
 * drives the session and tells its followers what it commits on a BroadcastChannel of the same name
 * (worker/follow.ts); other tabs follow read-only and wait for the lock to take over when the owner closes (or its tab dies,
 * which releases the lock by itself).
 */
const name = (sessionId: string) => `silo:session:${sessionId}`;

/** A held lock. */
export interface Ownership {
  release(): void;
}

function request(sessionId: string, options: LockOptions): Promise<Ownership | undefined> {
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(name(sessionId), options, (lock) => {
        if (!lock) {
          resolve(undefined);
          return undefined;
        }
        return new Promise<void>((release) => resolve({ release: () => release() }));
      })
      .catch(reject);
  });
}

/** Takes the session's lock if no other tab holds it; `undefined` otherwise. */
export function tryOwn(sessionId: string): Promise<Ownership | undefined> {
  return request(sessionId, { ifAvailable: true });
}

/** Waits for the session's lock; rejects with an AbortError when `signal` aborts first. */
export async function waitToOwn(sessionId: string, signal: AbortSignal): Promise<Ownership> {
  const lock = await request(sessionId, { signal });
  if (!lock) throw new DOMException('lock not granted', 'AbortError');
  return lock;
}

/** The session's broadcast channel. */
export function channel(sessionId: string): BroadcastChannel {
  return new BroadcastChannel(name(sessionId));
}
