/**
 * The OpenAI Responses API (`POST …/responses`, streamed as server-sent events), as Codex calls it:
 * a thought is a `reasoning` item with a summary, text a `message` item, a tool call a
 * `function_call` item (or a `custom_tool_call` when the tool's input is free text, as Codex's
 * `apply_patch` is). Every event carries its `type` and a `sequence_number`.
 * @packageDocumentation
 */
import { type ApiRequest, type ModelApi, sendEvents, sendJson } from './http.ts';
import { conversationOf, nextReply, pieces, type Reply, type Turn } from './script.ts';

/** A tool input that is this one key is sent as a free-text `custom_tool_call`. */
export const FREE_TEXT_INPUT = '__freeText';

interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly content?: string | readonly { type: string; text?: string }[];
}

function turnsOf(input: unknown): Turn[] {
  if (typeof input === 'string') return [{ prompt: input }];
  const turns: Turn[] = [];
  for (const item of (input ?? []) as Item[]) {
    if (item.type?.endsWith('_call_output')) turns.push({ toolResult: true });
    else if ((item.type === 'message' || !item.type) && item.role === 'user') {
      const parts =
        typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content;
      turns.push({ prompt: (parts ?? []).map((p) => p.text ?? '').join('\n') });
    }
  }
  return turns;
}

let ids = 0;

/** The output items of a reply, complete. */
function itemsOf(reply: Reply): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  const n = ++ids;
  if (reply.thought)
    items.push({
      type: 'reasoning',
      id: `rs_${n}`,
      summary: [{ type: 'summary_text', text: reply.thought }],
    });
  if (reply.text)
    items.push({
      type: 'message',
      id: `msg_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  if (reply.tool) {
    const free = reply.tool.input[FREE_TEXT_INPUT];
    items.push(
      typeof free === 'string'
        ? {
            type: 'custom_tool_call',
            id: `ctc_${n}`,
            call_id: `call_${n}`,
            name: reply.tool.name,
            input: free,
            status: 'completed',
          }
        : {
            type: 'function_call',
            id: `fc_${n}`,
            call_id: `call_${n}`,
            name: reply.tool.name,
            arguments: JSON.stringify(reply.tool.input),
            status: 'completed',
          },
    );
  }
  return items;
}

/** The delta events between an item's `added` and `done`. */
function deltas(item: Record<string, unknown>, output_index: number): Record<string, unknown>[] {
  const item_id = item.id;
  if (item.type === 'reasoning') {
    const text = (item.summary as { text: string }[])[0]!.text;
    return [
      {
        type: 'response.reasoning_summary_part.added',
        item_id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      },
      ...pieces(text).map((delta) => ({
        type: 'response.reasoning_summary_text.delta',
        item_id,
        output_index,
        summary_index: 0,
        delta,
      })),
      { type: 'response.reasoning_summary_text.done', item_id, output_index, summary_index: 0, text },
    ];
  }
  if (item.type === 'message') {
    const text = (item.content as { text: string }[])[0]!.text;
    return [
      {
        type: 'response.content_part.added',
        item_id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      },
      ...pieces(text).map((delta) => ({
        type: 'response.output_text.delta',
        item_id,
        output_index,
        content_index: 0,
        delta,
      })),
      { type: 'response.output_text.done', item_id, output_index, content_index: 0, text },
    ];
  }
  return [];
}

const USAGE = {
  input_tokens: 120,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 30,
  output_tokens_details: { reasoning_tokens: 5 },
  total_tokens: 150,
};

export const openAiResponsesApi: ModelApi = {
  name: 'openai-responses',
  matches: (r: ApiRequest) => r.method === 'POST' && r.path.endsWith('/responses'),
  handle(request, res, tools, trace) {
    const body = request.body as {
      input?: unknown;
      tools?: { name?: string; type?: string }[];
      stream?: boolean;
      model?: string;
    };
    const names = (body.tools ?? []).map((t) => t.name ?? t.type ?? '');
    const items = itemsOf(nextReply(conversationOf(turnsOf(body.input), names), tools, trace));
    const response = {
      id: `resp_${ids}`,
      object: 'response',
      model: body.model ?? 'gpt-mock',
      created_at: Math.floor(Date.now() / 1000),
    };
    if (body.stream === false)
      return sendJson(res, { ...response, status: 'completed', output: items, usage: USAGE });
    const events: Record<string, unknown>[] = [
      { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
      { type: 'response.in_progress', response: { ...response, status: 'in_progress', output: [] } },
    ];
    items.forEach((item, output_index) => {
      const added =
        item.type === 'function_call'
          ? { ...item, arguments: '' }
          : item.type === 'custom_tool_call'
            ? { ...item, input: '' }
            : { ...item, ...(item.type === 'message' ? { content: [] } : { summary: [] }) };
      events.push(
        { type: 'response.output_item.added', output_index, item: added },
        ...deltas(item, output_index),
      );
      events.push({ type: 'response.output_item.done', output_index, item });
    });
    events.push({
      type: 'response.completed',
      response: { ...response, status: 'completed', output: items, usage: USAGE },
    });
    sendEvents(
      res,
      events.map((data, sequence_number) => ({
        event: String(data.type),
        data: { ...data, sequence_number },
      })),
    );
  },
};
