/**
 * The events and the strings override of `<silo-chat>` (declared here so the element stays short).
 * @packageDocumentation
 */
import type { SiloError } from '../../src/index.ts';
import type { SiloChatAllStrings } from '../shared/strings/chat.ts';
import type { SiloTranscriptStrings, StringsOverride } from '../shared/strings/strings.ts';

/** Detail of `silo-session`. */
export interface SiloSessionDetail {
  readonly sessionId: string;
  readonly resumeOutcome: string;
}

/** Detail of `silo-error`. */
export interface SiloErrorDetail {
  readonly error: SiloError;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'silo-session': CustomEvent<SiloSessionDetail>;
    'silo-error': CustomEvent<SiloErrorDetail>;
  }
}

/** `<silo-chat>` strings, plus the transcript's under `transcript`. */
export type SiloChatStringsOverride = StringsOverride<SiloChatAllStrings> & {
  readonly transcript?: StringsOverride<SiloTranscriptStrings>;
};
