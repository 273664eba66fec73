/**
 * The Gemini API (`POST …/models/<model>:generateContent`, `:streamGenerateContent` — as server-sent
 * events with `alt=sse`, else one JSON array — and `:countTokens`), as Gemini CLI calls it through
 * `@google/genai`: a thought is a part with `thought: true`, text a `text` part, a tool call a
 * `functionCall` part; a tool's result comes back as a `functionResponse` part.
 * @packageDocumentation
 */
import { type ApiRequest, type ModelApi, sendEvents, sendJson } from './http.ts';
import { conversationOf, nextReply, pieces, type Turn } from './script.ts';

interface Part {
  readonly text?: string;
  readonly thought?: boolean;
  readonly functionResponse?: unknown;
}
interface Content {
  readonly role?: string;
  readonly parts?: readonly Part[];
}

function turnsOf(contents: readonly Content[]): Turn[] {
  const turns: Turn[] = [];
  for (const c of contents) {
    if (c.role === 'model') continue;
    for (const p of c.parts ?? []) {
      if (p.functionResponse) turns.push({ toolResult: true });
      else if (p.text && !p.thought) turns.push({ prompt: p.text });
    }
  }
  return turns;
}

const usageMetadata = { promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 150 };

export const geminiApi: ModelApi = {
  name: 'gemini',
  matches: (r: ApiRequest) =>
    r.method === 'POST' &&
    /\/models\/[^/:]+:(generateContent|streamGenerateContent|countTokens)$/.test(r.path),
  handle(request, res, tools, trace) {
    if (request.path.endsWith(':countTokens')) return sendJson(res, { totalTokens: 42 });
    const body = request.body as {
      contents?: Content[];
      tools?: { functionDeclarations?: { name: string }[] }[];
      generationConfig?: { responseMimeType?: string };
    };
    const names = (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
    const reply = nextReply(conversationOf(turnsOf(body.contents ?? []), names), tools, trace);
    // A request for JSON (Gemini CLI's model router, its loop detector) gets an empty object.
    const json = body.generationConfig?.responseMimeType === 'application/json';
    const parts: Record<string, unknown>[] = json
      ? [{ text: '{}' }]
      : [
          ...pieces(reply.thought ?? '').map((text) => ({ text, thought: true })),
          ...pieces(reply.text ?? '').map((text) => ({ text })),
          ...(reply.tool ? [{ functionCall: { name: reply.tool.name, args: reply.tool.input } }] : []),
        ];
    const candidate = (p: Record<string, unknown>[], last: boolean) => ({
      candidates: [
        { content: { role: 'model', parts: p }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
      ],
      ...(last ? { usageMetadata } : {}),
      modelVersion: 'gemini-mock',
    });
    if (request.path.endsWith(':generateContent')) return sendJson(res, candidate(parts, true));
    const chunks = parts.map((p, i) => candidate([p], i === parts.length - 1));
    if (request.query.get('alt') === 'sse')
      return sendEvents(
        res,
        chunks.map((data) => ({ data })),
      );
    sendJson(res, chunks);
  },
};
