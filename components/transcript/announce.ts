/**
 * What `<silo-transcript>`'s polite live region says when live updates start or end a turn (not
 * every token: the log itself is not live).
 * @packageDocumentation
 */
import type { TranscriptModel } from '../../src/index.ts';
import { type SiloTranscriptStrings, stopText } from '../shared/strings/strings.ts';

/**
 * The announcement after live updates were applied to `model`, given the turns `started` and `ended`
 * before them: the end of a turn (with its stop reason), else the start of one, else undefined.
 */
export function turnAnnouncement(
  model: TranscriptModel,
  started: number,
  ended: number,
  s: SiloTranscriptStrings,
): string | undefined {
  const last = model.rows.at(-1);
  if (model.turnsEnded > ended && last?.type === 'turn-end') return s.turnEnded(stopText(s, last.stopReason));
  if (model.turnsStarted > started) return s.turnStarted;
  return undefined;
}
