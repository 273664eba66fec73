/**
 * The one strings system of Silo's elements: every user-visible string of `<silo-chat>`,
 * `<silo-transcript>` and `<silo-elicitation>`, replaceable for localization. Set an element's
 * `strings` property to a partial object ({@link StringsOverride}); missing keys fall back to English.
 * Each element passes its part down: `<silo-chat>` gives `strings.transcript` to its transcript, and
 * the transcript gives `strings.elicitation` (and its `locale`) to every question it shows.
 * Numbers, dates and currency are formatted with `Intl` in the element's `locale`.
 * @packageDocumentation
 */
import {
  type AgentElicitationResolution,
  DEFAULT_ANSWER_WORDS,
  type ElicitationAnswerWords,
  type ElicitationIssueFormatter,
  formatElicitationIssue,
} from '../src/index.ts';

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
  resolution(resolution: AgentElicitationResolution | undefined, mode: string | undefined): string;
}

/** The strings of `<silo-transcript>`. Functions receive already-formatted values. */
export interface SiloTranscriptStrings {
  transcriptLabel: string;
  you: string;
  agent: string;
  thought: string;
  jumpToLatest: string;
  turnStarted: string;
  turnEnded: (reason: string) => string;
  excluded: string;
  /** A turn's token counts, when the agent reported them (formatted numbers; `input`/`output` may be empty). */
  turnTokens: (total: string, input: string, output: string) => string;
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
  input: string;
  output: string;
  plan: string;
  planStatus: Record<string, string>;
  priority: (p: string) => string;
  contextUsed: string;
  usage: (used: string, size: string, percent: string) => string;
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
  audio: (mime: string) => string;
  resource: (name: string) => string;
  unknownBlock: (type: string) => string;
  unknownUpdate: (kind: string) => string;
  empty: string;
  loadFailed: (message: string) => string;
  /** The strings of every question (`<silo-elicitation>`) the transcript shows. */
  elicitation: SiloElicitationStrings;
}

/** The strings of `<silo-chat>`. */
export interface SiloChatStrings {
  composerLabel: string;
  placeholder: string;
  send: string;
  stop: string;
  commands: string;
  newSession: string;
  retry: string;
  continueInNew: string;
  clear: string;
  exportJsonl: string;
  exportMarkdown: string;
  untitled: string;
  state: Record<string, string>;
  unreachable: string;
  journalOnly: string;
  /** What a restore left undone (`restoreNote`): shown while nothing else needs the banner. */
  restoreNote: Record<'history-in-agent' | 'replay-not-merged' | 'options-reapplied', string>;
  noBridge: string;
  sendFailed: (message: string) => string;
  connectFailed: (message: string) => string;
  /** The agent needs a sign-in before it opens a session (its reason). */
  signInNeeded: (message: string) => string;
  /** Label of the button that signs in with one of the agent's methods. */
  signInWith: (method: string) => string;
  /** A method a page cannot use (it needs a terminal on the agent's machine). */
  signInElsewhere: (method: string) => string;
  /** The turn broke off after the message was sent (the agent exited or the connection dropped). */
  turnInterrupted: (message: string) => string;
  /** The connection to the agent dropped (the agent exited or the bridge went away); Silo reconnects. */
  connectionLost: (message: string) => string;
  /** Label of the button that hides a banner. */
  dismiss: string;
  /** Why Enter did not send (the text stays in the composer): still connecting. */
  notSentConnecting: string;
  /** … the connection dropped and is being re-established. */
  notSentReconnecting: string;
  /** … the session is journal-only (read-only). */
  notSentReadOnly: string;
  /** … there is no connection (closed, failed, no bridge). */
  notSentOffline: string;
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

/** The default English strings of `<silo-transcript>`. */
export const defaultTranscriptStrings: SiloTranscriptStrings = {
  transcriptLabel: 'Conversation',
  you: 'You',
  agent: 'Agent',
  thought: 'Thinking',
  jumpToLatest: 'Jump to latest',
  turnStarted: 'The agent is responding.',
  turnEnded: (reason) => `The agent finished: ${reason}`,
  excluded: 'Left out of the agent’s context (refused)',
  turnTokens: (total, input, output) =>
    input && output ? `${total} tokens (${input} in, ${output} out)` : `${total} tokens`,
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
  },
  untitledTool: 'Tool call',
  newFile: 'new file',
  diffOf: (path) => `Changes to ${path}`,
  linesChanged: (added, removed) => `${added} lines added, ${removed} removed`,
  loadingDiff: 'Loading the diff…',
  moreLines: (count) => `… ${count} more lines`,
  terminal: (id) => `Terminal ${id}`,
  input: 'Input',
  output: 'Output',
  plan: 'Plan',
  planStatus: { pending: 'To do', in_progress: 'In progress', completed: 'Done' },
  priority: (p) => `${p} priority`,
  contextUsed: 'Context used',
  usage: (used, size, percent) => `${used} / ${size} tokens (${percent})`,
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
  audio: (mime) => `Audio (${mime})`,
  resource: (name) => `Resource ${name}`,
  unknownBlock: (type) => `Unsupported content (${type})`,
  unknownUpdate: (kind) => `Update of an unknown kind: ${kind}`,
  empty: 'No messages yet.',
  loadFailed: (message) => `The transcript could not be loaded: ${message}`,
  elicitation: defaultElicitationStrings,
};

