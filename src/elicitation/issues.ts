/**
 * What the page needs of elicitation answers before any form is shown: the issue codes a validation
 * reports, the default English message of each ({@link formatElicitationIssue}) and the words of an
 * answer's text ({@link DEFAULT_ANSWER_WORDS}). Kept apart from the validators (elicitation/index.ts,
 * the `silo-acp/elicitation` entry) so that the main entry, which the components' first paint loads,
 * holds these strings without the validators. Pure; nothing here throws.
 * @packageDocumentation
 */
import type { AgentElicitationQuestion } from '../types.ts';

/** Why an answer does not satisfy its question. */
export type ElicitationIssueCode =
  | 'required'
  | 'type'
  | 'option'
  | 'integer'
  | 'minimum'
  | 'maximum'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'minItems'
  | 'maxItems'
  | 'unsupported';

/** One validation problem: a code and, for bounds, the limit (a number) or, for `format`, the format name. */
export interface ElicitationIssue {
  readonly code: ElicitationIssueCode;
  readonly limit?: number | string;
}

/** Turns an issue into a message for the user. Pass your own to {@link validateAnswers} to localize. */
export type ElicitationIssueFormatter = (
  issue: ElicitationIssue,
  question: AgentElicitationQuestion,
) => string;

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uri: 'a URL',
  date: 'a date',
  'date-time': 'a date and time',
};

/** The default English messages. */
export const formatElicitationIssue: ElicitationIssueFormatter = (issue, question) => {
  const n = issue.limit;
  const items = question.type === 'multi-select';
  switch (issue.code) {
    case 'required':
      return items ? 'Choose at least one option.' : 'This question needs an answer.';
    case 'type':
      return question.type === 'number' || question.type === 'integer'
        ? 'Enter a number.'
        : 'This answer has the wrong type.';
    case 'option':
      return 'Choose one of the offered options.';
    case 'integer':
      return 'Enter a whole number.';
    case 'minimum':
      return `Enter a number of at least ${n}.`;
    case 'maximum':
      return `Enter a number of at most ${n}.`;
    case 'minLength':
      return `Enter at least ${n} character${n === 1 ? '' : 's'}.`;
    case 'maxLength':
      return `Enter at most ${n} character${n === 1 ? '' : 's'}.`;
    case 'pattern':
      return 'This answer is not in the expected form.';
    case 'format':
      return `Enter ${FORMAT_NAMES[String(n)] ?? 'a valid value'}.`;
    case 'minItems':
      return `Choose at least ${n} option${n === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `Choose at most ${n} option${n === 1 ? '' : 's'}.`;
    case 'unsupported':
      return 'This question cannot be answered here.';
  }
};

/** Words used in answer text; replace to localize the durable `"Yes"`/`"No"` and the multi-select joiner. */
export interface ElicitationAnswerWords {
  readonly yes: string;
  readonly no: string;
  readonly separator: string;
  /** Before the text typed in a question's "Other…" field, in the answer's text: `Other: …`. */
  readonly other?: string;
}

export const DEFAULT_ANSWER_WORDS: ElicitationAnswerWords = {
  yes: 'Yes',
  no: 'No',
  separator: ', ',
  other: 'Other',
};
