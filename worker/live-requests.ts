/**
 * The page's side of the ledger's live requests (worker/ledger.ts shows them and settles them): what
 * the page and the tabs that follow are shown of a request and told of its end, and the page's
 * answer checked and made the response the agent gets. Pure; an answer that is not valid throws
 * {@link SiloError} `invalid-params`.
 */
import type { CreateElicitationResponse, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { type NormalizedElicitation, validateAnswers } from '../src/elicitation/model.ts';
import { SiloError } from '../src/errors.ts';
import type { AgentRequestResolution, AgentToolCall, PermissionOption } from '../src/types.ts';
import type { ElicitationAction, ElicitationWire, PermissionWire } from '../src/worker-api.ts';

/** A live request as the page is shown it, and `seq`: its journaled row's. */
export type LiveRequest =
  | { readonly kind: 'permission'; readonly wire: PermissionWire; readonly seq: number }
  | { readonly kind: 'elicitation'; readonly wire: ElicitationWire; readonly seq: number };

/** Where live requests go: the page, and the tabs that follow. */
export interface RequestDelivery {
  /** Shows a request whose row has been delivered. */
  show(request: LiveRequest): void;
  /** A request ended (whether or not it was shown). */
  requestEnded(id: string, resolution: AgentRequestResolution): void;
}

/** The agent's response to a permission request cancelled, or never shown to the page. */
export const CANCELLED_PERMISSION: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
/** The agent's response to a question cancelled, or never shown to the page. */
export const CANCELLED_ELICITATION: CreateElicitationResponse = { action: 'cancel' };

/** Permission request `id` of session `sessionId`, its tool call normalized, as the page is shown it. */
export function permissionWire(
  id: string,
  sessionId: string,
  toolCall: AgentToolCall | undefined,
  options: PermissionWire['options'],
): PermissionWire {
  return { id, sessionId, toolCall: toolCall ?? { toolCallId: '' }, options };
}

/** Question `id`, normalized as `n`, as the page is shown it. */
export function elicitationWire(id: string, n: NormalizedElicitation): ElicitationWire {
  return {
    id,
    ...(n.sessionId ? { sessionId: n.sessionId } : {}),
    mode: n.mode,
    message: n.message,
    questions: n.questions,
    acknowledgeOnly: n.acknowledgeOnly,
    ...(n.toolCallId ? { toolCallId: n.toolCallId } : {}),
    ...(n.url ? { url: n.url } : {}),
    unsupported: n.unsupported,
    raw: n.raw,
  };
}

/**
 * The agent's response to the option the page chose (`null`: cancel). Throws `invalid-params` for an
 * option the agent did not offer.
 */
export function permissionResponse(
  options: readonly PermissionOption[] | undefined,
  optionId: string | null,
): RequestPermissionResponse {
  if (optionId !== null && !options?.some((o) => o.optionId === optionId)) {
    throw new SiloError('invalid-params', `Unknown permission option ${optionId}`);
  }
  return optionId === null ? CANCELLED_PERMISSION : { outcome: { outcome: 'selected', optionId } };
}

/**
 * The agent's response to the page's answer to question `n`, and for an accept the answers' text
 * to journal. Accept validates first: throws `invalid-params` for a question that can only be
 * declined or cancelled, and with `data.errors` for answers that are not valid.
 */
export function elicitationResponse(
  n: NormalizedElicitation,
  action: ElicitationAction,
): { response: CreateElicitationResponse; answerText?: Record<string, string> } {
  if (action.action !== 'accept') return { response: { action: action.action } };
  if (n.unsupported) throw new SiloError('invalid-params', 'This question can only be declined or cancelled');
  const result = validateAnswers(n.questions, action.answers);
  if (!result.ok)
    throw new SiloError('invalid-params', 'Some answers are not valid', { errors: result.errors });
  // A url accept is consent to open the URL: it carries no content.
  return {
    response: n.elicitationId ? { action: 'accept' } : { action: 'accept', content: result.content },
    answerText: result.text,
  };
}