/** The default English strings of `<silo-chat>`. */
export const defaultChatStrings: SiloChatStrings = {
  composerLabel: 'Message the agent',
  placeholder: 'Message the agent — Enter to send, Shift+Enter for a new line, / for commands',
  send: 'Send',
  stop: 'Stop',
  commands: 'Commands',
  newSession: 'New session',
  retry: 'Retry',
  continueInNew: 'Continue in a new session',
  clear: 'Clear',
  exportJsonl: 'Export JSONL',
  exportMarkdown: 'Export Markdown',
  untitled: 'New conversation',
  state: {
    idle: 'Not connected',
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Reconnecting…',
    'read-only': 'Read-only',
    closed: 'Disconnected',
    failed: 'Connection failed',
  },
  unreachable:
    'The bridge cannot be reached or refused this page. Check that silo-bridge is running, that its URL and token are right, and that it allows this page’s origin.',
  journalOnly: 'The agent cannot continue this conversation. You can read it, or continue in a new session.',
  restoreNote: {
    'history-in-agent':
      'The agent continued this conversation, but its earlier messages are kept only by the agent and cannot be shown here.',
    'replay-not-merged':
      'The agent’s copy of this conversation differs from the one kept here, so only this browser’s copy is shown.',
    'options-reapplied':
      'The agent had forgotten the mode and options chosen in this conversation; they were set again.',
  },
  noBridge: 'Set the bridge URL and token to start.',
  sendFailed: (message) => `The message could not be sent: ${message}`,
  connectFailed: (message) => `Could not connect: ${message}`,
  signInNeeded: (message) => `Sign in to continue. ${message}`,
  signInWith: (method) => `Sign in: ${method}`,
  signInElsewhere: (method) =>
    `${method}: needs a terminal on the agent's machine; sign in there, then Retry.`,
  turnInterrupted: (message) =>
    `Your message was sent, but the agent stopped before finishing its answer (${message}). Silo reconnects by itself; send again to continue.`,
  connectionLost: (message) => `The connection to the agent was lost (${message}). Reconnecting…`,
  dismiss: 'Dismiss',
  notSentConnecting:
    'Not sent yet: still connecting to the agent. Your message is kept; press Enter again once connected.',
  notSentReconnecting:
    'Not sent: the connection to the agent dropped and is being restored. Your message is kept; press Enter again once connected.',
  notSentReadOnly:
    'Not sent: this conversation is read-only. Your message is kept; continue in a new session to send it.',
  notSentOffline: 'Not sent: the agent is not connected. Your message is kept.',
};

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

// ── <silo-chat>'s turn controls (working state, queue, edit and resend) ─────────────────────────────
// A section of its own (kept apart from the strings above, which another change restructures).

/** Strings of `<silo-chat>`'s turn controls; override them through `<silo-chat>`'s `strings`. */
export interface SiloChatActionStrings {
  /** Shown while a turn runs, with the elapsed time beside it. */
  working: string;
  /** The elapsed time of the running turn, e.g. `0:07`. */
  elapsed: (seconds: number) => string;
  /** Tooltip of Stop: how to stop by keyboard. */
  stopHint: string;
  /** Before a message typed while the agent works: it is sent when the turn ends. */
  queued: string;
  /** Cancels the queued message (its text returns to the composer). */
  unqueue: string;
  /** Puts the last message back into the composer to edit and send again. */
  editLast: string;
  /** Accessible name of {@link editLast}. */
  editLastLabel: string;
  /** Sends a message that failed again. */
  resend: string;
}

export const defaultChatActionStrings: SiloChatActionStrings = {
  working: 'Working…',
  elapsed: (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  stopHint: 'Stop the agent’s turn (Esc)',
  queued: 'Sent when the agent finishes:',
  unqueue: 'Cancel',
  editLast: 'Edit last',
  editLastLabel: 'Edit your last message and send it again (↑ in an empty composer)',
  resend: 'Send again',
};

/** Strings of the copy buttons on messages and code blocks (components/copy.ts). */
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
