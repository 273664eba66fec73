/**
 * Scenarios for what agents send beyond a plain turn: a turn that takes steered messages, Claude's
 * AskUserQuestion form (each select question followed by its free-text `question_N_custom`).
 */
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';
import { elicitForm } from './interactive.ts';

/**
 * The form claude-agent-acp 0.101 asks for two AskUserQuestion questions (its elicitation.js): each
 * question `question_N` (a titled `oneOf`, or an array of titled `anyOf`; `title` its header,
 * `description` the question), then its own optional free-text `question_N_custom` titled "Other".
 */
export const ASK_USER_QUESTION_SCHEMA = {
  type: 'object',
  properties: {
    question_0: {
      type: 'string',
      title: 'Database',
      description: 'Which database should the app use?',
      oneOf: [
        { const: 'Postgres', title: 'Postgres', description: 'A server, for many writers' },
        { const: 'SQLite', title: 'SQLite', description: 'A file, for one writer' },
      ],
    },
    question_0_custom: {
      type: 'string',
      title: 'Other',
      description: 'Type your own answer, or add a note to the option you chose above (optional).',
    },
    question_1: {
      type: 'array',
      title: 'Extras',
      description: 'What else should it have?',
      items: {
        anyOf: [
          { const: 'Tests', title: 'Tests' },
          { const: 'Docs', title: 'Docs' },
        ],
      },
    },
    question_1_custom: {
      type: 'string',
      title: 'Other',
      description: 'Type your own answer to add to your selection above (optional).',
    },
  },
};

const textOf = (blocks: ContentBlock[]) =>
  blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(' ');

/**
 * Says it is working, then waits up to `ms` (default 10000) for a message steered into the turn
 * (`--steering`), answers it, and ends; a cancel ends it at once.
 */
export async function steerWait(turn: Turn): Promise<StopReason> {
  const ms = Number(turn.args[0] ?? 10_000);
  await turn.say('Working on it; send me a message meanwhile.');
  const steered = await turn.steers.next(turn.signal, ms);
  if (turn.signal.aborted) return turn.end();
  await turn.say(
    steered ? `You said, during the turn: ${textOf(steered)}` : 'No message came during the turn.',
  );
  return turn.end();
}

export const scenarios: readonly Scenario[] = [
  {
    name: 'ask-user-question',
    args: '[force]',
    description: "Claude's AskUserQuestion form: two questions, each with its own free-text Other field.",
    run: (turn) => elicitForm(turn, ASK_USER_QUESTION_SCHEMA, 'Please answer the following questions.'),
  },
  {
    name: 'steer-wait',
    args: '[ms]',
    description:
      'Waits for a message steered into the running turn (agent flag --steering), then answers it.',
    run: steerWait,
  },
];
