/**
 * The OpenAI Chat Completions API (`POST …/chat/completions`, streamed as `data:` chunks ending in
 * `[DONE]`), as Qwen Code, Copilot CLI (BYOK), OpenCode (`@ai-sdk/openai-compatible`) and Cline call
 * it: a thought is `reasoning_content` (the field DeepSeek and Qwen models stream, which these
 * clients read), text `content`, a tool call one `tool_calls` entry whose arguments stream in pieces.
 * `GET …/models` lists the one model.
 * @packageDocumentation
 */
import { type ApiRequest, type ModelApi, sendEvents, sendJson } from './http.ts';
import { conversationOf, nextReply, pieces, type Turn } from './script.ts';

/** The model id every OpenAI-compatible agent is configured with. */
export const CHAT_MODEL = 'silo-mock-model';

interface Message {
  readonly role: string;
  readonly content?: string | readonly { type: string; text?: string }[] | null;
}

function turnsOf(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'tool') turns.push({ toolResult: true });
    if (m.role !== 'user') continue;
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    turns.push({ prompt: parts.map((p) => p.text ?? '').join('\n') });
  }
  return turns;
}

let ids = 0;

export const openAiChatApi: ModelApi = {
  name: 'openai-chat',
  matches: (r: ApiRequest) =>
    (r.method === 'POST' && r.path.endsWith('/chat/completions')) ||
    (r.method === 'GET' && r.path.endsWith('/models')),
  handle(request, res, tools, trace) {
    if (request.method === 'GET') {
      return sendJson(res, {
        object: 'list',
        data: [{ id: CHAT_MODEL, object: 'model', created: 0, owned_by: 'silo' }],
      });
    }
    const body = request.body as {
      messages?: Message[];
      tools?: { function?: { name: string } }[];
      stream?: boolean;
      model?: string;
    };
    const names = (body.tools ?? []).map((t) => t.function?.name ?? '');
    const reply = nextReply(conversationOf(turnsOf(body.messages ?? []), names), tools, trace);
    const n = ++ids;
    const call = reply.tool && {
      id: `call_silo_${n}`,
      type: 'function',
      function: { name: reply.tool.name, arguments: JSON.stringify(reply.tool.input) },
    };
    const finish = call ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };
    const head = {
      id: `chatcmpl-silo-${n}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? CHAT_MODEL,
    };
    if (!body.stream) {
      const message = {
        role: 'assistant',
        content: reply.text ?? null,
        ...(reply.thought ? { reasoning_content: reply.thought } : {}),
        ...(call ? { tool_calls: [call] } : {}),
      };
      return sendJson(res, {
        ...head,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
      data: { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] },
    });
    const events: { data: unknown }[] = [chunk({ role: 'assistant', content: '' })];
    for (const p of pieces(reply.thought ?? '')) events.push(chunk({ reasoning_content: p }));
    for (const p of pieces(reply.text ?? '')) events.push(chunk({ content: p }));
    if (call) {
      const args = call.function.arguments;
      const half = Math.ceil(args.length / 2);
      events.push(
        chunk({
          tool_calls: [
            {
              index: 0,
              id: call.id,
              type: 'function',
              function: { name: call.function.name, arguments: '' },
            },
          ],
        }),
      );
      for (const a of [args.slice(0, half), args.slice(half)])
        events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: a } }] }));
    }
    events.push(chunk({}, finish));
    events.push({ data: { ...head, object: 'chat.completion.chunk', choices: [], usage } });
    sendEvents(res, events, '[DONE]');
  },
};
