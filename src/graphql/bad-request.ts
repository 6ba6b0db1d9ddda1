/**
 * The body of a request refused before any operation runs (no query, a refused batch...): Apollo's `BAD_REQUEST`.
 * A module of its own: the endpoint's registration uses it without loading graphql-js, which loads with the first
 * request.
 */
export function badRequestBody(message: string): { errors: Array<{ message: string; extensions: { code: 'BAD_REQUEST' } }> } {
  return { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] };
}
