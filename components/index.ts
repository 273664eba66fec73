/**
 * The components entry: registers `<silo-chat>` and `<silo-transcript>`, and `<silo-elicitation>` once
 * it is first needed or the page is idle (its own chunk, see `lazy.ts`), and starts loading the
 * Markdown and transcript-rows chunks; idempotent: importing it twice, or into a page that already
 * defined them, is harmless. Re-exports the element classes (the question's through
 * {@link loadElicitation}) and their public types.
 * @packageDocumentation
 */
import './silo-transcript.define.ts';
import './silo-chat.define.ts';
import { loadElicitationWhenIdle } from './lazy.ts';
import { loadMarkdown } from './markdown-chunk.ts';
import { loadTranscriptView } from './transcript-log-lazy.ts';

// `<silo-elicitation>` is not needed for the first paint: a transcript loads it with its first question.
loadElicitationWhenIdle();
// Agent Markdown (marked, DOMPurify) is its own chunk: its load starts now, beside the first paint.
loadMarkdown().catch(() => undefined);
// The transcript's rows (virtualizer, row templates, their styles) too: loading now, they are in before
// a journal's first rows are (until then a transcript draws its frame: transcript-log-lazy.ts).
loadTranscriptView().catch(() => undefined);

export { loadElicitation } from './lazy.ts';
export { ELICITATION_PARTS, TRANSCRIPT_PARTS } from './parts.ts';
export type { SiloChatStringsOverride, SiloErrorDetail, SiloSessionDetail } from './silo-chat.ts';
export { SiloChat } from './silo-chat.ts';
/** Loaded on demand: `await loadElicitation()` (or `customElements.whenDefined('silo-elicitation')`) for the class. */
export type {
  SiloElicitation,
  SiloElicitationEventDetail,
  SiloElicitationEventMap,
} from './silo-elicitation.ts';
export type { SiloLoadErrorDetail, SiloPermissionAnsweredDetail } from './silo-transcript.ts';
export { SiloTranscript } from './silo-transcript.ts';
export type {
  SiloChatStrings,
  SiloElicitationStrings,
  SiloFindStrings,
  SiloTranscriptStrings,
  StringsOverride,
} from './strings.ts';
export {
  defaultChatStrings,
  defaultElicitationStrings,
  defaultFindStrings,
  defaultTranscriptStrings,
} from './strings.ts';
export type { SiloFindResult } from './transcript-find.ts';
