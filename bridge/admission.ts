/**
 * Bounds the sockets that have not been upgraded yet. Before the upgrade a socket is anybody's: any
 * local user can open one, send nothing (half-open) or a header byte at a time (slow drip), and so
 * hold one of the bridge's descriptors. Without a bound, 1,100 of them at a limit of 1,024
 * descriptors made the real client fail ("socket hang up"), and Node's own header timeout let a slow
 * drip live 75 s. So:
 *
 * - each socket must be upgraded (or refused and closed) within {@link HANDSHAKE_DEADLINE_MS} of its
 *   connection, or it is destroyed — once what it sent by then has been read, so a stalled bridge
 *   does not cut a client that was in time;
 * - `perPeer` sockets of one remote address, and `total` of all, may wait at once. A newcomer
 *   over either bound makes the **oldest** waiting socket of that address (or of all) give way, never
 *   the newcomer: a client that sends its upgrade at once (every browser does, in a millisecond) is
 *   upgraded before the sockets that connected before it can push it out, whatever they hold.
 * - but a socket that has waited less than {@link EVICTION_AGE_MS} is not pushed out until twice the
 *   bound wait: the bridge accepts a burst of connections before it reads any of them, so a page
 *   that opens 20 sockets at once would otherwise lose the first few before their requests are read.
 *
 * Upgraded sockets leave the count: they hold the token, and `--max-connections` bounds them.
 */

/** Time a socket has to complete its upgrade, from its TCP connection. */
export const HANDSHAKE_DEADLINE_MS = 5000;

/** A socket younger than this gives way to a newcomer only once twice the bound are waiting. */
export const EVICTION_AGE_MS = 500;

/** What admission needs of a socket. */
export interface WaitingSocket {
  readonly remoteAddress?: string | undefined;
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * The bounds on waiting (not yet upgraded) sockets. Past a bound a newcomer makes the oldest give
 * way; at twice the bound, even one that has waited less than {@link EVICTION_AGE_MS}.
 */
export interface AdmissionLimits {
  /** Waiting sockets of one remote address. */
  perPeer: number;
  /** Waiting sockets in all. */
  total: number;
  /** Deadline for the upgrade (default {@link HANDSHAKE_DEADLINE_MS}). */
  deadlineMs?: number;
}

/** The waiting sockets, oldest first, and what each is waiting on. */
export class Admission<S extends WaitingSocket = WaitingSocket> {
  private readonly waiting = new Map<S, { peer: string; since: number; timer: NodeJS.Timeout }>();
  private readonly byPeer = new Map<string, Set<S>>();
  /** Sockets destroyed to make room for newer ones, since start. */
  evicted = 0;
  /** Sockets destroyed for missing the deadline, since start. */
  expired = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /** Sockets waiting now. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Takes a new connection: makes room for it (destroying the oldest waiting socket of its address,
   * or of all) and starts its deadline. It leaves the count when it closes or is {@link upgraded}.
   */
  admit(socket: S): void {
    const peer = socket.remoteAddress ?? 'unknown';
    const now = Date.now();
    const mine = this.byPeer.get(peer);
    if (mine) this.makeRoom(mine.size, mine.values().next().value, this.limits.perPeer, now);
    this.makeRoom(this.waiting.size, this.waiting.keys().next().value, this.limits.total, now);
    // At the deadline, the socket's input is read first: after a stall of the bridge's event loop
    // (a loaded machine) timers run before I/O, and an upgrade sent in time but not yet read would be
    // cut. `setImmediate` runs after this turn's I/O, where that upgrade takes the socket out.
    const timer = setTimeout(
      () => setImmediate(() => this.expire(socket)),
      this.limits.deadlineMs ?? HANDSHAKE_DEADLINE_MS,
    );
    timer.unref();
    this.waiting.set(socket, { peer, since: now, timer });
    this.byPeer.set(peer, (mine ?? new Set()).add(socket));
    socket.once('close', () => this.drop(socket));
  }

  /** The deadline passed and the socket's input has been read: destroyed unless it was upgraded. */
  private expire(socket: S): void {
    if (!this.waiting.has(socket)) return;
    this.expired++;
    this.drop(socket);
    socket.destroy();
  }

  /** The socket was upgraded: it no longer counts, and no deadline applies. */
  upgraded(socket: S): void {
    this.drop(socket);
  }

  /**
   * Pushes out `oldest` of a group of `size` waiting sockets when the group is at its `bound`, and
   * `oldest` has waited long enough or the group is at twice its bound.
   */
  private makeRoom(size: number, oldest: S | undefined, bound: number, now: number): void {
    if (size < bound || oldest === undefined) return;
    if (size < 2 * bound && now - this.waiting.get(oldest)!.since < EVICTION_AGE_MS) return;
    this.evicted++;
    this.drop(oldest);
    oldest.destroy();
  }

  private drop(socket: S): void {
    const entry = this.waiting.get(socket);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(socket);
    const mine = this.byPeer.get(entry.peer);
    mine?.delete(socket);
    if (mine?.size === 0) this.byPeer.delete(entry.peer);
  }
}
