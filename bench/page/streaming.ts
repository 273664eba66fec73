/**
 * Page side of the main-thread and streaming benchmarks: updates fed to `<silo-transcript>` from the
 * page itself, so the renderer is measured at exactly the rate asked, whatever an agent could send (a
 * steady stream of small chunks against the least a page can do; one long Markdown answer, frame by
 * frame). Merged into `window.siloBench`.
 */
import { renderMarkdown } from '../../components/content/markdown.ts';
import type { SiloTranscript } from '../../components/transcript/silo-transcript.ts';
import type { AgentSessionUpdate } from '../../src/types.ts';
import { mountTranscript } from './fixtures.ts';
import { countElements, nextFrame, percentile, recordMainThread } from './measure.ts';

/** A long Markdown answer of about `bytes` characters: sections of prose, lists and code. */
function markdownAnswer(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let k = 1; length < bytes; k++) {
    const section = [
      `## Part ${k}: what the code does`,
      `The function \`step${k}\` reads the **input**, keeps what it needs and _returns_ a new value; see [the docs](https://docs.example.test/${k}) for the rest. It runs in linear time and allocates once per call, which matters for long inputs.`,
      `- first, it checks the arguments (\`${k}\` of them)\n- then it folds the list\n- finally it writes the result`,
      `\`\`\`ts\nexport function step${k}(xs: number[]): number {\n  return xs.reduce((a, b) => a + b * ${k}, 0);\n}\n\`\`\``,
      `> Note: part ${k} assumes the previous part ran.`,
    ].join('\n\n');
    parts.push(section);
    length += section.length + 2;
  }
  return parts.join('\n\n').slice(0, bytes);
}

