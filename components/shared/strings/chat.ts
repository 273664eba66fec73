/**
 * The strings of `<silo-chat>` (part of Silo's strings system, see shared/strings/strings.ts): its own, its turn
 * controls' and its attachments'.
 * @packageDocumentation
 */

import type { AgentRestoreNote } from '../../../src/index.ts';

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
  /** The menu of the exports (`exportJsonl`, `exportMarkdown`). */
  export: string;
  exportJsonl: string;
  exportMarkdown: string;
  untitled: string;
  state: Record<string, string>;
  unreachable: string;
  journalOnly: string;
  /** What a restore left undone (`restoreNote`): shown while nothing else needs the banner. */
  restoreNote: Record<AgentRestoreNote, string>;
  /** Label of the button that tries a restore again (after `held-elsewhere`). */
  tryAgain: string;
  noBridge: string;
  sendFailed: (message: string) => string;
  connectFailed: (message: string) => string;
  /** The agent needs a sign-in before it opens a session (its reason). */
  signInNeeded: (message: string) => string;
  /** Label of the button that signs in with one of the agent's methods. */
  signInWith: (method: string) => string;
  /** A method a page cannot use (it needs a terminal on the agent's machine). */
  signInElsewhere: (method: string) => string;
  /** A terminal method that says what to run (`command` is the command line, or the arguments to add to the agent's). */
  signInTerminal: (method: string, command: string, ownCommand: boolean) => string;
  /** The turn broke off after the message was sent (the agent exited or the connection dropped). */
  turnInterrupted: (message: string) => string;
  /** The connection to the agent dropped (the agent exited or the bridge went away); Silo reconnects. */
  connectionLost: (message: string) => string;
  /** Label of the button that hides a banner. */
  dismiss: string;
  /** Another tab drives this conversation and this one mirrors it live (the banner, a calm notice). */
  following: string;
  /** … when what drives it is another chat of this same page (not another tab). */
  followingInPage: string;
  /** The tab that drove this conversation closed (or reloads): nobody talks to the agent now. */
  followingDriverGone: string;
  /** … when what drove it was another chat of this same page, which let it go (removed, or on another session). */
  followingPageDriverGone: string;
  /** The button that makes this tab drive the conversation. */
  takeOver: string;
  /** The composer's button, after Enter in a following tab: take over, then send the kept message. */
  takeOverAndSend: string;
  /** Why Enter did not send (the text stays in the composer): still connecting. */
  notSentConnecting: string;
  /** … the connection dropped and is being re-established. */
  notSentReconnecting: string;
  /** … the session is journal-only (read-only). */
  notSentReadOnly: string;
  /** … another tab drives the conversation (the note offers {@link takeOverAndSend}). */
  notSentFollowing: string;
  /** … another chat of this same page drives the conversation (the note offers {@link takeOverAndSend}). */
  notSentFollowingInPage: string;
  /** … the chat of this page that drove the conversation let it go (the note offers {@link takeOverAndSend}). */
  notSentPageDriverGone: string;
  /** … there is no connection (closed, failed, no bridge). */
  notSentOffline: string;
}

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
  export: 'Export',
  exportJsonl: 'Export JSONL',
  exportMarkdown: 'Export Markdown',
  untitled: 'New conversation',
  state: {
    idle: 'Not connected',
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Reconnecting…',
    'read-only': 'Read-only',
    following: 'Following',
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
    'held-elsewhere':
      'Another browser or app has this conversation open with the agent, so it is shown read-only here. Close it there, then try again.',
    'history-not-in-agent':
      'This branch carries the conversation up to the turn you chose, but the agent starts it without that history: it can branch only from the latest turn.',
  },
  tryAgain: 'Try again',
  noBridge: 'Set the bridge URL and token to start.',
  sendFailed: (message) => `The message could not be sent: ${message}`,
  connectFailed: (message) => `Could not connect: ${message}`,
  signInNeeded: (message) => `Sign in to continue. ${message}`,
  signInWith: (method) => `Sign in: ${method}`,
  signInElsewhere: (method) =>
    `${method}: needs a terminal on the agent's machine; sign in there, then Retry.`,
  signInTerminal: (method, command, ownCommand) =>
    ownCommand
      ? `${method}: run \`${command}\` in a terminal on the agent's machine, then Retry.`
      : `${method}: run the agent's command with \`${command}\` in a terminal on the agent's machine, then Retry.`,
  turnInterrupted: (message) =>
    `Your message was sent, but the agent stopped before finishing its answer (${message}). Silo reconnects by itself; send again to continue.`,
  connectionLost: (message) => `The connection to the agent was lost (${message}). Reconnecting…`,
  dismiss: 'Dismiss',
  following: 'Open in another tab — following live.',
  followingInPage: 'Open in another chat on this page — following live.',
  followingDriverGone: 'The tab that was driving this conversation closed. Take over to continue it here.',
  followingPageDriverGone:
    'The other chat on this page stopped driving this conversation. Take over to continue it here.',
  takeOver: 'Take over',
  takeOverAndSend: 'Take over and send',
  notSentConnecting:
    'Not sent yet: still connecting to the agent. Your message is kept; press Enter again once connected.',
  notSentReconnecting:
    'Not sent: the connection to the agent dropped and is being restored. Your message is kept; press Enter again once connected.',
  notSentReadOnly:
    'Not sent: this conversation is read-only. Your message is kept; continue in a new session to send it.',
  notSentFollowing:
    'Not sent: another tab is driving this conversation. Your message is kept; take over to send it from here.',
  notSentFollowingInPage:
    'Not sent: another chat on this page is driving this conversation. Your message is kept; take over to send it from here.',
  notSentPageDriverGone:
    'Not sent: the other chat on this page stopped driving this conversation. Your message is kept; take over to send it from here.',
  notSentOffline: 'Not sent: the agent is not connected. Your message is kept.',
};

