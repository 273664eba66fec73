/** The recorded real traffic of claude-agent-acp (test/fixtures/claude-agent-acp), for browser tests. */
import { executeServerCommand } from '@web/test-runner-commands';

/** One line of a recording. */
export interface RecordedEntry {
  seq: number;
  dir: 'client->agent' | 'agent->client';
  msg: { id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };
}

/** Reads `main`, `load` or `resume`. */
export async function readFixture(name: 'main' | 'load' | 'resume'): Promise<RecordedEntry[]> {
  const text = await executeServerCommand<string, { name: string }>('silo-fixture', { name });
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RecordedEntry);
}

/**
 * The `session/update` objects a replay sends, in order, when the client skips the requests named
 * in `skipped` (the replay drops what the agent sent between such a request and its response).
 */
export function recordedUpdates(entries: RecordedEntry[], skipped: string[] = []): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let skipping: unknown;
  for (const { dir, msg } of entries) {
    if (dir === 'client->agent' && msg.method && skipped.includes(msg.method)) skipping = msg.id;
    else if (
      dir === 'agent->client' &&
      skipping !== undefined &&
      msg.method === undefined &&
      msg.id === skipping
    )
      skipping = undefined;
    else if (dir === 'agent->client' && msg.method === 'session/update' && skipping === undefined) {
      out.push(msg.params!.update as Record<string, unknown>);
    }
  }
  return out;
}
