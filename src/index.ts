/**
 * `silo-acp`: the page API. Start with {@link createAgentsService}.
 * @packageDocumentation
 */
export type * from './api.ts';
export { SiloError, type SiloErrorCode } from './errors.ts';
export { createAgentsService } from './service.ts';
export type * from './types.ts';
