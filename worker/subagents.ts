/**
 * The child sessions (ACP subagents) of one session: a `subagent_update` from the session, or from a
 * child it knows, announces a child, and from then on that child's updates (sent under its own
 * session id on the same connection) are journaled in the parent's journal, each marked with
 * `subagentSessionId`, in wire order with the parent's. Any other session id stays quarantined.
 * Each child has its own message-id synthesizer, so its id-less chunks never join the parent's.
 */
import type { Raw } from '../src/json.ts';
import type { AgentSessionUpdate } from '../src/types.ts';
import { MessageIdSynthesizer, normalizeUpdate } from './normalize.ts';

/** The children a session's agent announced, learned from its journal and its live updates. */
export class SubagentSessions {
  private readonly ids = new Map<string, MessageIdSynthesizer>();

  /** Knows exactly `children` (a session bound anew takes them from its journal's fold). */
  restore(children: readonly string[]): void {
    this.ids.clear();
    for (const child of children) this.ids.set(child, new MessageIdSynthesizer());
  }

  /** True for an announced child's session id. */
  has(sessionId: unknown): sessionId is string {
    return typeof sessionId === 'string' && this.ids.has(sessionId);
  }

  /** Learns from one update, journaled or live: a `subagent_update` from the session or a known child. */
  learn(u: AgentSessionUpdate): void {
    const child = announcedChild(u, (id) => this.ids.has(id));
    if (child !== undefined) this.ids.set(child, new MessageIdSynthesizer());
  }

  /** A child's update normalized at journal position `seq`, marked as that child's work. */
  normalize(raw: Raw, sessionId: string, seq: number): AgentSessionUpdate {
    const ids = this.ids.get(sessionId) ?? new MessageIdSynthesizer();
    return { ...normalizeUpdate(raw, seq, ids), subagentSessionId: sessionId };
  }
}

/**
 * The child a journaled update announces, if it is new: a `subagent_update` from the session or from
 * a child it knows (`known`).
 */
export function announcedChild(
  u: AgentSessionUpdate,
  known: (sessionId: string) => boolean,
): string | undefined {
  if (u.kind !== 'subagent_update') return undefined;
  const child = (u.raw as { sessionId?: unknown }).sessionId;
  if (typeof child !== 'string' || !child || known(child)) return undefined;
  return u.subagentSessionId === undefined || known(u.subagentSessionId) ? child : undefined;
}
