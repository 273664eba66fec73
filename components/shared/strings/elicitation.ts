/**
 * The strings of `<silo-elicitation>` (part of Silo's strings system, see shared/strings/strings.ts).
 * @packageDocumentation
 */
import {
  type AgentElicitationResolution,
  DEFAULT_ANSWER_WORDS,
  type ElicitationAnswerWords,
  type ElicitationIssueFormatter,
  formatElicitationIssue,
} from '../../../src/index.ts';

/** Every user-visible string of `<silo-elicitation>`. */
export interface SiloElicitationStrings extends ElicitationAnswerWords {
  /** Heading line: who is asking. */
  asks(agentName: string | undefined): string;
  answer: string;
  acknowledge: string;
  decline: string;
  cancel: string;
  /** Marks a required question (visible mark is `*`; this is its accessible text). */
  required: string;
  /** Error messages for invalid answers. */
  issue: ElicitationIssueFormatter;
  /** Shown instead of a control for a question of an unknown kind. */
  unsupportedQuestion(type: string): string;
  /** Shown for a request Silo cannot render (unknown mode or question kind). */
  unsupportedRequest: string;
  /** Shown above the field list when an answer is rejected. */
  fixErrors: string;
  /** Shown when sending an answer failed for another reason. */
  sendFailed(message: string): string;
  urlIntro: string;
  open: string;
  openAgain: string;
  stopWaiting: string;
  waiting: string;
  completed: string;
  stoppedWaiting: string;
  punycodeWarning(host: string): string;
  notOpenable: string;
  noAnswer: string;
  /** The label of a select question's own free-text answer (the agent's "Other" field). */
  other: string;
  resolution(resolution: AgentElicitationResolution | undefined, mode: string | undefined): string;
}

/** The default English strings of `<silo-elicitation>`. */
export const defaultElicitationStrings: SiloElicitationStrings = {
  ...DEFAULT_ANSWER_WORDS,
  asks: (agent) => (agent ? `${agent} asks` : 'The agent asks'),
  answer: 'Answer',
  acknowledge: 'OK',
  decline: 'Decline',
  cancel: 'Cancel',
  required: 'required',
  issue: formatElicitationIssue,
  unsupportedQuestion: (type) => `This question needs a kind of input (${type}) that cannot be shown here.`,
  unsupportedRequest: 'This request cannot be shown here. You can decline or cancel it.',
  fixErrors: 'Some answers need attention.',
  sendFailed: (message) => `Your answer could not be sent: ${message}`,
  urlIntro: 'The agent asks you to open this address:',
  open: 'Open in new tab',
  openAgain: 'Open again',
  stopWaiting: 'Stop waiting',
  waiting: 'Opened in a new tab. Waiting for the agent to confirm it is done.',
  completed: 'The agent confirmed it is done.',
  stoppedWaiting: 'Stopped waiting for the agent.',
  punycodeWarning: (host) =>
    `Careful: ${host} is an internationalized address; it may imitate a different site. Check it before you continue.`,
  notOpenable: 'Only http and https addresses can be opened. This one cannot.',
  noAnswer: 'No answer',
  other: 'Other…',
  resolution: (resolution, mode) => {
    switch (resolution) {
      case 'answered':
        return mode === 'url' ? 'You agreed to open the address.' : 'Answered.';
      case 'declined':
        return 'Declined.';
      case 'cancelled':
        return 'Cancelled.';
      case 'unanswerable':
        return 'This question could no longer be answered: the connection or page went away.';
      default:
        return 'This question can no longer be answered: it was still open when the page was closed or reloaded.';
    }
  },
};
