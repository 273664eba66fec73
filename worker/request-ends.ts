/**
 * How a request of the ledger (worker/ledger.ts) ended, as it is journaled: from the client's
 * response to the agent (`selected` or `cancelled` for a permission, `answered`, `declined` or
 * `cancelled` for a question), or `unanswerable` once it can no longer be answered. Pure: the ledger
 * journals each end once and tells the page.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { toResolutionRecord } from '../src/elicitation/model.ts';
import type { Raw } from '../src/json.ts';
import type { AgentRequestResolution, AgentSessionUpdate } from '../src/types.ts';

/** A request's end: the update to journal, and the resolution the page is told. */
export interface RequestEnd {
  readonly update: Omit<AgentSessionUpdate, 'seq'>;
  readonly resolution: AgentRequestResolution;
}

/**
 * The end of request `id` that the client's `message` (its response to the agent) says: a
 * permission response with no result is `unanswerable`. `answerText` is a question's answers as the
 * page gave them, journaled with an accept.
 */
export function answeredEnd(
  kind: 'permission' | 'elicitation',
  id: string,
  answerText: Record<string, string> | undefined,
  message: AnyMessage,
): RequestEnd {
  const result = (message as { result?: Raw }).result;
  const raw = (message as unknown as Raw) ?? {};
  if (kind === 'permission') {
    const outcome = result?.outcome as Raw | undefined;
    const selected = outcome?.outcome === 'selected' && typeof outcome.optionId === 'string';
    const permission = selected
      ? { id, resolution: 'selected' as const, optionId: outcome.optionId as string }
      : { id, resolution: result ? ('cancelled' as const) : ('unanswerable' as const) };
    return { update: { kind: 'permission_resolution', permission, raw }, resolution: permission.resolution };
  }
  const action = result?.action;
  const resolution = action === 'accept' ? 'answered' : action === 'decline' ? 'declined' : 'cancelled';
  return {
    update: {
      kind: 'elicitation_resolution',
      elicitation: toResolutionRecord(id, resolution, answerText),
      raw,
    },
    resolution,
  };
}

/** The `unanswerable` end of request `id`: its connection or its page went away. */
export function unanswerableEnd(kind: 'permission' | 'elicitation', id: string): RequestEnd {
  const resolution = 'unanswerable' as const;
  if (kind === 'permission')
    return { update: { kind: 'permission_resolution', permission: { id, resolution }, raw: {} }, resolution };
  return { update: { kind: 'elicitation_resolution', elicitation: { id, resolution }, raw: {} }, resolution };
}