/** Strings of `<silo-chat>`'s turn controls; override them through `<silo-chat>`'s `strings`. */
export interface SiloChatActionStrings {
  /** Shown while a turn runs, with the elapsed time beside it. */
  working: string;
  /** Instead of {@link working} while the agent says its turn waits for the user's approval (Codex). */
  waitingOnApproval: string;
  /** Instead of {@link working} while the agent says its turn waits for the user's answer (Codex). */
  waitingOnInput: string;
  /** The elapsed time of the running turn, e.g. `0:07`. */
  elapsed: (seconds: number) => string;
  /** Tooltip of Stop: how to stop by keyboard. */
  stopHint: string;
  /** Before a message typed while the agent works: it is sent when the turn ends. */
  queued: string;
  /** Before a message typed while the chat connects (or reconnects): it is sent once connected. */
  queuedConnecting: string;
  /** Cancels the queued message (its text returns to the composer). */
  unqueue: string;
  /** After a message sent during the turn went into that turn (the agent takes such messages). */
  steeredNote: string;
  /** Before a message sent during the turn that the agent holds, to run after it (it queues prompts). */
  agentQueued: string;
  /** Puts the last message back into the composer to edit and send again. */
  editLast: string;
  /** Accessible name of {@link editLast}. */
  editLastLabel: string;
  /** Sends a message that failed again. */
  resend: string;
  /** The prompt the transcript's Continue sends after a turn stopped at the token limit. */
  continuePrompt: string;
}

