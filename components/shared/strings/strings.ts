/**
 * The one strings system of Silo's elements: every user-visible string of `<silo-chat>`,
 * `<silo-transcript>` and `<silo-elicitation>`, replaceable for localization. Set an element's
 * `strings` property to a partial object ({@link StringsOverride}); missing keys fall back to English.
 * Each element passes its part down: `<silo-chat>` gives `strings.transcript` to its transcript, and
 * the transcript gives `strings.elicitation` (and its `locale`) to every question it shows.
 * Numbers, dates and currency are formatted with `Intl` in the element's `locale`. `<silo-chat>`'s own
 * strings are in `chat.ts`, which only the chat imports (the transcript entry does not carry them).
 * @packageDocumentation
 */
import { defaultElicitationStrings, type SiloElicitationStrings } from './elicitation.ts';

export * from './elicitation.ts';

/**
 * A partial replacement for a strings object, one level deep: a nested group (such as
 * `stop` or `elicitation`) may itself be partial; functions are replaced whole.
 */
export type StringsOverride<T> = {
  [K in keyof T]?: T[K] extends (...args: never[]) => unknown
    ? T[K]
    : T[K] extends object
      ? Partial<T[K]>
      : T[K];
};

/** Strings of the copy buttons on messages and code blocks (components/content/copy.ts). */
export interface SiloCopyStrings {
  copy: string;
  copied: string;
  copyFailed: string;
  /** Tooltip of a message's copy button. */
  copyMessage: string;
  /** Tooltip of a code block's copy button. */
  copyCode: string;
}

export const defaultCopyStrings: SiloCopyStrings = {
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Copy failed',
  copyMessage: 'Copy this message',
  copyCode: 'Copy this code',
};

/**
 * Strings of text past the rendering bounds (components/content/long-text.ts): the part shown
 * collapsed, as plain text, behind "Show all". Functions receive already-formatted numbers.
 */
export interface SiloLongTextStrings {
  /** What the collapsed part holds, e.g. "1,968,000 more characters, as plain text". */
  longText: (characters: string) => string;
  showAll: string;
  showLess: string;
  copyAll: string;
  /** Tooltip of the "Copy all" button. */
  copyAllTitle: string;
  /** The end of a clipped diff line: how many of its characters are not shown. */
  clippedLine: (characters: string) => string;
}

export const defaultLongTextStrings: SiloLongTextStrings = {
  longText: (characters) => `${characters} more characters, as plain text`,
  showAll: 'Show all',
  showLess: 'Show less',
  copyAll: 'Copy all',
  copyAllTitle: 'Copy the whole text',
  clippedLine: (characters) => `… ${characters} more characters`,
};

/** The strings of rendered agent text: copy buttons and long text. */
export type SiloContentStrings = SiloCopyStrings & SiloLongTextStrings;

export const defaultContentStrings: SiloContentStrings = { ...defaultCopyStrings, ...defaultLongTextStrings };

