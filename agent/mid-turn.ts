/**
 * What the reference agent takes while a turn runs, as the agents that offer it do:
 * - `--steering` (claude-agent-acp 0.101, codex-acp 2.6): `initialize` answers
 *   `_meta.steering.supported`; `_session/steering` `{sessionId, prompt, _meta.steering.idleBehavior}`
 *   hands the message to the running turn (`{outcome: "injected"}`), or, with no turn running and
 *   `idleBehavior: "promptRequired"`, keeps nothing (`{outcome: "promptRequired", reason:
 *   "noRunningTurn"}`); scenario `steer-wait` waits for such a message;
 * - `--prompt-queueing` (claude-agent-acp 0.23): `agentCapabilities._meta.claudeCode.promptQueueing`;
 *   a `session/prompt` during a turn waits for it to end and then runs.
 */
import { type ContentBlock, RequestError } from '@agentclientprotocol/sdk';

/** Messages steered into one turn, taken in order by the scenario. */
export class SteerInbox {
  private readonly messages: ContentBlock[][] = [];
  private wake: (() => void) | undefined;

  push(prompt: ContentBlock[]): void {
    this.messages.push(prompt);
    this.wake?.();
  }

  /** The next steered message, or undefined once `signal` aborts or `ms` pass. */
  next(signal: AbortSignal, ms: number): Promise<ContentBlock[] | undefined> {
    const ready = this.messages.shift();
    if (ready || signal.aborted) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve(this.messages.shift());
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}

/** The params of `_session/steering`, checked as claude-agent-acp and codex-acp check them. */
export function parseSteer(params: unknown): {
  sessionId: string;
  prompt: ContentBlock[];
  promptRequired: boolean;
} {
  const p = params as {
    sessionId?: unknown;
    prompt?: unknown;
    _meta?: { steering?: { idleBehavior?: unknown } };
  };
  if (typeof p?.sessionId !== 'string' || !Array.isArray(p.prompt) || p.prompt.length === 0)
    throw RequestError.invalidParams(params, 'steer params require a sessionId and a non-empty prompt array');
  const idle = p._meta?.steering?.idleBehavior;
  if (idle !== undefined && idle !== 'promptRequired')
    throw RequestError.invalidParams(params, 'unsupported steering idleBehavior');
  return {
    sessionId: p.sessionId,
    prompt: p.prompt as ContentBlock[],
    promptRequired: idle === 'promptRequired',
  };
}
