/**
 * What needs the agent but no live session, each on a short-lived connection that initializes, asks
 * and closes: the sessions the agent knows (`session/list`, for a history list, following
 * `nextCursor` to the end; cursors are never persisted), and deleting the agent's copy of a session
 * (`session/delete`, with Clear).
 */
import type { AgentClearResult } from '../src/api.ts';
import { SiloError } from '../src/errors.ts';
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

/**
 * Asks the agent to delete its copy of `sessionId` (`session/delete`) when it offers that. Never
 * rejects: an unreachable bridge or a refusal is `failed` with the coded error.
 */
export async function deleteAgentSession(
  bridge: AgentBridgeOptions,
  sessionId: string,
): Promise<AgentClearResult> {
  let link: AgentLink | undefined;
  try {
    link = await AgentLink.open(bridge, ignore);
    if (!link.initialize.agentCapabilities?.sessionCapabilities?.delete) return { agentCopy: 'not-offered' };
    await link.request('session/delete', { sessionId });
    return { agentCopy: 'deleted' };
  } catch (error) {
    const e = SiloError.from(error);
    return { agentCopy: 'failed', error: { code: e.code, message: e.message } };
  } finally {
    link?.close();
  }
}
