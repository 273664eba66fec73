/**
 * What `<silo-chat>` reads from its transcript, and where focus goes after a prompt in it is answered.
 * @packageDocumentation
 */
import { type AgentContentBlock, lastUserMessage, promptBlocks } from '../../src/index.ts';
import type { SiloTranscript } from '../transcript/silo-transcript.ts';

/** An element with an open shadow root holding a `<silo-transcript>` and the composer's textarea. */
type ChatElement = HTMLElement & { readonly renderRoot: ParentNode };

/** The chat's `<silo-transcript>`, once rendered. */
export const transcriptOf = (chat: ChatElement): SiloTranscript | null =>
  chat.renderRoot.querySelector('silo-transcript');

/**
 * The content blocks of the last message the user sent in the chat's session (from its transcript),
 * if any: what Edit last puts back and Retry sends again.
 */
export function lastPrompt(chat: ChatElement): AgentContentBlock[] | undefined {
  const row = lastUserMessage(transcriptOf(chat)?.model.rows ?? []);
  return row ? promptBlocks(row) : undefined;
}

/**
 * After a permission or a question is answered its buttons go away: focus returns to the composer,
 * unless the user has moved it somewhere else meanwhile (outside the transcript). Resolves once done.
 */
export async function returnFocus(chat: ChatElement): Promise<void> {
  const transcript = transcriptOf(chat);
  await transcript?.updateComplete;
  await new Promise((r) => requestAnimationFrame(r));
  const active = document.activeElement;
  const inChat = active === chat && (chat.renderRoot as ShadowRoot).activeElement;
  const lost = !active || active === document.body || (inChat && inChat === transcript);
  if (lost || (active === chat && !inChat)) chat.renderRoot.querySelector('textarea')?.focus();
}
