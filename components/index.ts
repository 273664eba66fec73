/**
 * The components entry: registers `<silo-transcript>`, `<silo-chat>` and `<silo-elicitation>`
 * (idempotent: importing it twice, or into a page that already defined them, is harmless) and
 * re-exports the element classes and their public types.
 * @packageDocumentation
 */
import './silo-elicitation.define.ts';
import './silo-transcript.define.ts';

export { SiloElicitation } from './silo-elicitation.ts';
export type { SiloTranscriptStrings } from './strings.ts';
export type { SiloLoadErrorDetail, SiloPermissionAnsweredDetail } from './silo-transcript.ts';
export { SiloTranscript } from './silo-transcript.ts';
