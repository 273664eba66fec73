/**
 * Bookkeeping of the agent's interactive requests (permissions, questions) for one session: which are
 * pending, how to answer them, and answering all of them at once when a turn is cancelled or the
 * connection goes away. Every entry settles exactly once.
 */

/** One pending request and how to settle it. */
interface Pending<R> {
  readonly settle: (result: R) => void;
  readonly cancelled: R;
}

/** Pending requests of one kind, keyed by Silo's row id. */
export class PendingRequests<R> {
  private readonly pending = new Map<string, Pending<R>>();

  /** Registers a request; the returned promise settles when it is answered or cancelled. */
  open(id: string, cancelled: R, signal: AbortSignal): Promise<R> {
    return new Promise<R>((resolve) => {
      const settle = (result: R) => {
        if (this.pending.delete(id)) resolve(result);
      };
      this.pending.set(id, { settle, cancelled });
      if (signal.aborted) settle(cancelled);
      else signal.addEventListener('abort', () => settle(cancelled), { once: true });
    });
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  /** Answers one request; false when it is no longer pending. */
  answer(id: string, result: R): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.settle(result);
    return true;
  }

  /** Answers every pending request with its cancelled result. */
  cancelAll(): void {
    for (const { settle, cancelled } of [...this.pending.values()]) settle(cancelled);
  }

  /** Forgets every pending request without answering (the connection is gone). */
  abandonAll(): void {
    this.pending.clear();
  }
}
