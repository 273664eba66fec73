/**
 * `silo-acp`: the page API. Start with {@link createAgentsService}.
 *
 * Two parts of it are entries of their own, so that a page's first paint (this entry and the
 * components) does not load them: `silo-acp/export` (JSONL and Markdown export and import, with the
 * `diff` package) and `silo-acp/elicitation` (the answers' validators). Load them with `import()`
 * where they are used, or import them statically if the first paint does not matter.
 * @packageDocumentation
 */
export type * from './api.ts';
export {
  DEFAULT_ANSWER_WORDS,
  type ElicitationAnswerWords,
  type ElicitationIssue,
  type ElicitationIssueCode,
  type ElicitationIssueFormatter,
  formatElicitationIssue,
} from './elicitation/issues.ts';
export { describeUrl, type ElicitationUrlParts, parseUrl } from './elicitation/url.ts';
export { SiloError, type SiloErrorCode } from './errors.ts';
export { createAgentsService } from './service.ts';
export { requestRowKey } from './transcript/keys.ts';
export { TranscriptModel } from './transcript/model.ts';
export { lastUserMessage, promptBlocks } from './transcript/prompt.ts';
export type * from './transcript/rows.ts';
export { overwriteLines, terminalText } from './transcript/terminal.ts';
export type * from './types.ts';
