/**
 * The shadow parts each element documents, in one place, so that every documented part is really
 * styleable from the page: `<silo-transcript>` re-exports the parts of each `<silo-elicitation>` it
 * holds (prefixed `elicitation-`: `silo-transcript::part(elicitation-answer)`), and `<silo-chat>`
 * re-exports every part of its transcript under the same name (`silo-chat::part(row)`,
 * `silo-chat::part(elicitation-answer)`). A part added to a template belongs in its list here.
 * @packageDocumentation
 */

/** The parts of `<silo-elicitation>`. */
export const ELICITATION_PARTS = [
  'base',
  'live',
  'record',
  'header',
  'message',
  'form',
  'field',
  'label',
  'required',
  'description',
  'control',
  'other',
  'other-input',
  'error',
  'unsupported',
  'url',
  'url-host',
  'warning',
  'status',
  'actions',
  'button',
  'answer',
  'decline',
  'cancel',
  'answers',
  'questions',
] as const;

/** The prefix of a question's parts as `<silo-transcript>` exports them. */
export const ELICITATION_PREFIX = 'elicitation-';

/** The parts of `<silo-transcript>`'s own shadow root. */
export const TRANSCRIPT_OWN_PARTS = [
  'usage',
  'usage-meter',
  'usage-tokens',
  'usage-cost',
  'log',
  'row',
  'message',
  'message-user',
  'message-agent',
  'thought',
  'tool',
  'tool-summary',
  'tool-kind',
  'tool-title',
  'tool-counts',
  'tool-status',
  'tool-body',
  'tool-locations',
  'tool-output',
  'tool-exit',
  'terminal',
  'terminal-output',
  'terminal-exit',
  'terminal-earlier',
  'terminal-show-all',
  'subagent',
  'subagent-summary',
  'subagent-task',
  'subagent-rows',
  'subagent-answer',
  'diff',
  'diff-new',
  'plan',
  'plan-list',
  'notice',
  'notice-info',
  'notice-warning',
  'notice-error',
  'notice-other',
  'compaction',
  'permission',
  'permission-prompt',
  'permission-keys',
  'permission-command',
  'permission-options',
  'permission-option',
  'permission-resolution',
  'elicitation',
  'turn-start',
  'turn-end',
  'turn-duration',
  'turn-tokens',
  'branch',
  'unknown',
  'image',
  'resource-link',
  'resource',
  'placeholder',
  'excluded',
  'steered',
  'jump',
  'empty',
] as const;

/** Every part styleable through `<silo-transcript>`: its own and its questions' (prefixed). */
export const TRANSCRIPT_PARTS: readonly string[] = [
  ...TRANSCRIPT_OWN_PARTS,
  ...ELICITATION_PARTS.map((p) => `${ELICITATION_PREFIX}${p}`),
];

/** An `exportparts` value exporting `parts`, each renamed with `prefix` (none: the same name). */
export function exportParts(parts: readonly string[], prefix = ''): string {
  return parts.map((p) => (prefix ? `${p}:${prefix}${p}` : p)).join(', ');
}

/** The `exportparts` of a `<silo-elicitation>` inside a transcript. */
export const ELICITATION_EXPORTPARTS = exportParts(ELICITATION_PARTS, ELICITATION_PREFIX);

/** The `exportparts` of the `<silo-transcript>` inside a chat. */
export const TRANSCRIPT_EXPORTPARTS = exportParts(TRANSCRIPT_PARTS);
