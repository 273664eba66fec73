/**
 * The components entry: registers `<silo-chat>` and `<silo-transcript>`, and `<silo-elicitation>` once
 * it is first needed (its own chunk, see `elicitation/silo-elicitation.chunk.ts`), and starts loading the
 * Markdown and transcript-rows chunks; idempotent: importing it twice, or into a page that already
 * defined them, is harmless. Re-exports the element classes (the question's through
 * {@link loadElicitation}) and their public types.
 * @packageDocumentation
 */
import './transcript/silo-transcript.define.ts';
import './chat/silo-chat.define.ts';
import { loadMarkdown } from './content/markdown-render.chunk.ts';
import { loadElicitationWhenIdle } from './elicitation/silo-elicitation.chunk.ts';
import { loadTranscriptView } from './transcript/rows.chunk.ts';

// `<silo-elicitation>` is not needed for the first paint, nor for first rows without a question: a
// transcript loads it with its first question; the page's own markup, once the page is idle.
loadElicitationWhenIdle();
// Agent Markdown (marked and its sanitizer) is its own chunk: its load starts now, beside the first paint.
loadMarkdown().catch(() => undefined);
// The transcript's rows (virtualizer, row templates, their styles) too: loading now, they are in before
// a journal's first rows are (until then a transcript draws its frame: transcript/log.lazy.ts).
loadTranscriptView().catch(() => undefined);

export type { SiloChatStringsOverride, SiloErrorDetail, SiloSessionDetail } from './chat/silo-chat.ts';
export { SiloChat } from './chat/silo-chat.ts';
export { loadElicitation } from './elicitation/silo-elicitation.chunk.ts';
/** Loaded on demand: `await loadElicitation()` (or `customElements.whenDefined('silo-elicitation')`) for the class. */
export type {
  SiloElicitation,
  SiloElicitationEventDetail,
  SiloElicitationEventMap,
} from './elicitation/silo-elicitation.ts';
export { ELICITATION_PARTS, TRANSCRIPT_PARTS } from './shared/parts.ts';
export type {
  SiloChatStrings,
  SiloElicitationStrings,
  SiloFindStrings,
  SiloTranscriptStrings,
  StringsOverride,
} from './shared/strings/strings.ts';
export {
  defaultChatStrings,
  defaultElicitationStrings,
  defaultFindStrings,
  defaultTranscriptStrings,
} from './shared/strings/strings.ts';
export type {
  SiloFindResult,
  SiloLoadErrorDetail,
  SiloPermissionAnsweredDetail,
} from './transcript/silo-transcript.ts';
export { SiloTranscript } from './transcript/silo-transcript.ts';
