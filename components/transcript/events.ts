/**
 * The events `<silo-transcript>` fires: their details, and their entries in the global event map
 * (declared here so the element stays short; `transcript/silo-transcript.ts` re-exports the types).
 * @packageDocumentation
 */
import type { SiloError } from '../../src/index.ts';
import type { TurnAction } from './rows/row-context.ts';

/** Detail of `silo-load-error`. */
export interface SiloLoadErrorDetail {
  readonly error: SiloError;
}

/** Detail of `silo-branch`. */
export interface SiloBranchDetail {
  readonly turn: number;
}

/** Detail of `silo-turn-action`: the user chose Retry or Continue on the last turn's end. */
export interface SiloTurnActionDetail {
  readonly action: TurnAction;
}

/** Detail of `silo-permission-answered`. */
export interface SiloPermissionAnsweredDetail {
  readonly id: string;
  readonly optionId: string;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'silo-load-error': CustomEvent<SiloLoadErrorDetail>;
    'silo-permission-answered': CustomEvent<SiloPermissionAnsweredDetail>;
    'silo-branch': CustomEvent<SiloBranchDetail>;
    'silo-turn-action': CustomEvent<SiloTurnActionDetail>;
  }
}
