/**
 * Keeps `code` and `data` on errors that cross the worker boundary. Comlink's default "throw"
 * handler sends only name, message and stack; this one sends a serialized {@link SiloError} and
 * rebuilds it on the other side. Register it in both the page and the worker.
 */
import { type TransferHandler, transferHandlers } from 'comlink';
import { type SerializedSiloError, SiloError, serializeError } from './errors.ts';

let registered = false;

/** Registers the handler (idempotent). */
export function registerErrorTransfer(): void {
  if (registered) return;
  registered = true;
  const original = transferHandlers.get('throw') as TransferHandler<{ value: unknown }, SerializedSiloError>;
  transferHandlers.set('throw', {
    canHandle: original.canHandle,
    serialize: (thrown: { value: unknown }) => [serializeError(thrown.value), []],
    deserialize: (e: SerializedSiloError) => {
      throw new SiloError(e.code, e.message, e.data);
    },
  } satisfies TransferHandler<{ value: unknown }, SerializedSiloError>);
}
