/**
 * The JSONL export's line format, the one source for both writers of it: `toJsonl` (`silo-acp/export`,
 * a whole string from updates in memory) and the worker's streaming export (worker/export-stream.ts,
 * segment by segment from the journal). Small and dependency-free, so the worker bundle takes only this.
 */
import type { AgentSessionUpdate } from './types.ts';

/** The `kind` of an export's optional first line, which carries what the journal knew besides the updates. */
export const EXPORT_HEADER_KIND = 'silo_export';

/** What an export says of its session besides the updates (its first line, when present). */
export interface JsonlExportInfo {
  /** The agent's name, as the history shows it (`AgentSessionSummary.agent`). */
  readonly agent?: string;
  /** The session's id where it was exported: importing it where that session is adds nothing. */
  readonly sessionId?: string;
  /** The title the user gave the session (`AgentsService.rename`), if any. */
  readonly title?: string;
}

/** The header line, newline included: `{"kind":"silo_export","agent":…,"sessionId":…,"title":…,"raw":{}}`. */
export function jsonlHeader(info: JsonlExportInfo): string {
  return `${JSON.stringify({ kind: EXPORT_HEADER_KIND, ...info, raw: {} })}\n`;
}

/** The lines of `updates`, one per update, each ending in a newline. */
export function jsonlLines(updates: readonly AgentSessionUpdate[]): string {
  let out = '';
  for (const u of updates) out += `${JSON.stringify(u)}\n`;
  return out;
}
