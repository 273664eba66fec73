/** Content-block scenarios: what the prompt carried (echoed back), and images and resources from the agent. */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Scenario } from '../scenarios.ts';
import type { Turn } from '../turn.ts';

/** A 1×1 PNG (red), base64. */
export const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * Answers with the prompt's content blocks as JSON in one fenced code block, exactly as received
 * (so a test can assert what a client sent: block types, MIME types, data, resource URIs).
 */
export async function promptBlocks(turn: Turn): Promise<StopReason> {
  await turn.say(`\`\`\`json\n${JSON.stringify(turn.prompt)}\n\`\`\`\n`, { chunkSize: 100000 });
  return turn.end();
}

/**
 * One agent message with an image (base64 PNG), an image whose `uri` points at `base` (a client
 * must not fetch it), an embedded text resource, and a resource link to `base` (opened only on a
 * click). `base` is the first argument (default `https://example.com/`).
 */
export async function contentBlocks(turn: Turn): Promise<StopReason> {
  const base = turn.args[0] ?? 'https://example.com/';
  const messageId = turn.newMessageId();
  const send = (content: Record<string, unknown>) =>
    turn.update({ sessionUpdate: 'agent_message_chunk', messageId, content });
  await send({ type: 'text', text: 'Here are an image, a file and a link.' });
  await send({ type: 'image', mimeType: 'image/png', data: RED_PIXEL_PNG });
  await send({ type: 'image', mimeType: 'image/png', data: '', uri: `${base}agent-image.png` });
  await send({
    type: 'resource',
    resource: { uri: 'file:///project/notes.txt', mimeType: 'text/plain', text: 'line one\nline two' },
  });
  await send({
    type: 'resource_link',
    uri: `${base}agent-link.txt`,
    name: 'agent-link.txt',
    title: 'A linked file',
    mimeType: 'text/plain',
  });
  return turn.end();
}

/** This file's scenarios, in the order `/scenario list` and the demo's picker show them (index.ts). */
export const scenarios: readonly Scenario[] = [
  {
    name: 'prompt-blocks',
    args: '',
    description: 'Answers with the prompt’s content blocks as JSON, exactly as received (attachments).',
    run: promptBlocks,
  },
  {
    name: 'content-blocks',
    args: '[base-url]',
    description:
      'An image, an image by URL under base-url, an embedded text resource and a resource link under base-url.',
    run: contentBlocks,
  },
];
