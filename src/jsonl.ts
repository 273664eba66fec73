/**
 * JSONL export and import, lossless: one journaled {@link AgentSessionUpdate} per line, exactly as the
 * journal holds it. Part of `silo-acp/export` (src/export.ts re-exports it); a module of its own,
 * without the `diff` package `toMarkdown` needs, so that the worker (which writes and reads these
 * files) does not carry it.
 * @packageDocumentation
 */
import { SiloError } from './errors.ts';
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

/**
 * Serializes updates as JSONL, one per line, with a trailing newline. With `info`, the first line is
 * a header `{"kind":"silo_export","agent":…,"sessionId":…,"title":…,"raw":{}}`: {@link parseJsonl} skips it and
 * {@link readJsonlExport} returns it (a reader older than the header shows it as an unknown update).
 */
export function toJsonl(updates: readonly AgentSessionUpdate[], info?: JsonlExportInfo): string {
  return `${info ? jsonlHeader(info) : ''}${jsonlLines(updates)}`;
}

/**
 * Parses a JSONL export into its updates and its header's information (empty for an export without
 * a header, as Silo wrote them before it had one). Fails as {@link parseJsonl} does.
 */
export function readJsonlExport(text: string): { updates: AgentSessionUpdate[]; info: JsonlExportInfo } {
  const all = parseJsonl(text, true);
  const head = all[0] as (AgentSessionUpdate & Record<keyof JsonlExportInfo, unknown>) | undefined;
  if (head?.kind !== EXPORT_HEADER_KIND) return { updates: all, info: {} };
  const info: Record<string, string> = {};
  for (const key of ['agent', 'sessionId', 'title'] as const) {
    const v = head[key];
    if (typeof v === 'string' && v) info[key] = v;
  }
  return { updates: all.slice(1), info };
}

/**
 * Parses a JSONL export back into updates. Lines may end in LF, CRLF or CR; blank lines, a byte-order
 * mark and spaces around a line are ignored. Rejects with a `SiloError` `invalid-params` naming the
 * first line that is not JSON or not an update (an object with a string `kind`), with `data.line`
 * (a last line cut short says so); nothing is returned then. `raw` defaults to `{}` when a line lacks
 * it. Updates are numbered in file order (`seq` 0, 1, …, what the file says is not kept: an export's
 * own numbers are these, and a hand-written file or two exports put end to end would otherwise lose
 * updates to the transcript model, which skips a `seq` it has passed). Export header lines (see
 * {@link toJsonl}) are skipped wherever they are; with `withHeader`, a header on the first line comes
 * first in the result, unnumbered.
 */
export function parseJsonl(text: string, withHeader = false): AgentSessionUpdate[] {
  const out: AgentSessionUpdate[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  const last = lines.findLastIndex((l) => l.trim() !== '');
  let seq = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const cut = i === last ? ': the file ends in the middle of it (cut short?)' : '';
      throw new SiloError('invalid-params', `Line ${i + 1} of the transcript is not JSON${cut}`, {
        line: i + 1,
      });
    }
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as { kind?: unknown }).kind !== 'string'
    ) {
      throw new SiloError('invalid-params', `Line ${i + 1} of the transcript is not an update`, {
        line: i + 1,
      });
    }
    const u = value as AgentSessionUpdate;
    if (u.kind === EXPORT_HEADER_KIND) {
      if (withHeader && out.length === 0) out.push(u);
      continue;
    }
    const raw = typeof u.raw === 'object' && u.raw !== null ? u.raw : {};
    out.push(u.raw === raw && u.seq === seq ? u : { ...u, raw, seq });
    seq++;
  }
  return out;
}
