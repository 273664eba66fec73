/**
 * The worker entry (`silo-acp/worker`): exposes Silo's worker API over Comlink. Everything that speaks
 * ACP or touches IndexedDB runs here.
 */
import { expose } from 'comlink';
import { registerErrorTransfer } from '../src/comlink-errors.ts';
import type { WorkerApi } from '../src/worker-api.ts';
import { createWorkerService } from './service.ts';

registerErrorTransfer();
expose(createWorkerService() satisfies WorkerApi);
