/** The one declaration of the type for JSON that came from an agent, unvalidated. */

/** A JSON object as an agent sent it (a message's params, an update, a response), unvalidated. */
export type Raw = Record<string, unknown>;

/** {@link Raw}, read only: for code that only reads an agent's JSON. */
export type ReadonlyRaw = Readonly<Raw>;

/** True for a JSON object: not `null`, not an array. The one check every reader of agent JSON uses. */
export function isObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value when it is a string, else `undefined`. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
