/**
 * The part of a link's tap that concerns interactive requests: it hands the agent's permission
 * requests and questions, the client's answers and `elicitation/complete` to the session's
 * {@link RequestLedger}, tagged with the serial of the link they came on.
 */
import type {
  AnyMessage,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { RequestLedger } from './ledger.ts';
import type { AgentLink, LinkHost } from './link.ts';

/**
 * The {@link LinkHost} methods for requests. `link()` is the session's current link; with none
 * (the link ended meanwhile) a request is answered cancelled and nothing is journaled.
 */
export function requestTap(
  requests: RequestLedger,
  link: () => AgentLink | undefined,
  /** The session's id ('' before it is known); requests for another session are ignored… */
  sessionId: () => string,
  /** …but for one of its subagents (a child session it announced), which are its own. */
  isChild: (sessionId: string) => boolean = () => false,
): Omit<LinkHost, 'onUpdate'> {
  return {
    onInbound(message: AnyMessage): void {
      const m = message as { id?: string | number; method?: string; params?: Record<string, unknown> };
      const current = link();
      if (!current || m.id === undefined || m.id === null || !m.params) {
        if (m.method === 'elicitation/complete') requests.completeUrl(m.params?.elicitationId);
        return;
      }
      const target = m.params.sessionId;
      if (target !== undefined && target !== sessionId() && !(typeof target === 'string' && isChild(target)))
        return;
      requests.onRequest(current.serial, m.id, m.method, m.params);
    },
    onOutboundResponse(id: string | number, message: AnyMessage): void {
      const current = link();
      if (current) requests.onResponse(current.serial, id, message);
    },
    async permission(
      requestId: string | number,
      params: RequestPermissionRequest,
      signal: AbortSignal,
    ): Promise<RequestPermissionResponse> {
      const current = link();
      if (!current) return { outcome: { outcome: 'cancelled' } };
      return requests.permission(current.serial, requestId, params, signal);
    },
    async elicitation(
      requestId: string | number,
      params: CreateElicitationRequest,
      signal: AbortSignal,
    ): Promise<CreateElicitationResponse> {
      const current = link();
      if (!current) return { action: 'cancel' };
      return requests.elicitation(current.serial, requestId, params, signal);
    },
  };
}
