import type { ScalarType } from '../../model/types.js';

/**
 * A schema as Strapi's database layer sees it: what decides its tables, nothing else. The app's content types and
 * components come from Cairn's model (strapi-schemas.ts), Strapi's own (files, users, API tokens...) from
 * builtin-schemas.ts; plan.ts turns both into tables by the same rules.
 */
export interface StrapiSchema {
  uid: string;
  /**
   * contentType: `document_id`, timestamps, `published_at`, `created_by_id`/`updated_by_id`, `locale` and the
   * documents index besides its attributes. component, internal (Strapi's own tables outside the content types):
   * `id` and the attributes only.
   */
  modelType: 'contentType' | 'component' | 'internal';
  collectionName: string;
  /** The name in link columns (`<singular>_id`): a content type's singularName, a component's file name. */
  singularName: string;
  attributes: readonly StrapiAttribute[];
  /** Indexes the schema declares itself (Strapi's upload plugin does), named as written. */
  indexes?: readonly StrapiIndex[];
}

export type StrapiRelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany';

export type StrapiAttribute =
  | { kind: 'scalar'; name: string; type: ScalarType }
  | { kind: 'relation'; name: string; relation: StrapiRelationKind; target: string; inversedBy?: string; mappedBy?: string }
  /** Rows of other schemas attached by (id, type, field): Strapi's `files.related`, the media fields' other side. */
  | { kind: 'morphToMany'; name: string }
  /** A morphToOne: the owner row's `target_id` and `target_type` columns (one pair, whatever the attribute's name). */
  | { kind: 'morphToOne'; name: string }
  /** A media field: its rows live in `files_related_mph`, nothing in the owner's tables. */
  | { kind: 'media'; name: string }
  /** A component or dynamic-zone field: its rows live in the owner's `_cmps` table. */
  | { kind: 'component'; name: string };

export interface StrapiIndex {
  name: string;
  columns: readonly string[];
  unique?: boolean;
}
