/** Written-out ACP `session/update` payloads for the restore and replay-shape tests. */

/** One raw `session/update` payload. */
export type Raw = Record<string, unknown>;

/** A text chunk of `kind`, with `messageId` when given. */
export const text = (kind: string, t: string, messageId?: string): Raw => ({
  sessionUpdate: kind,
  content: { type: 'text', text: t },
  ...(messageId ? { messageId } : {}),
});
/** A user message chunk. */
export const user = (t: string, id?: string) => text('user_message_chunk', t, id);
/** An agent message chunk. */
export const agent = (t: string, id?: string) => text('agent_message_chunk', t, id);
