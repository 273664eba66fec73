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
  return utf8Blob(await service.exportJsonlStream(id));
}

/**
 * A stream of text read into a Blob of its UTF-8 bytes, chunk by chunk (none of them joined). The
 * same bytes as `new Response(stream.pipeThrough(new TextEncoderStream())).blob()` for chunks that
 * do not split a surrogate pair (the export's are whole lines), at a fraction of the cost: each
 * chunk is encoded with `encodeInto` into one buffer kept between chunks, and its bytes copied out
 * (`TextEncoder.encode` and `TextEncoderStream` take several times as long in Chromium). Rejects with
 * the stream's error.
 */
export async function utf8Blob(stream: ReadableStream<string>): Promise<Blob> {
  const reader = stream.getReader();
  const encoder = new TextEncoder();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let buffer = new Uint8Array(0);
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a pair, 2 units, is 4).
    if (buffer.length < r.value.length * 3) buffer = new Uint8Array(r.value.length * 3);
    const { written } = encoder.encodeInto(r.value, buffer);
    parts.push(buffer.slice(0, written));
  }
  return new Blob(parts);
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
