/**
 * The mock model server: one HTTP server on loopback (a port from the kernel) that answers every
 * model API the agents speak — Anthropic Messages, OpenAI Responses, OpenAI Chat Completions and
 * Gemini generateContent — from the script in script.ts. Each API module claims the paths it serves;
 * anything else gets 404 and is logged, so an agent that calls home shows up in the report.
 * @packageDocumentation
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicApi } from './anthropic.ts';
import { geminiApi } from './gemini.ts';
import { type ApiRequest, type ModelApi, sendJson } from './http.ts';
import { openAiChatApi } from './openai-chat.ts';
import { openAiResponsesApi } from './openai-responses.ts';
import type { AgentTools } from './script.ts';

/** One request the server saw. */
export interface ModelRequest {
  readonly method: string;
  readonly path: string;
  /** The API that answered it, or undefined for a 404. */
  readonly api?: string;
  /** The names of the tools it offered, if any. */
  readonly tools?: readonly string[];
  /** The last prompt it was read as, the tool results since, and what the script answered. */
  read?: { readonly prompt?: string; readonly toolResults: number; readonly replied: string };
  /** The whole request body, kept only when the server was started with `keepBodies`. */
  body?: Record<string, unknown>;
}

/** The tool names a request offers, in any of the four APIs' shapes. */
function toolNames(body: Record<string, unknown>): string[] {
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Record<string, unknown>[];
  return tools.flatMap((t) => {
    const declarations = t.functionDeclarations as { name: string }[] | undefined;
    if (declarations) return declarations.map((d) => d.name);
    const fn = t.function as { name?: string } | undefined;
    return [String(t.name ?? fn?.name ?? t.type ?? '?')];
  });
}

/** A running mock model server. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly requests: readonly ModelRequest[];
  close(): Promise<void>;
}

const APIS: readonly ModelApi[] = [anthropicApi, openAiResponsesApi, openAiChatApi, geminiApi];

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * Starts the server; `tools` spells the script's tool calls in the agent's vocabulary; `keepBodies`
 * keeps every request's body in {@link ModelServer.requests}. Resolves once it listens. `close()`
 * ends open connections too.
 */
export async function startModelServer(tools: AgentTools, keepBodies = false): Promise<ModelServer> {
  const requests: ModelRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: ApiRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: await readBody(req),
      };
      const api = APIS.find((a) => a.matches(request));
      const offered = toolNames(request.body);
      const seen: ModelRequest = {
        method: request.method,
        path: request.path,
        ...(api ? { api: api.name } : {}),
        ...(offered.length ? { tools: offered } : {}),
        ...(keepBodies ? { body: request.body } : {}),
      };
      requests.push(seen);
      if (!api) return sendJson(res, { error: { message: `mock model: no route ${request.path}` } }, 404);
      try {
        api.handle(request, res, tools, (c, r) => {
          seen.read = {
            prompt: c.prompts.at(-1)?.slice(0, 80),
            toolResults: c.toolResultsSincePrompt,
            replied: r.tool ? `tool ${r.tool.name}` : `text ${r.text?.slice(0, 30)}`,
          };
        });
      } catch (e) {
        sendJson(res, { error: { message: `mock model: ${(e as Error).message}` } }, 500);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
