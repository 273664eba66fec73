/**
 * The row key of an interactive request, in one place: the model keys a request's row with it, and
 * `<silo-transcript>` finds a live request's row by it.
 * @packageDocumentation
 */

/** The key of request `id`'s row: `p:<id>` for a permission, `e:<id>` for a question. */
export function requestRowKey(kind: 'permission' | 'elicitation', id: string): string {
  return `${kind === 'permission' ? 'p' : 'e'}:${id}`;
}
