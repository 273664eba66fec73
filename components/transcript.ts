/**
 * The transcript entry (`silo-acp/components/transcript`): registers `<silo-transcript>` alone, for a
 * page that draws a conversation without `<silo-chat>` (the components entry registers both and
 * re-exports all of this). `<silo-elicitation>` is registered once it is first needed (its own chunk,
 * see `elicitation/silo-elicitation.chunk.ts`), and the Markdown and transcript-rows chunks start
 * loading as this entry is evaluated. Idempotent: importing it twice, beside the components entry, or
 * into a page that already defined the element, is harmless (each element is defined once).
 * @packageDocumentation
 */
import './transcript/silo-transcript.define.ts';
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

export { loadElicitation } from './elicitation/silo-elicitation.chunk.ts';
/** Loaded on demand: `await loadElicitation()` (or `customElements.whenDefined('silo-elicitation')`) for the class. */
export type {
  SiloElicitation,
  SiloElicitationEventDetail,
  SiloElicitationEventMap,
} from './elicitation/silo-elicitation.ts';
export { ELICITATION_PARTS, TRANSCRIPT_PARTS } from './shared/parts.ts';
export type {
  SiloElicitationStrings,
  SiloTranscriptStrings,
  StringsOverride,
} from './shared/strings/strings.ts';
export { defaultElicitationStrings, defaultTranscriptStrings } from './shared/strings/strings.ts';
export type {
  SiloFindResult,
  SiloLoadErrorDetail,
  SiloPermissionAnsweredDetail,
} from './transcript/silo-transcript.ts';
export { SiloTranscript } from './transcript/silo-transcript.ts';
