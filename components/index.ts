/**
 * The components entry: registers `<silo-chat>`, `<silo-transcript>` and `<silo-elicitation>`
 * (idempotent: importing it twice, or into a page that already defined them, is harmless) and
 * re-exports the element classes and their public types.
 * @packageDocumentation
 */
import './silo-elicitation.define.ts';
import './silo-transcript.define.ts';
import './silo-chat.define.ts';

export { ELICITATION_PARTS, TRANSCRIPT_PARTS } from './parts.ts';
export type { SiloChatStringsOverride, SiloErrorDetail, SiloSessionDetail } from './silo-chat.ts';
export { SiloChat } from './silo-chat.ts';
export type {
  SiloElicitationEventDetail,
  SiloElicitationEventMap,
} from './silo-elicitation.ts';
export { SiloElicitation } from './silo-elicitation.ts';
export type { SiloLoadErrorDetail, SiloPermissionAnsweredDetail } from './silo-transcript.ts';
export { SiloTranscript } from './silo-transcript.ts';
export type {
  SiloChatStrings,
  SiloElicitationStrings,
  SiloTranscriptStrings,
  StringsOverride,
} from './strings.ts';
export { defaultChatStrings, defaultElicitationStrings, defaultTranscriptStrings } from './strings.ts';
