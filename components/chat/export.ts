/**
 * The exports of `<silo-chat>`'s session: its journal as JSONL streamed into a file's bytes, its
 * transcript as Markdown (through the export chunk, `silo-acp/export`), and saving either as a file
 * (the header's Export menu).
 * @packageDocumentation
 */
import type { AgentSessionHandle, AgentsService } from '../../src/index.ts';
import { exportChunk } from '../shared/export.chunk.ts';

/**
 * Session `id`'s JSONL export as a file's bytes, streamed from the journal into a Blob
 * (`AgentsService.exportJsonlStream`: no string of the whole text). Rejects as that does.
 */
export async function jsonlBlob(service: AgentsService, id: string): Promise<Blob> {
  const stream = await service.exportJsonlStream(id);
  return new Response(stream.pipeThrough(new TextEncoderStream())).blob();
}

/**
 * The session's transcript as Markdown. The first call loads the export entry (`silo-acp/export`);
 * it rejects if that cannot be loaded, and the next call tries again.
 */
export async function markdownOf(handle: AgentSessionHandle): Promise<string> {
  const [{ toMarkdown }, updates] = await Promise.all([exportChunk.load(), handle.transcript()]);
  return toMarkdown(updates, { title: handle.agentInfo.title });
}

/** Saves `body` as a file named `name` through a temporary link. */
export function download(name: string, body: Blob | string, type: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Saves the session's JSONL journal or Markdown transcript (`body()`) as `<sessionId>.jsonl|md`.
 * Rejects as `body()` does; nothing is saved without a body.
 */
export async function saveExport(
  kind: 'jsonl' | 'md',
  sessionId: string | undefined,
  body: () => Promise<Blob | string | undefined>,
): Promise<void> {
  const file = await body();
  if (file === undefined) return;
  const md = kind === 'md';
  download(
    `${sessionId ?? 'session'}.${md ? 'md' : 'jsonl'}`,
    file,
    md ? 'text/markdown' : 'application/jsonl',
  );
}
