/**
 * `--usage-shape <agent>`: every turn reports its usage the way that agent does (the shapes read from
 * each agent's code; docs/agents.md, "Usage"). Counts are made up from the prompt's length, so a test
 * knows what to expect: each model request uses `80 + prompt length` input and 50 output tokens.
 *
 * | shape | during the turn | prompt response |
 * |---|---|---|
 * | `claude` | `usage_update` {used, size, cost USD} | `usage` (ACP) and `_meta.quota.token_count` (camelCase, `cachedInputTokens`, `reasoningOutputTokens`) |
 * | `codex` | `usage_update` {used, size} | `usage` with `thoughtTokens`, `_meta.quota.token_count` with `cacheWriteInputTokens` |
 * | `gemini` | — | only `_meta.quota.token_count` {input_tokens, output_tokens} (no total) and `model_usage` |
 * | `qwen` | one empty `agent_message_chunk` per request with `_meta.usage` (ACP counts) and `_meta.durationMs`; two requests a turn | nothing |
 * | `copilot` | `usage_update` {used, size} | `usage` counting every token since the process started; `initialize` names the agent `Copilot` |
 * | `opencode` | `usage_update` {used, size, cost USD} | `usage` (ACP, no thought or cache counts when zero) |
 */
import type { Turn } from './turn.ts';

/** The agents whose usage shapes the reference agent can send. */
export const USAGE_SHAPES = ['claude', 'codex', 'gemini', 'qwen', 'copilot', 'opencode'] as const;
export type UsageShape = (typeof USAGE_SHAPES)[number];

/** One model request's counts for a prompt of `length` characters. */
export function requestTokens(length: number): { input: number; output: number } {
  return { input: 80 + length, output: 50 };
}

/** Copilot CLI's `agentInfo`, sent under `--usage-shape copilot` (Silo reads its usage by its name). */
export const COPILOT_INFO = { name: 'Copilot', title: 'Copilot', version: '1.0.102' };

/** Copilot CLI's running total since the process started. */
const copilotTotal = { input: 0, output: 0 };

/** How many model requests a turn of `shape` makes (Qwen Code's report each; two, to be summed). */
export const requestsPerTurn = (shape: UsageShape): number => (shape === 'qwen' ? 2 : 1);

/** Sends what `shape` sends during a turn (after the turn's own updates). */
export async function duringTurn(shape: UsageShape, turn: Turn, length: number): Promise<void> {
  const { input, output } = requestTokens(length);
  const used = 1000 + input + output;
  switch (shape) {
    case 'qwen':
      for (const [i, durationMs] of [1200, 800].entries()) {
        await turn.update({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: '' },
          _meta: {
            usage: {
              inputTokens: input + i * output,
              outputTokens: output,
              totalTokens: input + i * output + output,
              cachedReadTokens: 0,
            },
            durationMs,
          },
        });
      }
      return;
    case 'claude':
    case 'opencode':
      await turn.update({
        sessionUpdate: 'usage_update',
        used,
        size: 200000,
        cost: { amount: 0.0123, currency: 'USD' },
      });
      return;
    case 'codex':
    case 'copilot':
      await turn.update({ sessionUpdate: 'usage_update', used, size: 258400 });
      return;
    case 'gemini':
      return;
  }
}

/** The fields `shape` adds to the prompt response. */
export function responseFields(shape: UsageShape, length: number): Record<string, unknown> {
  const { input, output } = requestTokens(length);
  const total = input + output;
  switch (shape) {
    case 'claude': {
      const quota = {
        totalTokens: total,
        inputTokens: input,
        cachedInputTokens: 0,
        cachedWriteTokens: 0,
        outputTokens: output,
        reasoningOutputTokens: 0,
      };
      return {
        usage: {
          inputTokens: input,
          outputTokens: output,
          cachedReadTokens: 0,
          cachedWriteTokens: 0,
          totalTokens: total,
        },
        _meta: {
          quota: { token_count: quota, model_usage: [{ model: 'claude-reference', token_count: quota }] },
        },
      };
    }
    case 'codex': {
      const quota = {
        totalTokens: total,
        inputTokens: input,
        cachedInputTokens: 0,
        cacheWriteInputTokens: 0,
        outputTokens: output,
        reasoningOutputTokens: 5,
      };
      return {
        usage: {
          totalTokens: total,
          inputTokens: input,
          cachedReadTokens: 0,
          cachedWriteTokens: 0,
          outputTokens: output,
          thoughtTokens: 5,
        },
        _meta: {
          quota: { token_count: quota, model_usage: [{ model: 'gpt-reference', token_count: quota }] },
        },
      };
    }
    case 'gemini': {
      const counts = { input_tokens: input, output_tokens: output };
      return {
        _meta: {
          quota: { token_count: counts, model_usage: [{ model: 'gemini-reference', token_count: counts }] },
        },
      };
    }
    case 'copilot':
      copilotTotal.input += input;
      copilotTotal.output += output;
      return {
        usage: {
          inputTokens: copilotTotal.input,
          outputTokens: copilotTotal.output,
          totalTokens: copilotTotal.input + copilotTotal.output,
          cachedReadTokens: 0,
          cachedWriteTokens: 0,
        },
      };
    case 'opencode':
      return { usage: { inputTokens: input, outputTokens: output, totalTokens: total } };
    case 'qwen':
      return {};
  }
}
