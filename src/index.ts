/**
 * `silo-acp`: the page API. Start with {@link createAgentsService}.
 * @packageDocumentation
 */
export type * from './api.ts';
export {
  DEFAULT_ANSWER_WORDS,
  describeUrl,
  type ElicitationAnswerWords,
  type ElicitationIssueFormatter,
  formatElicitationIssue,
  initialAnswers,
  validateAnswers,
} from './elicitation.ts';
export { SiloError, type SiloErrorCode } from './errors.ts';
export {
  EXPORT_HEADER_KIND,
  type JsonlExportInfo,
  type MarkdownExportOptions,
  parseJsonl,
  readJsonlExport,
  toJsonl,
  toMarkdown,
} from './export.ts';
export { createAgentsService } from './service.ts';
export { TranscriptModel } from './transcript/model.ts';
export type * from './transcript/rows.ts';
export type * from './types.ts';
