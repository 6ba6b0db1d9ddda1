/** Why a link-list operation was refused; the Document Service maps these onto Strapi's 400s. */
export type LinkListErrorCode =
  | 'bad-id'
  | 'unknown-row'
  | 'unknown-member'
  | 'not-a-member'
  | 'already-linked'
  | 'to-one'
  | 'duplicate'
  | 'self-anchor'
  | 'links-exist';

export class LinkListError extends Error {
  constructor(
    readonly code: LinkListErrorCode,
    message: string,
    /** The join table, the list's row and the member concerned, when there is one. */
    readonly details: { table: string; row?: number; member?: number },
  ) {
    super(message);
    this.name = 'LinkListError';
  }
}

/** A row id as the tables hold it: a positive safe integer (refused before any SQL is sent). */
export function rowIdOf(value: unknown, table: string, what: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new LinkListError('bad-id', `${table}: ${what} must be a row id (a positive integer), got ${JSON.stringify(value) ?? String(value)}`, { table });
}