/** The strings of `<silo-transcript>`. Functions receive already-formatted values. */
export interface SiloTranscriptStrings extends SiloCopyStrings, SiloLongTextStrings {
  transcriptLabel: string;
  you: string;
  agent: string;
  thought: string;
  jumpToLatest: string;
  turnStarted: string;
  turnEnded: (reason: string) => string;
  /** The divider that opens a turn the agent started by itself (`reason`: what started it, if it said). */
  agentTurn: (reason: string | undefined) => string;
  excluded: string;
  /** The badge of a message the user sent into the running turn (the agent steered it in). */
  steered: string;
  /** A turn end's button that starts a new session carrying the conversation up to that turn. */
  branch: string;
  branchHint: string;
  /** A turn's token counts, when the agent reported them (formatted numbers; `input`/`output` may be empty). */
  turnTokens: (total: string, input: string, output: string) => string;
  /** A thought's summary once its duration is known (`duration` formatted). */
  thoughtFor: (duration: string) => string;
  /** The last turn's Retry (with `turn-actions`): its prompt again, with its files, as a new turn. */
  retryTurn: string;
  /** Tooltip and accessible description of {@link retryTurn}. */
  retryTurnLabel: string;
  /** The last turn's Continue, after it stopped at the token limit. */
  continueTurn: string;
  /** Tooltip and accessible description of {@link continueTurn}. */
  continueTurnLabel: string;
  stop: {
    end_turn: string;
    cancelled: string;
    refusal: string;
    max_tokens: string;
    max_turn_requests: string;
    interrupted: string;
    error: (message: string) => string;
    other: (reason: string) => string;
  };
  toolKind: Record<string, string>;
  toolStatus: Record<string, string>;
  untitledTool: string;
  newFile: string;
  diffOf: (path: string) => string;
  /** What a card's or diff's +/− counts say to assistive technology. */
  linesChanged: (added: string, removed: string) => string;
  /** Shown while a diff's differ loads. */
  loadingDiff: string;
  moreLines: (count: string) => string;
  terminal: (id: string) => string;
  /** A terminal's end: its exit code, the signal that ended it, or neither known. */
  terminalExit: (code: string) => string;
  terminalSignal: (signal: string) => string;
  terminalEnded: string;
  terminalRunning: string;
  /** The terminal shows only the end of its output: the button that shows it all. */
  terminalShowAll: string;
  /** The note above an output's end when its start is not drawn (a formatted character count). */
  terminalEarlier: (characters: string) => string;
  /** A subagent's card body: its fold, task, and answer. */
  subagent: (title: string) => string;
  subagentSteps: (count: string) => string;
  subagentTask: string;
  subagentAnswer: string;
  subagentState: Record<string, string>;
  input: string;
  output: string;
  plan: string;
  planStatus: Record<string, string>;
  priority: (p: string) => string;
  contextUsed: string;
  usage: (used: string, size: string, percent: string) => string;
  /** The session's tokens in the usage header (the sum of its turns'). */
  sessionTokens: (total: string) => string;
  /** The full counts behind a short token figure (a tooltip); `input` / `output` are empty when unknown. */
  tokensDetail: (total: string, input: string, output: string) => string;
  /** A duration under a minute (`n` with its decimals), and one of a minute or more. */
  seconds: (n: string) => string;
  minutes: (m: string, s: string) => string;
  cost: (amount: string) => string;
  notice: Record<string, string>;
  compaction: string;
  compactionStatus: Record<string, string>;
  permissionAsk: (title: string) => string;
  /** The keys of a live permission prompt. */
  permissionKeys: string;
  permissionChosen: (option: string) => string;
  permissionCancelled: string;
  permissionUnanswerable: string;
  permissionUnanswered: string;
  permissionFailed: (message: string) => string;
  image: (mime: string) => string;
  unsupportedImage: (mime: string) => string;
  /** An image given only by address (`uri`): never fetched, so not shown. */
  imageNotShown: (uri: string) => string;
  audio: (mime: string) => string;
  /** How an embedded resource is named: `name` is its URI's file name (or the URI when it has none). */
  resource: (name: string) => string;
  unknownBlock: (type: string) => string;
  unknownUpdate: (kind: string) => string;
  empty: string;
  loadFailed: (message: string) => string;
  /** The strings of every question (`<silo-elicitation>`) the transcript shows. */
  elicitation: SiloElicitationStrings;
}

