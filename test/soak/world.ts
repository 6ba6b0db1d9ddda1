import type { OpRecord } from './ledger.js';

/**
 * What the clients wrote, as the checks need it. Two kinds of documents:
 * - shared articles, written concurrently by every client: each write sets a unique title and a category and may
 *   change the tag list by one positioned operation; categories connect them from the inverse side. The checks
 *   reason on time intervals (what was acknowledged before what was sent).
 * - private articles, written by one client only (one request at a time): the ledger keeps the set of states the
 *   article may be in (one state after acknowledged writes; an unacknowledged write doubles it: applied or not).
 */

/** A tag operation on a shared article's list; each tag enters a given list at most once in the whole run. */
export type SharedTagOp =
  | { kind: 'end'; tags: string[] }
  | { kind: 'start'; tags: [string] }
  | { kind: 'before' | 'after'; tags: [string]; anchor: string }
  | { kind: 'disconnect'; tags: [string] };

/** One write of a shared article (article side) or its creation (`op` is filled in once answered). */
export interface SharedWrite {
  op: OpRecord;
  title: string;
  category: string | null;
  /** PUT without ?status=draft: the draft is written and published. */
  publish: boolean;
  tagOp: SharedTagOp | null;
}

/** A category's PUT connecting this article from the inverse side: both versions link the category. */
export interface CategoryConnect {
  op: OpRecord;
  category: string;
}

export interface SharedItem {
  tag: string;
  insert: SharedWrite;
  disconnect?: SharedWrite;
  /** Positioned writes in flight that name this item as anchor: it is not disconnected meanwhile. */
  anchoring: number;
}

export interface SharedArticle {
  index: number;
  documentId: string;
  ref: string;
  writes: SharedWrite[];
  connects: CategoryConnect[];
  items: Map<string, SharedItem>;
}

export interface Version {
  title: string;
  tags: string[];
  category: string | null;
  /**
   * documentIds of related articles, in order, as written (the display leaves out deleted ones). On a published
   * version: the draft's list when it was published, which Strapi links as far as each target had a published version.
   */
  related: string[];
  /**
   * Published versions only: when the publish that made it was sent (the first attempt's, for a retried create), and
   * every article the draft related from then on. In Strapi's layout a published row links published rows, and the
   * self relation's rules change its list without a write of its own (docs/strapi-5-writes.md 3, 4): publishing Y
   * mirrors the draft links X/D -> Y/D to X/P -> Y/P, unpublishing Y removes X/P -> Y/P. So its list holds only
   * articles the draft related since `since`.
   */
  since?: number;
  mayRelate?: string[];
}

/** The effect of a request on whether an article has a published version (self-relation rules depend on it). */
export interface VersionEvent {
  op: OpRecord;
  effect: 'published' | 'unpublished' | 'deleted';
}

export interface PrivateState {
  exists: boolean;
  draft: Version | null;
  published: Version | null;
}

export interface PrivateArticle {
  owner: number;
  ref: string;
  /** Known once a create was acknowledged (or found by ref); otherwise the checks find it by ref. */
  documentId: string | null;
  states: PrivateState[];
  /** Every request about it (create attempts, updates, deletes, its category's writes), for the details. */
  history: OpRecord[];
  /** No more writes from its owner: its existence is uncertain (unacknowledged create or delete). */
  settled: 'open' | 'limbo';
  /** A delete was sent: not offered as a relation target any more. */
  deleting: boolean;
  /** Too many possible states to follow (many unacknowledged writes): only duplicates are checked. */
  untracked: boolean;
  /** Its requests that publish, unpublish or delete it, for the published lists of the articles relating it. */
  versionEvents: VersionEvent[];
}

export interface TagRecord {
  name: string;
  documentId: string | null;
  create: OpRecord;
  /** Scratch tags belong to one client, which links them to its own articles only and deletes them. */
  owner: number | null;
  delete?: OpRecord;
}

export interface ClientWorld {
  index: number;
  articles: PrivateArticle[];
  categories: string[];
  scratchTags: TagRecord[];
}

export class World {
  readonly tags: TagRecord[] = [];
  /** Acknowledged shared tags (never deleted): any article may link them. */
  readonly pool: string[] = [];
  readonly sharedCategories: string[] = [];
  readonly shared: SharedArticle[] = [];
  readonly clients: ClientWorld[] = [];
  readonly byDocumentId = new Map<string, PrivateArticle>();
  /** Every category the soak made, with the client owning it (null: shared). */
  readonly categoryOwner = new Map<string, number | null>();
}

const MAX_STATES = 32;
const key = (s: PrivateState) => JSON.stringify(s);
export const copyVersion = (v: Version): Version => ({
  title: v.title,
  tags: [...v.tags],
  category: v.category,
  related: [...v.related],
  ...(v.since === undefined ? {} : { since: v.since, mayRelate: [...(v.mayRelate ?? [])] }),
});

/** The published version a publish sent at `since` makes of `draft`. */
export const publishedCopy = (draft: Version, since: number): Version => ({ ...copyVersion(draft), since, mayRelate: [...draft.related] });

/** A published version after a draft-only write set the draft's related list to `related`. */
export function draftRelated(published: Version | null, related: string[] | undefined): Version | null {
  if (!published || !related) return published;
  const mayRelate = [...(published.mayRelate ?? [])];
  for (const id of related) if (!mayRelate.includes(id)) mayRelate.push(id);
  return { ...copyVersion(published), mayRelate };
}

/** Applies a write's effect to the article's possible states: for sure when acknowledged, maybe when not. */
export function applyToStates(article: PrivateArticle, op: OpRecord, effect: (s: PrivateState) => PrivateState): void {
  article.history.push(op);
  if (op.outcome === 'rejected') return;
  const changed = article.states.map((s) => (s.exists ? effect(s) : s));
  const next = op.outcome === 'ack' ? changed : [...article.states, ...changed];
  const unique = new Map(next.map((s) => [key(s), s]));
  article.states = [...unique.values()];
  if (article.states.length > MAX_STATES) {
    article.untracked = true;
    article.states = article.states.slice(0, MAX_STATES);
  }
}

/** A private list's tag operation, as Strapi places items (a connected item already in the list moves). */
export type PrivateTagOp =
  | { kind: 'set'; tags: string[] }
  | { kind: 'end' | 'start'; tag: string }
  | { kind: 'before' | 'after'; tag: string; anchor: string }
  | { kind: 'disconnect'; tag: string };

export function applyTagOp(tags: string[], op: PrivateTagOp): string[] {
  if (op.kind === 'set') return [...op.tags];
  const rest = tags.filter((t) => t !== op.tag);
  switch (op.kind) {
    case 'disconnect':
      return rest;
    case 'end':
      return [...rest, op.tag];
    case 'start':
      return [op.tag, ...rest];
    default: {
      const i = rest.indexOf(op.anchor);
      if (i < 0) return tags; // the request is a 400: the soak only names anchors present in every possible state
      rest.splice(op.kind === 'before' ? i : i + 1, 0, op.tag);
      return rest;
    }
  }
}
