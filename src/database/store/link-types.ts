import type { Status } from '../../query/types.js';

/**
 * A link's target version: '' links the document (the reader's status picks the version), 'draft' or 'published'
 * one version whatever the reader asks.
 */
export type StoredStatus = Status | '';

/** What one link of a relation names: a target document, in a locale, at a version. */
export interface LinkKey {
  documentId: string;
  locale: string;
  status: StoredStatus;
}

/** A list entry Strapi would load to order a connect (an anchor, the first or the last), with its neighbours' keys. */
export interface WindowMember {
  key: string;
  order: number;
  prev: number | null;
  next: number | null;
}