/** The default English strings of `<silo-transcript>`. */
export const defaultTranscriptStrings: SiloTranscriptStrings = {
  transcriptLabel: 'Conversation',
  you: 'You',
  agent: 'Agent',
  thought: 'Thinking',
  jumpToLatest: 'Jump to latest',
  turnStarted: 'The agent is responding.',
  turnEnded: (reason) => `The agent finished: ${reason}`,
  agentTurn: (reason) =>
    reason === 'task-notification'
      ? 'The agent started this turn: a background task finished'
      : 'The agent started this turn by itself',
  excluded: 'Left out of the agent’s context (refused)',
  steered: 'Sent into the running turn',
  branch: 'Branch from here',
  branchHint: 'Start a new session that carries the conversation up to this point',
  turnTokens: (total) => `${total} tokens`,
  thoughtFor: (duration) => `Thought for ${duration}`,
  retryTurn: 'Retry',
  retryTurnLabel: 'Send your last message again, with its files, as a new turn',
  continueTurn: 'Continue',
  continueTurnLabel: 'Ask the agent to go on where it stopped',
  stop: {
    end_turn: 'Done',
    cancelled: 'Cancelled',
    refusal: 'The agent refused. This prompt and its replies are no longer part of the agent’s context.',
    max_tokens: 'Stopped: the token limit was reached.',
    max_turn_requests: 'Stopped: too many model requests in one turn.',
    interrupted: 'Interrupted: the connection to the agent was lost.',
    error: (message) => `The turn failed: ${message}`,
    other: (reason) => `Stopped: ${reason}`,
  },
  toolKind: {
    read: 'Read',
    edit: 'Edit',
    delete: 'Delete',
    move: 'Move',
    search: 'Search',
    execute: 'Run',
    think: 'Think',
    fetch: 'Fetch',
    switch_mode: 'Switch mode',
    other: 'Tool',
  },
  toolStatus: {
    pending: 'Pending',
    in_progress: 'Running',
    completed: 'Completed',
    failed: 'Failed',
    cancelled: 'Cancelled',
    interrupted: 'Interrupted',
  },
  untitledTool: 'Tool call',
  newFile: 'new file',
  diffOf: (path) => `Changes to ${path}`,
  linesChanged: (added, removed) => `${added} lines added, ${removed} removed`,
  loadingDiff: 'Loading the diff…',
  moreLines: (count) => `… ${count} more lines`,
  terminal: (id) => `Terminal ${id}`,
  terminalExit: (code) => `Exit code ${code}`,
  terminalSignal: (signal) => `Ended by ${signal}`,
  terminalEnded: 'Ended',
  terminalRunning: 'Running…',
  terminalShowAll: 'Show all',
  terminalEarlier: (characters) => `… ${characters} earlier characters not shown`,
  subagent: (title) => (title ? `Subagent: ${title}` : 'Subagent'),
  subagentSteps: (count) => `${count} steps`,
  subagentTask: 'Task',
  subagentAnswer: 'Answer',
  subagentState: {
    running: 'Working',
    requires_action: 'Waiting for you',
    idle: 'Done',
    unknown: 'Unknown',
  },
  input: 'Input',
  output: 'Output',
  plan: 'Plan',
  planStatus: { pending: 'To do', in_progress: 'In progress', completed: 'Done' },
  priority: (p) => `${p} priority`,
  contextUsed: 'Context used',
  usage: (used, size, percent) => `${used} / ${size} tokens (${percent})`,
  sessionTokens: (total) => `${total} tokens in this session`,
  tokensDetail: (total, input, output) =>
    input && output ? `${total} tokens: ${input} in, ${output} out` : `${total} tokens`,
  seconds: (n) => `${n} s`,
  minutes: (m, s) => `${m} min ${s} s`,
  cost: (amount) => `Cost ${amount}`,
  notice: { info: 'Info', warning: 'Warning', error: 'Error', other: 'Notice' },
  compaction: 'Context compacted',
  compactionStatus: {
    in_progress: 'Compacting the conversation…',
    completed: 'Conversation compacted',
    failed: 'Compaction failed',
    cancelled: 'Compaction cancelled',
  },
  permissionAsk: (title) => `The agent asks permission: ${title}`,
  permissionKeys: 'Keys: Y allows, N rejects, Esc moves to Reject.',
  permissionChosen: (option) => `Answered: ${option}`,
  permissionCancelled: 'Cancelled: nothing was allowed.',
  permissionUnanswerable: 'This request can no longer be answered; nothing was allowed.',
  permissionUnanswered: 'No answer was recorded; nothing was allowed.',
  permissionFailed: (message) => `The answer could not be sent: ${message}`,
  image: (mime) => `Image (${mime})`,
  unsupportedImage: (mime) => `Image of an unsupported type (${mime})`,
  imageNotShown: (uri) => `Image not shown (only images sent with their data are shown): ${uri}`,
  audio: (mime) => `Audio (${mime})`,
  resource: (name) => name,
  unknownBlock: (type) => `Unsupported content (${type})`,
  unknownUpdate: (kind) => `Update of an unknown kind: ${kind}`,
  empty: 'No messages yet.',
  loadFailed: (message) => `The transcript could not be loaded: ${message}`,
  elicitation: defaultElicitationStrings,
  ...defaultContentStrings,
};

/** The stop reasons that have words of their own in {@link SiloTranscriptStrings.stop}. */
type NamedStop = Exclude<keyof SiloTranscriptStrings['stop'], 'error' | 'other'>;
const NAMED_STOPS: ReadonlySet<string> = new Set<NamedStop>([
  'end_turn',
  'cancelled',
  'refusal',
  'max_tokens',
  'max_turn_requests',
  'interrupted',
]);

/**
 * How a turn ended, in the words of `s`: the one wording the turn-end row and the live region share.
 * `message` is an `error` stop's message (the row's, clipped; the live region says none).
 */
export function stopText(s: SiloTranscriptStrings, reason: string, message = ''): string {
  if (reason === 'error') return s.stop.error(message);
  return NAMED_STOPS.has(reason) ? s.stop[reason as NamedStop] : s.stop.other(reason);
}

/**
 * Merges a partial override (one level deep, see {@link StringsOverride}) onto defaults. Never
 * throws; a key set to `undefined` keeps the default.
 */
export function mergeStrings<T extends object>(defaults: T, override: StringsOverride<T> | undefined): T {
  if (!override) return defaults;
  const out: Record<string, unknown> = { ...(defaults as object) };
  for (const [k, v] of Object.entries(override)) {
    const d = (defaults as Record<string, unknown>)[k];
    out[k] =
      d && typeof d === 'object' && v && typeof v === 'object'
        ? { ...(d as object), ...(v as object) }
        : (v ?? d);
  }
  return out as T;
}
