/**
 * The components entry (`silo-acp/components`): registers `<silo-chat>` and everything the transcript
 * entry does (components/transcript.ts: `<silo-transcript>`, `<silo-elicitation>` once it is first
 * needed, the Markdown and transcript-rows chunks loading from now), and re-exports both elements'
 * classes and public types. Idempotent: importing it twice, beside the transcript entry, or into a page
 * that already defined the elements, is harmless.
 * @packageDocumentation
 */
// The transcript entry first: its chunks start loading before the chat's modules are evaluated.
import './transcript.ts';
import './chat/silo-chat.define.ts';

export type { SiloChatStringsOverride, SiloErrorDetail, SiloSessionDetail } from './chat/silo-chat.ts';
export { SiloChat } from './chat/silo-chat.ts';
export type { SiloChatStrings, SiloFindStrings } from './shared/strings/chat.ts';
export { defaultChatStrings, defaultFindStrings } from './shared/strings/chat.ts';
export * from './transcript.ts';
