/**
 * The message ids Silo gives the user messages it journals itself (worker/prompt-turns.ts): a prompt,
 * which opens a turn, is `silo-u<seq>`; a message sent into a running turn is `silo-s<seq>` and opens
 * none. The worker gives an agent's id-less messages `silo-m<seq>` (worker/normalize.ts) and keeps
 * the agent's own ids as they are.
 * @packageDocumentation
 */
import type { AgentSessionUpdate } from './session-update.ts';

/** The prefix of a prompt's message id. */
export const PROMPT_ID_PREFIX = 'silo-u';

/** The prefix of the id of a message sent into a running turn. */
export const STEER_ID_PREFIX = 'silo-s';

/** True for a message id of Silo's own prompt. */
export const isPromptId = (id: string | undefined): boolean => id?.startsWith(PROMPT_ID_PREFIX) === true;

/** True for Silo's own prompt as journaled: the user chunk that opens a turn. */
export function isSiloPrompt(u: Pick<AgentSessionUpdate, 'kind' | 'messageId'>): boolean {
  return u.kind === 'user_message_chunk' && isPromptId(u.messageId);
}
