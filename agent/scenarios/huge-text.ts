/**
 * `huge-text <shape> [where] [size] [chunk]`: hostile agent text of a shape that used to brick a
 * transcript (agent/huge-text.ts), as an agent message, a thought, a tool call's output or a diff.
 * Messages and thoughts stream in chunks of `chunk` characters (default 65,536); a tool's output and
 * a diff arrive whole, as a tool call's content.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import { HUGE_TEXT_DEFAULTS, HUGE_TEXT_SHAPES, type HugeTextShape, hugeText } from '../huge-text.ts';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

/** Where the text goes. */
const WHERE = ['message', 'thought', 'tool', 'diff'] as const;

export async function hugeTextScenario(turn: Turn): Promise<StopReason> {
  const [shapeArg = 'line', whereArg = 'message', sizeArg, chunkArg] = turn.args;
  const shape = (HUGE_TEXT_SHAPES as readonly string[]).includes(shapeArg)
    ? (shapeArg as HugeTextShape)
    : 'line';
  const where = (WHERE as readonly string[]).includes(whereArg) ? whereArg : 'message';
  const text = hugeText(shape, sizeArg ? Number(sizeArg) : undefined);
  const chunk = Math.max(1, Number(chunkArg ?? 65_536));
  if (where === 'message' || where === 'thought') {
    const messageId = turn.newMessageId();
    const kind = where === 'message' ? 'agent_message_chunk' : 'agent_thought_chunk';
    for (let i = 0; i < text.length && !turn.signal.aborted; i += chunk)
      await turn.update({
        sessionUpdate: kind,
        messageId,
        content: { type: 'text', text: text.slice(i, i + chunk) },
      });
  } else {
    await turn.update({
      sessionUpdate: 'tool_call',
      toolCallId: 'call-huge',
      title: `Huge ${shape}`,
      kind: where === 'diff' ? 'edit' : 'read',
      status: 'in_progress',
    });
    await turn.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call-huge',
      status: 'completed',
      content: [
        where === 'diff'
          ? { type: 'diff', path: `/tmp/huge-${shape}.md`, oldText: 'before\n', newText: text }
          : { type: 'content', content: { type: 'text', text } },
      ],
    });
  }
  await turn.say('After the huge text.');
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'huge-text',
    args: `<${HUGE_TEXT_SHAPES.join('|')}> [${WHERE.join('|')}] [size] [chunk]`,
    description: `Hostile text that used to brick a transcript: ${HUGE_TEXT_SHAPES.map((s) => `${s}, ${HUGE_TEXT_DEFAULTS[s].what}`).join('; ')}.`,
    run: hugeTextScenario,
  },
];
