/**
 * The Anthropic Messages API (`POST /v1/messages`, streamed as server-sent events when the request
 * says `stream: true`), as the Claude Code CLI under claude-agent-acp calls it: a thought is a
 * `thinking` block, text a `text` block, a tool call a `tool_use` block whose input streams as
 * `input_json_delta`s. `POST /v1/messages/count_tokens` answers a fixed count.
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import { type ApiRequest, type ModelApi, sendEvents, sendJson } from './http.ts';
import { conversationOf, nextReply, pieces, type Reply, type Turn } from './script.ts';

interface Block {
  readonly type: string;
  readonly text?: string;
}
interface Message {
  readonly role: string;
  readonly content: string | readonly Block[];
}

/** The request's messages as turns. */
function turnsOf(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') {
      turns.push({ prompt: m.content });
      continue;
    }
    // In order: the CLI merges a prompt sent after a cancelled tool into the tool result's message.
    for (const b of m.content) {
      if (b.type === 'tool_result') turns.push({ toolResult: true });
      else if (b.type === 'text' && b.text) turns.push({ prompt: b.text });
    }
  }
  return turns;
}

let ids = 0;

/** The content blocks of a reply, as the non-streamed response holds them. */
function blocks(reply: Reply, turn: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (reply.thought) out.push({ type: 'thinking', thinking: reply.thought, signature: 'c2lsby1tb2Nr' });
  if (reply.text) out.push({ type: 'text', text: reply.text });
  if (reply.tool)
    out.push({
      type: 'tool_use',
      id: `toolu_silo_${turn}_${++ids}`,
      name: reply.tool.name,
      input: reply.tool.input,
    });
  return out;
}

/** The stream events of one content block. */
function blockEvents(block: Record<string, unknown>, index: number): { event: string; data: unknown }[] {
  const ev = (type: string, data: Record<string, unknown>) => ({
    event: type,
    data: { type, index, ...data },
  });
  const deltas: { event: string; data: unknown }[] = [];
  let start: Record<string, unknown>;
  if (block.type === 'thinking') {
    start = { type: 'thinking', thinking: '', signature: '' };
    for (const p of pieces(String(block.thinking)))
      deltas.push(ev('content_block_delta', { delta: { type: 'thinking_delta', thinking: p } }));
    deltas.push(
      ev('content_block_delta', { delta: { type: 'signature_delta', signature: block.signature } }),
    );
  } else if (block.type === 'text') {
    start = { type: 'text', text: '' };
    for (const p of pieces(String(block.text)))
      deltas.push(ev('content_block_delta', { delta: { type: 'text_delta', text: p } }));
  } else {
    start = { ...block, input: {} };
    const json = JSON.stringify(block.input);
    const half = Math.ceil(json.length / 2);
    for (const p of [json.slice(0, half), json.slice(half)])
      deltas.push(ev('content_block_delta', { delta: { type: 'input_json_delta', partial_json: p } }));
  }
  return [ev('content_block_start', { content_block: start }), ...deltas, ev('content_block_stop', {})];
}

export const anthropicApi: ModelApi = {
  name: 'anthropic-messages',
  matches: (r) => r.method === 'POST' && /\/v1\/messages(\/count_tokens)?$/.test(r.path),
  handle(request: ApiRequest, res: ServerResponse, tools, trace) {
    if (request.path.endsWith('/count_tokens')) return sendJson(res, { input_tokens: 42 });
    const body = request.body as {
      messages?: Message[];
      tools?: { name: string }[];
      model?: string;
      stream?: boolean;
    };
    const turns = turnsOf(body.messages ?? []);
    const reply = nextReply(
      conversationOf(
        turns,
        (body.tools ?? []).map((t) => t.name),
      ),
      tools,
      trace,
    );
    const content = blocks(reply, turns.length);
    const stopReason = reply.tool ? 'tool_use' : 'end_turn';
    const usage = {
      input_tokens: 120,
      output_tokens: 30,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    const message = {
      id: `msg_silo_${++ids}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-mock',
    };
    if (!body.stream) {
      return sendJson(res, { ...message, content, stop_reason: stopReason, stop_sequence: null, usage });
    }
    sendEvents(res, [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            ...message,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...usage, output_tokens: 1 },
          },
        },
      },
      ...content.flatMap((b, i) => blockEvents(b, i)),
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: 30 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  },
};
