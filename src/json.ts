/** The one declaration of the type for JSON that came from an agent, unvalidated. */

/** A JSON object as an agent sent it (a message's params, an update, a response), unvalidated. */
export type Raw = Record<string, unknown>;

/** {@link Raw}, read only: for code that only reads an agent's JSON. */
export type ReadonlyRaw = Readonly<Raw>;
