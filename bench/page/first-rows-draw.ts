/**
 * What the first-rows pages draw (bench/page/first-rows.html, loaded fresh, with one of Silo's built
 * elements entries and the page entry it imports, nothing else): one user prompt and the first agent
 * message, a Markdown answer (heading, emphasis, a list, inline code, a link, a quote; no fenced code:
 * highlighting is lazy and not part of the first rows). Posts on `window.firstRows` the library files
 * the page fetched until that message's Markdown was drawn (resource timing), which the runner weighs
 * in gzip. The entry is imported by the page's own module (first-rows.ts, first-rows-transcript.ts).
 */
import type { SiloTranscript } from '../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';

const ANSWER = `## What changed

The **journal** keeps every update _in order_, so a reload paints the latest screen first.

- the worker writes each burst as one segment
- the page reads the tail, then the rest
- \`<silo-transcript>\` draws only the rows on screen

See [the architecture](https://example.test/architecture) for the path of one update.

> Older rows stream in behind it.`;

function update(kind: 'user_message_chunk' | 'agent_message_chunk', seq: number, text: string) {
  const content = { type: 'text' as const, text };
  const messageId = `first-rows-${seq}`;
  return {
    kind,
    seq,
    messageId,
    text,
    content,
    raw: { sessionUpdate: kind, messageId, content },
  } satisfies AgentSessionUpdate;
}

declare global {
  interface Window {
    firstRows?: { files: string[]; ms: number } | { error: string };
  }
}

async function main() {
  const t0 = performance.now();
  const el = document.createElement('silo-transcript') as SiloTranscript;
  el.style.cssText = 'display: block; width: 960px; height: 640px';
  el.updates = [update('user_message_chunk', 0, 'What changed?'), update('agent_message_chunk', 1, ANSWER)];
  document.body.append(el);
  const drawn = () => {
    const agent = el.shadowRoot?.querySelector('[part~="message-agent"]');
    return agent?.querySelector('h2, strong, ul') ?? agent?.shadowRoot?.querySelector('h2, strong, ul');
  };
  while (!drawn()) {
    if (performance.now() - t0 > 20_000) throw new Error('the first agent message was not drawn as Markdown');
    await new Promise((r) => requestAnimationFrame(r));
  }
  const files = performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname.slice(1))
    .filter((f) => f.endsWith('.js'));
  window.firstRows = { files, ms: performance.now() - t0 };
}

/** Draws the first rows and posts what was fetched (or the error) on `window.firstRows`. */
export function drawFirstRows(): void {
  main().catch((e: unknown) => {
    window.firstRows = { error: String(e) };
  });
}
