/**
 * What the demo's modules share: the page's one Silo service, its elements, and its state with the
 * one way to change it ({@link update}, which repaints through what main.ts registers).
 */
import type { AgentResumeOutcome, AgentSessionSummary } from 'silo-acp';
import { createAgentsService } from 'silo-acp';
import type { BridgeConfig } from './bridge-config.ts';

/** The service of the chat and the history (one worker for the page). */
export const service = createAgentsService();
export const chat = document.querySelector('silo-chat')!;
export const viewer = document.querySelector('silo-transcript')!;

export interface State {
  /** The bridge, or undefined when none is running (offline). */
  bridge: BridgeConfig | undefined;
  /** True once the bridge config was asked for. */
  checked: boolean;
  /** A bridge runs, but this tab holds no launch key or session for it (bridge-config.ts). */
  locked: boolean;
  sessions: AgentSessionSummary[];
  /** The session `<silo-chat>` holds, and how it was restored. */
  liveId: string | undefined;
  outcome: AgentResumeOutcome | undefined;
  connection: string | undefined;
  busy: boolean;
  /** A journaled session shown read-only instead of the chat. */
  viewing: string | undefined;
  /** The history's search text (the service searches titles and text). */
  query: string;
  /** The session whose title is being edited in the history. */
  renaming: string | undefined;
  message: { text: string; error?: boolean } | undefined;
  /** The window is a phone's (drawer.ts): the chat takes the screen, the history is a drawer. */
  phone: boolean;
  /** On a phone: the history drawer is open. */
  drawer: boolean;
}

export const state: State = {
  bridge: undefined,
  checked: false,
  locked: false,
  sessions: [],
  liveId: undefined,
  outcome: undefined,
  connection: undefined,
  busy: false,
  viewing: undefined,
  query: '',
  renaming: undefined,
  message: undefined,
  phone: false,
  drawer: false,
};

let painter = (): void => {};

/** Sets what repaints the page after each {@link update}. */
export function onPaint(paint: () => void): void {
  painter = paint;
}

export function update(patch: Partial<State>): void {
  Object.assign(state, patch);
  painter();
}

/** Shows a message in the sidebar (`error`: as an alert). */
export function say(text: string, error = false): void {
  update({ message: { text, error } });
}