export const defaultChatActionStrings: SiloChatActionStrings = {
  working: 'Working…',
  waitingOnApproval: 'Waiting for your approval…',
  waitingOnInput: 'Waiting for your answer…',
  elapsed: (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  stopHint: 'Stop the agent’s turn (Esc)',
  queued: 'Sent when the agent finishes:',
  queuedConnecting: 'Sent once connected:',
  unqueue: 'Cancel',
  steeredNote: 'Your message went into the running turn.',
  agentQueued: 'The agent runs this next:',
  editLast: 'Edit last',
  editLastLabel: 'Edit your last message and send it again (↑ in an empty composer)',
  resend: 'Send again',
  continuePrompt: 'Continue',
};

/** Strings of `<silo-chat>`'s attachments (components/chat/attachments.ts). */
export interface SiloChatAttachmentStrings {
  /** The Attach button. */
  attach: string;
  /** Accessible name and tooltip of the Attach button. */
  attachLabel: string;
  /** Accessible name of the list of attached files. */
  attachments: string;
  /** Accessible name of a chip's remove button. */
  removeAttachment: (name: string) => string;
  /** A file over the size limit (`size` and `limit` formatted, e.g. `6.2 MB`, `5 MB`). */
  tooLarge: (name: string, size: string, limit: string) => string;
  /** A file that would take the message over its total limit. */
  tooMuch: (name: string, limit: string) => string;
  /** A file the browser could not read. */
  readFailed: (name: string) => string;
  /** Why an image cannot go to an agent that does not accept images. */
  imagesNotAccepted: string;
  /** Why a file that is neither an image nor text cannot go to an agent that does not accept embedded files. */
  filesNotAccepted: string;
  /** A file left out when added, and why (one of the reasons above). */
  notAttached: (name: string, reason: string) => string;
  /** Why Enter did not send: an attachment the agent does not accept (the text and files stay). */
  notSentAttachment: (name: string, reason: string) => string;
}

export const defaultChatAttachmentStrings: SiloChatAttachmentStrings = {
  attach: 'Attach',
  attachLabel: 'Attach files or images (you can also paste or drop them here)',
  attachments: 'Attached files',
  removeAttachment: (name) => `Remove ${name}`,
  tooLarge: (name, size, limit) =>
    `${name} was not attached: it is ${size}, and the limit is ${limit} per file.`,
  tooMuch: (name, limit) => `${name} was not attached: one message can carry at most ${limit} of files.`,
  readFailed: (name) => `${name} was not attached: the browser could not read it.`,
  imagesNotAccepted: 'this agent does not accept images',
  filesNotAccepted: 'this agent accepts only text and images, not other files',
  notAttached: (name, reason) => `${name} was not attached: ${reason}.`,
  notSentAttachment: (name, reason) =>
    `Not sent: ${name} cannot go to this agent (${reason}). Remove it to send the rest; your message and other files are kept.`,
};

/**
 * Strings `<silo-chat>` shows outside the page while it is hidden and the agent waits for the user
 * (components/chat/attention.controller.ts): the document's title, and the Web Notification of its
 * `notify` attribute. Never the agent's words but a tool's title, as plain text.
 */
export interface SiloChatAttentionStrings {
  /**
   * The document's title while the page is hidden and `count` (formatted) requests wait; `title` is
   * the page's own title, restored when the page is seen again or nothing waits (may be empty).
   */
  waitingTitle: (count: string, title: string) => string;
  /** The notification's title (fixed: it is the only line drawn as a heading). */
  notifyTitle: string;
  /** Its body for a permission request: `tool` is the tool call's title (plain text, cut short), or empty. */
  notifyPermission: (tool: string) => string;
  /** Its body for a question (the agent's question itself is never shown outside the page). */
  notifyQuestion: string;
}

export const defaultChatAttentionStrings: SiloChatAttentionStrings = {
  waitingTitle: (count, title) =>
    title ? `(${count}) Waiting for you · ${title}` : `(${count}) Waiting for you`,
  notifyTitle: 'The agent is waiting for you',
  notifyPermission: (tool) => (tool ? `Permission needed: ${tool}` : 'Permission needed.'),
  notifyQuestion: 'The agent has a question for you.',
};

/** Every string of `<silo-chat>`'s own (besides its transcript's). */
/** Strings of `<silo-chat>`'s find bar (Ctrl+F or ⌘F in the chat); override them through its `strings`. */
export interface SiloFindStrings {
  /** Accessible name of the find bar and its input. */
  findLabel: string;
  findPlaceholder: string;
  /** Accessible name (and tooltip) of the "next match" button. */
  findNext: string;
  /** … of the "previous match" button. */
  findPrevious: string;
  /** … of the button that closes the find bar. */
  findClose: string;
  /** The current match and the count (formatted numbers), e.g. `3 of 12`. */
  findCount: (current: string, total: string) => string;
  findNone: string;
  /** While a long transcript is still being searched. */
  findSearching: string;
}

export const defaultFindStrings: SiloFindStrings = {
  findLabel: 'Find in the conversation',
  findPlaceholder: 'Find',
  findNext: 'Next match (Enter)',
  findPrevious: 'Previous match (Shift+Enter)',
  findClose: 'Close (Esc)',
  findCount: (current, total) => `${current} of ${total}`,
  findNone: 'No matches',
  findSearching: 'Searching…',
};

export type SiloChatAllStrings = SiloChatStrings &
  SiloChatActionStrings &
  SiloChatAttachmentStrings &
  SiloChatAttentionStrings &
  SiloFindStrings;

/** Every default string of `<silo-chat>`, in one object (what its `strings` override is merged over). */
export const defaultChatAllStrings: SiloChatAllStrings = {
  ...defaultChatStrings,
  ...defaultChatActionStrings,
  ...defaultChatAttachmentStrings,
  ...defaultChatAttentionStrings,
  ...defaultFindStrings,
};
