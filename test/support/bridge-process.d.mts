import type { ChildProcess } from 'node:child_process';
import type { BridgeAnnouncement } from '../../bridge/protocol.ts';

export declare const ROOT: string;
export declare function referenceAgentCommand(args?: string[], options?: { replay?: boolean }): string[];
export declare function childPids(pid: number): number[];
export declare function processAlive(pid: number): boolean;
export declare function procStatusKiB(pid: number, key: string): number;
export declare function procIo(pid: number): { read: number; written: number };

export interface BridgeProcessOptions {
  agentArgs?: string[];
  replay?: boolean;
  agentCommand?: string[];
  allowOrigin?: string[];
  bridgeArgs?: string[];
  sessionsDir?: string;
  /** Extra environment variables for the bridge, and so for its agents. */
  env?: Record<string, string>;
  port?: number;
  token?: string;
  /** The bridge's limit on open descriptors (`ulimit -n`, soft and hard). */
  fdLimit?: number;
  timeoutMs?: number;
}

/** A running bridge: what it announced on start, and handles on its process. */
export interface BridgeProcess extends BridgeAnnouncement {
  child: ChildProcess;
  sessionsDir: string;
  log: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  spawnedCount(): number;
  agentPids(): number[];
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export declare function startBridgeProcess(options?: BridgeProcessOptions): Promise<BridgeProcess>;
