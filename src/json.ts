/**
 * Reading JSON that came from an agent, unvalidated: the one declaration of the type and the two
 * guards the worker and the page use on it.
 */

/** A JSON object as an agent sent it (a message's params, an update, a response), unvalidated. */
export type Raw = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `v` when it is a string, else `undefined`. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
