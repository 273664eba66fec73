// The usage model (src/usage.ts) read through the session-state reducer: every shape agents report
// tokens in gives one AgentTokenCounts; a turn's tokens are the prompt response's, else its requests'
// summed; its time is Silo's (prompt → end), else the agent's own durations summed; a journaled turn
// end's usage wins over the raw response; the session sums its turns.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { reduceSessionStates } from '../../src/session-state.ts';
import { TranscriptModel } from '../../src/transcript/model.ts';
import type { TurnEndRow } from '../../src/transcript/rows.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { readTokenCounts, responseTokens } from '../../src/usage.ts';

const prompt = (seq: number, at: string): AgentSessionUpdate => ({
  kind: 'user_message_chunk',
  text: 'hi',
  messageId: `silo-u${seq}`,
  timestamp: at,
  raw: {},
  seq,
});
const end = (seq: number, at: string | undefined, raw: Record<string, unknown> = {}): AgentSessionUpdate => ({
  kind: 'turn_end',
  turnEnd: { stopReason: 'end_turn' },
  ...(at ? { timestamp: at } : {}),
  raw: { stopReason: 'end_turn', ...raw },
  seq,
});
const qwenChunk = (seq: number, total: number, durationMs: number): AgentSessionUpdate => ({
  kind: 'agent_message_chunk',
  text: '',
  raw: {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: '' },
    _meta: { usage: { inputTokens: total - 10, outputTokens: 10, totalTokens: total }, durationMs },
  },
  seq,
});

function turnEnds(updates: AgentSessionUpdate[]): TurnEndRow[] {
  const model = new TranscriptModel();
  model.applyAll(updates);
  return model.rows.filter((r): r is TurnEndRow => r.type === 'turn-end');
}

describe('usage model', () => {
  test('the shapes: ACP usage, camelCase quota (Claude, Codex), snake_case quota without a total (Gemini)', () => {
    assert.deepEqual(
      responseTokens({ usage: { totalTokens: 9, inputTokens: 5, outputTokens: 4, thoughtTokens: 1 } }),
      { total: 9, input: 5, output: 4, thought: 1 },
    );
    assert.deepEqual(
      responseTokens({
        usage: null,
        _meta: {
          quota: {
            token_count: {
              totalTokens: 7,
              inputTokens: 4,
              cachedInputTokens: 2,
              cacheWriteInputTokens: 1,
              outputTokens: 3,
              reasoningOutputTokens: 0,
            },
          },
        },
      }),
      { total: 7, input: 4, output: 3, thought: 0, cachedRead: 2, cachedWrite: 1 },
    );
    assert.deepEqual(
      responseTokens({ _meta: { quota: { token_count: { input_tokens: 120, output_tokens: 30 } } } }),
      {
        total: 150,
        input: 120,
        output: 30,
      },
    );
    assert.equal(responseTokens({ _meta: { quota: { token_count: null } } }), undefined);
    assert.equal(readTokenCounts({ totalTokens: -1 }), undefined, 'a negative count is no count');
    assert.equal(readTokenCounts('lots'), undefined);
  });

  test("Qwen Code's per-request usage is summed into its turn; without Silo's times, the agent's durations", () => {
    const updates = [
      prompt(0, '2026-01-01T00:00:00.000Z'),
      qwenChunk(1, 100, 1200),
      qwenChunk(2, 150, 800),
      end(3, '2026-01-01T00:00:05.000Z'),
    ];
    const [row] = turnEnds(updates);
    assert.deepEqual(row!.tokens, { total: 250, input: 230, output: 20 });
    assert.equal(row!.durationMs, 5000, "Silo's time, prompt to end");
    const untimed = turnEnds([
      { ...updates[0]!, timestamp: undefined },
      updates[1]!,
      updates[2]!,
      end(3, undefined),
    ]);
    assert.equal(untimed[0]!.durationMs, undefined, 'no prompt Silo sent: no turn to time');
    const agentTimed = turnEnds([updates[0]!, updates[1]!, updates[2]!, end(3, undefined)]);
    assert.equal(agentTimed[0]!.durationMs, 2000, "the agent's own durations, summed");
  });

  test('the prompt response wins over the requests; a journaled usage wins over both; the session sums its turns', () => {
    const updates = [
      prompt(0, '2026-01-01T00:00:00.000Z'),
      qwenChunk(1, 100, 1200),
      end(2, '2026-01-01T00:00:01.000Z', { usage: { totalTokens: 40, inputTokens: 30, outputTokens: 10 } }),
      prompt(3, '2026-01-01T00:01:00.000Z'),
      {
        ...end(4, '2026-01-01T00:01:02.000Z', { usage: { totalTokens: 900 } }),
        turnEnd: { stopReason: 'end_turn', usage: { tokens: { total: 60, input: 50 }, durationMs: 1500 } },
      },
    ];
    const rows = turnEnds(updates);
    assert.deepEqual(
      rows.map((r) => [r.tokens, r.durationMs]),
      [
        [{ total: 40, input: 30, output: 10 }, 1000],
        [{ total: 60, input: 50 }, 1500],
      ],
    );
    const state = reduceSessionStates(updates);
    assert.deepEqual(state.tokens, { total: 100, input: 80, output: 10 });
    assert.equal(state.turn, undefined, 'no turn runs after its end');
  });

  test('a message sent into the running turn starts no turn of its own', () => {
    const updates = [
      prompt(0, '2026-01-01T00:00:00.000Z'),
      { ...prompt(1, '2026-01-01T00:00:03.000Z'), messageId: 'silo-u1', steered: true },
      end(2, '2026-01-01T00:00:04.000Z'),
    ];
    assert.equal(turnEnds(updates)[0]!.durationMs, 4000);
  });
});
