/** Types for scripts/start.mjs (for TypeScript callers such as test/e2e/demo.test.ts). */
import type { BridgeAnnouncement as ProtocolAnnouncement } from '../bridge/protocol.ts';

export interface StartDemoOptions {
  port?: number;
  bridgePort?: number | string;
  agentCommand?: string[];
  agentArgs?: string[];
  sessionsDir?: string;
  cwd?: string;
  log?: (line: string) => void;
  onBridgeExit?: (code: number | null) => void;
  /** Each line the bridge writes to stderr (`agent spawned pid=…`, refusals…), instead of the terminal. */
  bridgeLog?: (line: string) => void;
  noBridge?: boolean;
  /** Vite's dev server on the sources instead of the built demo (developers only). */
  dev?: boolean;
}

/** The bridge's start line ({@link ProtocolAnnouncement}) and what `startDemo` adds to it. */
export interface BridgeAnnouncement extends ProtocolAnnouncement {
  cwd: string;
  agent: string;
  reference: boolean;
}

export interface Demo {
  /** The URL printed: its one-time `#launch=` key lets the one tab that opens it in. */
  url: string;
  origin: string;
  /** Undefined with `noBridge`. */
  bridge: BridgeAnnouncement | undefined;
  /** A fresh one-time launch URL (another tab, another browser), as Enter in the terminal prints. */
  launchUrl(): string;
  stopBridge(): Promise<void>;
  stop(): Promise<void>;
}

export declare function startDemo(options?: StartDemoOptions): Promise<Demo>;
export declare function ensureBundle(log?: (line: string) => void): void;
export declare function ensureDemoBuild(log?: (line: string) => void): void;
export declare function referenceAgent(args?: string[]): string[];
export declare function splitCommand(text: string): string[];
