/** Text scenarios: the default answer, the scenario list, markdown, messageIds, thoughts, the demo tour. */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';
import { toolsTour } from './tools.ts';

export const MARKDOWN = `# Streaming markdown

Here is **bold**, *italic*, \`inline code\` and a [link](https://example.com).

- first item
- second item with \`code\`
  - nested item

1. one
2. two

\`\`\`ts
function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

| column | value |
|---|---|
| a | 1 |
| b | 2 |

> A quote to finish.
`;

export async function defaultAnswer(turn: Turn): Promise<StopReason> {
  const prompt = turn.text.trim() || '(empty prompt)';
  if (!turn.session.title && turn.options.title) {
    turn.session.title = prompt.slice(0, 60);
    await turn.update({
      sessionUpdate: 'session_info_update',
      title: turn.session.title,
      updatedAt: new Date().toISOString(),
    });
  }
  await turn.say(`The user wrote ${prompt.length} characters; I will echo them.`, {
    kind: 'agent_thought_chunk',
  });
  await turn.say(
    `**Echo:** ${prompt}\n\nI am Silo's reference agent. Send \`/scenario list\` to see what else I can do.`,
  );
  await turn.update({ sessionUpdate: 'usage_update', used: 1200 + prompt.length, size: 200000 });
  return turn.end();
}

export async function list(turn: Turn): Promise<StopReason> {
  // The registry is built from this file among others: read at the call, once every file is in.
  const { SCENARIOS } = await import('./index.ts');
  const lines = SCENARIOS.map(
    (s) => `- \`/scenario ${s.name}${s.args ? ` ${s.args}` : ''}\` — ${s.description}`,
  );
  await turn.say(`Scenarios:\n\n${lines.join('\n')}\n`, { chunkSize: 400 });
  return turn.end();
}

export async function markdown(turn: Turn, withIds: boolean): Promise<StopReason> {
  await turn.say(MARKDOWN, { chunkSize: 12, messageId: withIds ? undefined : null });
  return turn.end();
}

export async function messageIds(turn: Turn): Promise<StopReason> {
  await turn.say('First message. ', { messageId: 'msg-first', chunkSize: 1000 });
  await turn.say('Second message, same kind, new id. ', { messageId: 'msg-second', chunkSize: 1000 });
  const chunk = (id: string, text: string) =>
    turn.update({ sessionUpdate: 'agent_message_chunk', messageId: id, content: { type: 'text', text } });
  await chunk('msg-a', 'A1 ');
  await chunk('msg-b', 'B1 ');
  await chunk('msg-a', 'A2');
  return turn.end();
}

export async function thoughts(turn: Turn): Promise<StopReason> {
  const thoughtId = turn.newMessageId();
  const messageId = turn.newMessageId();
  await turn.say('Let me think about this. ', { kind: 'agent_thought_chunk', messageId: thoughtId });
  await turn.say('Here is a first part. ', { messageId });
  await turn.say('Thinking a little more. ', { kind: 'agent_thought_chunk', messageId: thoughtId });
  await turn.say('And the conclusion.', { messageId });
  return turn.end();
}

export async function demo(turn: Turn): Promise<StopReason> {
  turn.session.title = 'Reference agent tour';
  await turn.update({
    sessionUpdate: 'session_info_update',
    title: turn.session.title,
    updatedAt: new Date().toISOString(),
  });
  await turn.say('The user wants a tour. I will plan, edit a file, run a check and report.', {
    kind: 'agent_thought_chunk',
    delayMs: 40,
  });
  await toolsTour(turn, 60);
  await turn.say(MARKDOWN, { chunkSize: 16, delayMs: 20 });
  await turn.update({
    sessionUpdate: 'usage_update',
    used: 48213,
    size: 200000,
    cost: { amount: 0.42, currency: 'USD' },
  });
  return turn.end();
}

/** The note `user-note` adds to the user's message. */
export const USER_NOTE = 'Note from the agent: the workspace is read-only.';

/**
 * `user-note [rewrite]`: the turn opens with a user message of the agent's own, before anything else,
 * as an agent that adds a note to the prompt or rewrites it may (ACP allows it): {@link USER_NOTE},
 * or with `rewrite` the prompt's text followed by ` (rewritten)`. Then `Noted.` It is not an echo
 * of the prompt: a client journals and shows it.
 */
export async function userNote(turn: Turn): Promise<StopReason> {
  const prompt = turn.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const text = turn.args[0] === 'rewrite' ? `${prompt} (rewritten)` : USER_NOTE;
  await turn.update({
    sessionUpdate: 'user_message_chunk',
    messageId: turn.newMessageId(),
    content: { type: 'text', text },
  });
  await turn.say('Noted.');
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'default',
    args: '',
    description: 'Plain prompt: a thought, then a short markdown answer echoing the prompt.',
    run: defaultAnswer,
  },
  { name: 'list', args: '', description: 'Lists every scenario (also: /scenario help).', run: list },
  {
    name: 'demo',
    args: '',
    description: 'A tour: title, plan, thoughts, markdown, tool calls with diffs, usage.',
    run: demo,
  },
  {
    name: 'markdown',
    args: '',
    description: 'Streams rich markdown (headings, lists, code, table) in small chunks with a messageId.',
    run: (t) => markdown(t, true),
  },
  {
    name: 'markdown-no-id',
    args: '',
    description: 'The same markdown with no messageId on any chunk.',
    run: (t) => markdown(t, false),
  },
  {
    name: 'message-ids',
    args: '',
    description: 'Two same-kind messages back to back with different ids, then ids interleaved A, B, A.',
    run: messageIds,
  },
  {
    name: 'thoughts',
    args: '',
    description: 'Thought chunks interleaved with message chunks.',
    run: thoughts,
  },
  {
    name: 'user-note',
    args: '[rewrite]',
    description:
      'Opens the turn with a user message of its own (a note, or the prompt rewritten), then answers.',
    run: userNote,
  },
];
