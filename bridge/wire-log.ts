/**
 * What the bridge records of the frames it relays, for finding out what an agent (or a client) really
 * sent. Off by default: message bodies are the user's conversation.
 *
 * - `--debug` logs every frame, whole, to the bridge's log (stderr).
 * - `--wire-log FILE` appends one JSON line per frame, {@link WireRecord}, to FILE (created with mode
 *   600, written synchronously, so a record is on disk before the frame goes on and nothing is lost
 *   if the bridge is killed). {@link readWireLog} reads it back.
 *
 * A frame is the text of one WebSocket message as it crossed the socket: from the client as received,
 * to the client as sent (the agent's lines as the SDK relays them, and the bridge's own
 * `_silo/agent_exited`).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { BridgeLog } from './connector.ts';
import { sharedMode } from './options.ts';

/** Which way a frame went. */
export type WireDirection = 'client->agent' | 'agent->client';

/** One line of a wire log. */
export interface WireRecord {
  /** When the bridge relayed the frame (ISO 8601, milliseconds). */
  t: string;
  /** The connection's label in the bridge's log (`conn 3`). */
  conn: string;
  dir: WireDirection;
  /** The frame's whole text. */
  frame: string;
}

/** Records frames; {@link WireTap.record} is a no-op unless `--debug` or `--wire-log` asked for it. */
export interface WireTap {
  readonly enabled: boolean;
  record(conn: string, dir: WireDirection, frame: string): void;
  /** Closes the wire log file. */
  close(): void;
}

/** Opens a wire log for appending; refuses one other users can read (frames are the conversation). */
function openWireLog(file: string): number {
  const fd = openSync(file, 'a', 0o600);
  const mode = sharedMode(fd);
  if (mode) {
    closeSync(fd);
    throw new Error(`--wire-log ${file} is accessible to other users (mode ${mode}): run chmod 600 ${file}`);
  }
  return fd;
}

/**
 * A tap for the bridge's options. Throws (before the bridge listens) when the wire log cannot be
 * opened for appending, or other users could read it.
 */
export function wireTap(options: { debug: boolean; wireLog?: string | undefined }, log: BridgeLog): WireTap {
  const fd = options.wireLog === undefined ? undefined : openWireLog(options.wireLog);
  return {
    enabled: options.debug || fd !== undefined,
    record(conn, dir, frame) {
      if (options.debug) log(`${conn} ${dir} ${frame}`);
      if (fd !== undefined) {
        const record: WireRecord = { t: new Date().toISOString(), conn, dir, frame };
        writeSync(fd, `${JSON.stringify(record)}\n`);
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
    },
  };
}

/**
 * The records of a wire log, in order. Throws a `SyntaxError` naming the line when one is not a
 * record (a log cut short by a full disk ends in a partial line: it is reported, not skipped).
 */
export function readWireLog(file: string): WireRecord[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as WireRecord;
    } catch (error) {
      throw new SyntaxError(`${file}:${i + 1}: not a wire record (${(error as Error).message})`);
    }
  });
}
