/** Scenarios that send what a client must survive: unknown kinds and fields, bad lines, huge lines. */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

/** Unknown update kind, vendor `_meta`, unknown fields, an unknown content block, a vendor notification. */
export async function unknown(turn: Turn): Promise<StopReason> {
  await turn.update({
    sessionUpdate: '_vendor_thing',
    payload: { answer: 42 },
    _meta: { 'vendor.example/kind': 'thing' },
  });
  await turn.update({
    sessionUpdate: 'agent_message_chunk',
    messageId: 'msg-unknown-1',
    content: { type: 'text', text: 'Known update with unknown fields. ', vendorExtra: true },
    x: 'unknown field',
    _meta: { 'vendor.example/trace': 'abc123' },
  });
  await turn.update({ sessionUpdate: 'subagent_update', sessionId: 'child-1', title: 'A sub-agent' });
  await turn.update({
    sessionUpdate: 'agent_message_chunk',
    messageId: 'msg-unknown-2',
    content: { type: 'video', url: 'https://example.com/v.mp4' },
  });
  await turn.client.notify('_vendor/ping', { at: 1 });
  await turn.update({
    sessionUpdate: 'tool_call',
    toolCallId: 'call-odd',
    title: 'Odd tool',
    kind: 'teleport',
    status: 'weird',
    _meta: { 'vendor.example/tool': 'teleporter' },
  });
  await turn.say('Still here after the unknowns.', { messageId: 'msg-unknown-3' });
  return turn.end();
}

/** One malformed JSON line on stdout, then a normal message. */
export async function malformed(turn: Turn): Promise<StopReason> {
  await turn.say('Before the malformed line. ', { messageId: 'msg-before', chunkSize: 1000 });
  await turn.raw('{"jsonrpc":"2.0","method":"session/update","params":{oops');
  await turn.say('After the malformed line.', { messageId: 'msg-after', chunkSize: 1000 });
  return turn.end();
}

function bigChunk(turn: Turn, megabytes: number, messageId: string) {
  return turn.update(
    {
      sessionUpdate: 'agent_message_chunk',
      messageId,
      content: { type: 'text', text: 'x'.repeat(megabytes * 1024 * 1024) },
    },
    { history: false },
  );
}

/** One 40 MB line (over ndJsonStream's 32 MiB default), then a short message if still alive. */
export async function hugeLine(turn: Turn): Promise<StopReason> {
  await bigChunk(turn, Number(turn.args[0] ?? 40), 'msg-huge');
  await turn.say('After the huge line.');
  return turn.end();
}

/** One 10 MB message chunk (under every limit). */
export async function big(turn: Turn): Promise<StopReason> {
  await bigChunk(turn, Number(turn.args[0] ?? 10), 'msg-big');
  turn.session.history.push({
    sessionUpdate: 'agent_message_chunk',
    messageId: 'msg-big',
    content: { type: 'text', text: '(big message)' },
  });
  await turn.say('After the big message.');
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'unknown',
    args: '',
    description:
      'Unknown sessionUpdate `_vendor_thing`, vendor _meta, unknown fields, an unknown content block, `_vendor/ping`.',
    run: unknown,
  },
  {
    name: 'malformed',
    args: '',
    description: 'Writes one malformed JSON line to stdout, then continues normally.',
    run: malformed,
  },
  {
    name: 'huge-line',
    args: '[MB]',
    description: 'Writes one 40 MB session/update line (over the 32 MiB ndjson limit).',
    run: hugeLine,
  },
  {
    name: 'big',
    args: '[MB]',
    description: 'Sends one 10 MB agent message chunk (under the limits).',
    run: big,
  },
];
