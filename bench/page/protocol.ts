/**
 * Messages between the benchmark page and its bare workers (the raw-limit baseline and the journal
 * generator). Harness code only: nothing here is part of Silo.
 */
import type { AgentBridgeOptions } from '../../src/types.ts';

/** Asks the raw worker to run one prompt turn against the bridge. */
export interface RawRequest {
  readonly bridge: AgentBridgeOptions;
  readonly prompt: string;
  /** `latency`: post every chunk's `silo/sentAt` to the page as it arrives (one postMessage each). */
  readonly mode: 'count' | 'latency';
}

/** What the raw worker posts: a chunk's send stamp (latency mode), then the result. */
export type RawMessage =
  | { readonly type: 'sent'; readonly sentAt: number }
  | { readonly type: 'done'; readonly ms: number; readonly chunks: number }
  | { readonly type: 'error'; readonly message: string };

/** Asks the journal worker to write a generated transcript. */
export interface JournalRequest {
  readonly databaseName: string;
  readonly sessionId: string;
  readonly count: number;
  readonly marker: string;
  /** Pseudo-random words instead of repeated ones (for the bytes on disk: text that does not compress). */
  readonly noisy?: boolean;
}

export type JournalMessage =
  | {
      readonly type: 'done';
      readonly updates: number;
      readonly ms: number;
      readonly approxBytes: number;
      /** The updates' `session/update` lines as an agent sends them (UTF-8 bytes, newlines included). */
      readonly wireBytes: number;
    }
  | { readonly type: 'error'; readonly message: string };
