/**
 * Sessions the agent knows (`session/list`), for a history list: a short-lived connection that
 * initializes, follows `nextCursor` to the end (cursors are never persisted), and closes.
 */
import type { AgentBridgeOptions, AgentSessionSummary } from '../src/types.ts';
import { AgentLink, type LinkHost } from './link.ts';

/** Most pages followed, so an agent that always returns a cursor cannot keep us forever. */
const MAX_PAGES = 50;

const ignore: LinkHost = {
  onUpdate() {},
  onInbound() {},
  onOutboundResponse() {},
  permission: async () => ({ outcome: { outcome: 'cancelled' } }),
  elicitation: async () => ({ action: 'cancel' }),
};

/**
 * Lists the agent's sessions, or `[]` when it does not advertise `session/list`. Rejects with the
 * connection's coded error when the bridge cannot be reached.
 */
export async function listAgentSessions(
  bridge: AgentBridgeOptions,
  cwd?: string,
): Promise<AgentSessionSummary[]> {
  const link = await AgentLink.open(bridge, ignore);
  try {
    if (!link.initialize.agentCapabilities?.sessionCapabilities?.list) return [];
    const out: AgentSessionSummary[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await link.request<{ sessions?: unknown[]; nextCursor?: string | null }>('session/list', {
        ...(cwd ? { cwd } : {}),
        ...(cursor ? { cursor } : {}),
      });
      for (const s of r.sessions ?? []) {
        const info = s as { sessionId?: unknown; cwd?: unknown; title?: unknown; updatedAt?: unknown };
        if (typeof info.sessionId !== 'string') continue;
        out.push({
          sessionId: info.sessionId,
          ...(typeof info.title === 'string' ? { title: info.title } : {}),
          ...(typeof info.cwd === 'string' ? { cwd: info.cwd } : {}),
          ...(typeof info.updatedAt === 'string' ? { updatedAt: info.updatedAt } : {}),
          agent: link.initialize.agentInfo?.title ?? link.initialize.agentInfo?.name,
          loadable: true,
        });
      }
      cursor = typeof r.nextCursor === 'string' ? r.nextCursor : undefined;
      if (!cursor) break;
    }
    return out;
  } finally {
    link.close();
  }
}