export const streamingBench = {
  /**
   * A stream fed at a fixed rate from the page, one batch per 16 ms as Silo's worker delivers them:
   * agent text chunks, a new message every `chunksPerMessage` chunks with a tool call between
   * messages. `silo`: into `<silo-transcript>` (`appendUpdates`). `bare`: the baseline, the least a
   * page can do — each batch's text appended as one text node to a plain `<div>` per message.
   * Feeding from the page measures the renderer at exactly `rate`, whatever the agent can send.
   */
  async feedStream(target: 'silo' | 'bare', rate: number, count: number, chunksPerMessage: number) {
    const host = document.createElement('div');
    host.style.cssText = 'width: 960px; height: 640px; overflow-y: auto; white-space: pre-wrap';
    const el = document.createElement('silo-transcript') as SiloTranscript;
    el.updates = [];
    document.body.append(target === 'silo' ? el : host);
    try {
      if (target === 'silo') await el.updateComplete;
      await nextFrame();
      let seq = 0;
      let sent = 0;
      let message = 0;
      let bareMessage: HTMLElement | undefined;
      const make = (out: AgentSessionUpdate[]) => {
        if (sent % chunksPerMessage === 0 && sent > 0) {
          const toolCallId = `feed-tool-${message}`;
          const raw = {
            sessionUpdate: 'tool_call',
            toolCallId,
            title: `Edit file ${message}`,
            kind: 'edit',
            status: 'completed',
          };
          out.push({
            kind: 'tool_call',
            seq: seq++,
            raw,
            toolCall: { toolCallId, title: raw.title, kind: 'edit', status: 'completed' },
          });
          message++;
        }
        const text = `${sent % 7 === 0 ? '\n\n' : ''}word${sent} `;
        const messageId = `feed-msg-${message}`;
        const content = { type: 'text' as const, text };
        out.push({
          kind: 'agent_message_chunk',
          seq: seq++,
          messageId,
          text,
          content,
          raw: { sessionUpdate: 'agent_message_chunk', messageId, content },
        });
        sent++;
      };
      const renderBare = (batch: AgentSessionUpdate[]) => {
        let text = '';
        for (const u of batch) {
          if (u.kind === 'tool_call' || !bareMessage) {
            if (text && bareMessage) bareMessage.append(text);
            text = '';
            bareMessage = document.createElement('div');
            host.append(bareMessage);
          }
          if (u.text) text += u.text;
        }
        if (text) bareMessage!.append(text);
        host.scrollTop = host.scrollHeight;
      };
      const stop = recordMainThread();
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const due = Math.min(count, Math.floor(((performance.now() - t0) * rate) / 1000));
          const batch: AgentSessionUpdate[] = [];
          while (sent < due) make(batch);
          if (batch.length) {
            if (target === 'silo') el.appendUpdates(batch);
            else renderBare(batch);
          }
          if (sent >= count) {
            clearInterval(timer);
            resolve();
          }
        }, 16);
      });
      const ms = performance.now() - t0;
      if (target === 'silo') await el.updateComplete;
      await nextFrame();
      const { frames, longTasks } = stop();
      return {
        ms,
        achievedRate: (sent / ms) * 1000,
        frameP50: percentile(frames, 0.5),
        frameP95: percentile(frames, 0.95),
        longTasks: longTasks.length,
        longestTask: longTasks.length ? Math.max(...longTasks) : 0,
        /** Time spent in long tasks beyond their first 50 ms (the blocking time). */
        blockingMs: longTasks.reduce((t, d) => t + Math.max(0, d - 50), 0),
        dom: countElements(),
      };
    } finally {
      el.remove();
      host.remove();
    }
  },

  /**
   * One long answer streamed into `<silo-transcript>`: `bytes` of Markdown in `chunks` chunks,
   * `perFrame` chunks a frame. For each frame, the main-thread time from the first animation-frame
   * callback (registered before the element's) to the end of the element's render (its
   * `updateComplete`) and a forced layout. Reports the per-frame times; the runner
   * compares the first tenth with the last. Also times one whole-message Markdown render of the full
   * answer, the cost every frame used to pay at the end.
   */
  async streamAnswer(bytes: number, chunks: number, perFrame: number) {
    const text = markdownAnswer(bytes);
    const size = Math.ceil(text.length / chunks);
    const el = await mountTranscript();
    try {
      el.appendUpdates([
        {
          kind: 'user_message_chunk',
          seq: 0,
          text: 'Explain it at length',
          content: { type: 'text', text: 'Explain it at length' },
          raw: {
            sessionUpdate: 'user_message_chunk',
            content: { type: 'text', text: 'Explain it at length' },
          },
        },
      ]);
      await el.updateComplete;
      await nextFrame();
      const log = el.shadowRoot!.querySelector<HTMLElement>('.log')!;
      const frames: number[] = [];
      const renders: number[] = [];
      const layouts: number[] = [];
      let seq = 1;
      for (let i = 0; i < chunks; i += perFrame) {
        const batch: AgentSessionUpdate[] = [];
        for (let j = i; j < Math.min(chunks, i + perFrame); j++) {
          const piece = text.slice(j * size, (j + 1) * size);
          const content = { type: 'text' as const, text: piece };
          batch.push({
            kind: 'agent_message_chunk',
            seq: seq++,
            messageId: 'answer',
            text: piece,
            content,
            raw: { sessionUpdate: 'agent_message_chunk', messageId: 'answer', content },
          });
        }
        let t0 = 0;
        requestAnimationFrame(() => {
          t0 = performance.now();
        });
        el.appendUpdates(batch);
        // The element renders in an animation frame it asks for once the update is scheduled (after
        // t0's callback); its updateComplete resolves right after that render.
        await el.updateComplete;
        const t1 = performance.now();
        void log.scrollHeight;
        const t2 = performance.now();
        frames.push(t2 - t0);
        renders.push(t1 - t0);
        layouts.push(t2 - t1);
      }
      const rendered = el.shadowRoot!.querySelector('[part~="message-agent"]')?.textContent?.length ?? 0;
      const whole: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        renderMarkdown(`${text} `.slice(0, text.length + (i % 2)));
        whole.push(performance.now() - t0);
      }
      return {
        frames,
        renders,
        layouts,
        chars: text.length,
        rendered,
        wholeRenderMs: percentile(whole, 0.5),
      };
    } finally {
      el.remove();
    }
  },
};
