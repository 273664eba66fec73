/**
 * What `<silo-chat>`'s find bar needs from the chat: its own module, so that the bar (find-bar.controller.ts,
 * a chunk) and the Ctrl+F shortcut that loads it (find-shortcut.controller.ts, in the first paint) both
 * import it without importing each other.
 * @packageDocumentation
 */
import type { SiloFindStrings } from '../shared/strings/chat.ts';
import type { SiloTranscript } from '../transcript/silo-transcript.ts';

/** What the find bar needs from the chat. */
export interface FindBarContext {
  strings(): SiloFindStrings;
  locale(): string | undefined;
  /** The chat's transcript, once rendered. */
  transcript(): SiloTranscript | null;
}
