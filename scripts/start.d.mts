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
  noBridge?: boolean;
}

/** The bridge's start line ({@link ProtocolAnnouncement}) and what `startDemo` adds to it. */
export interface BridgeAnnouncement extends ProtocolAnnouncement {
  cwd: string;
  agent: string;
  reference: boolean;
}

export interface Demo {
  url: string;
  origin: string;
  /** Undefined with `noBridge`. */
  bridge: BridgeAnnouncement | undefined;
  stopBridge(): Promise<void>;
  stop(): Promise<void>;
}

export declare function startDemo(options?: StartDemoOptions): Promise<Demo>;
export declare function ensureBundle(log?: (line: string) => void): void;
export declare function referenceAgent(args?: string[]): string[];
export declare function splitCommand(text: string): string[];
