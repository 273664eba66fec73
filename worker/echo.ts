/**
 * Recognizes an agent's echo of the prompt. Some agents send the prompt they accepted back as
 * `user_message_chunk`s at the start of a live turn (ACP allows it). Silo journals the prompt itself
 * when it sends it, so an echo would show the user's message twice: the echo is recognized and not
 * journaled. Rule: from the prompt until the agent's first message, thought, tool call or plan,
 * `user_message_chunk`s whose content continues the prompt exactly (text may be split into any
 * chunks; other blocks must be equal) are the echo. State updates (commands, usage, title, modes) may
 * come in between. A user chunk that does not continue the prompt ends the window; it and everything
 * after it is journaled as usual.
 */

import type { Raw } from '../src/json.ts';
import type { AgentContentBlock } from '../src/types.ts';

/** Updates that carry session state, not conversation: they neither match nor end an echo. */
const STATE = new Set([
  'available_commands_update',
  'usage_update',
  'session_info_update',
  'current_mode_update',
  'config_option_update',
]);

export class PromptEcho {
  private blocks: readonly AgentContentBlock[] = [];
  private block = 0;
  private offset = 0;

  /** A prompt was sent: its echo may follow. */
  expect(blocks: readonly AgentContentBlock[]): void {
    this.blocks = blocks;
    this.block = 0;
    this.offset = 0;
  }

  /** The turn ended: nothing more is an echo. */
  end(): void {
    this.blocks = [];
  }

  /** Whether this raw update is (the next part of) the echo of the prompt; false ends the window. */
  swallow(update: Raw): boolean {
    if (this.block >= this.blocks.length || STATE.has(String(update.sessionUpdate))) return false;
    if (update.sessionUpdate !== 'user_message_chunk' || !this.continues(update.content)) {
      this.end();
      return false;
    }
    return true;
  }

  private continues(content: unknown): boolean {
    const expected = this.blocks[this.block]!;
    const got = content as { type?: unknown; text?: unknown } | undefined;
    if (expected.type === 'text' && typeof expected.text === 'string') {
      if (got?.type !== 'text' || typeof got.text !== 'string') return false;
      if (!expected.text.startsWith(got.text, this.offset)) return false;
      this.offset += got.text.length;
      if (this.offset >= expected.text.length) this.next();
      return true;
    }
    if (JSON.stringify(got) !== JSON.stringify(expected)) return false;
    this.next();
    return true;
  }

  private next(): void {
    this.block++;
    this.offset = 0;
  }
}
