/**
 * What the mock model's API modules share: the parsed request, the module interface, and writing a
 * JSON body or a server-sent event stream.
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import type { AgentTools, Trace } from './script.ts';

/** A parsed request handed to an API module. */
export interface ApiRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The JSON body (an empty object when there is none). */
  readonly body: Record<string, unknown>;
}

/** One model API: which requests it answers, and how. */
export interface ModelApi {
  readonly name: string;
  /** True if this API answers `request` (then `handle` is called). */
  matches(request: ApiRequest): boolean;
  /** Answers; `trace` is told what the request was read as and answered. */
  handle(request: ApiRequest, res: ServerResponse, tools: AgentTools, trace: Trace): void;
}

/** Writes one JSON response. */
export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * Writes a whole server-sent event stream: each event's `data` as JSON, with its `event` name if
 * given, then `data: <trailer>` when one is given (Chat Completions ends with `[DONE]`).
 */
export function sendEvents(
  res: ServerResponse,
  events: readonly { event?: string; data: unknown }[],
  trailer?: string,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) {
    res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
  }
  if (trailer) res.write(`data: ${trailer}\n\n`);
  res.end();
}
