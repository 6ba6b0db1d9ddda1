import type { RelationJoin } from '../strapi-layout/names.js';
import type { Database } from '../types.js';

/**
 * One side of a Strapi join table as a list: the links of one row (`key` = the row), whose members are rows of
 * `memberTable`, ordered by `order`. The owner side of `articles_categories_lnk` keys on `article_id`, lists
 * `category_id` by `category_ord`; its inverse side keys on `category_id`, lists `article_id` by `article_ord`.
 */
export interface ListSide {
  table: string;
  /** The column holding the list's row, and the table that row lives in. */
  key: string;
  keyTable: string;
  /** The column holding a member, and the table members live in. */
  member: string;
  memberTable: string;
  /** Orders this list; undefined on a to-one side (Strapi orders only the sides that hold many). */
  order?: string;
  /** Orders each member's own list on the other side; a new link goes last there (Strapi's MAX + 1). */
  otherOrder?: string;
}

export function listSide({ table, side }: RelationJoin): ListSide {
  return side === 'owner'
    ? {
        table: table.name,
        key: table.ownerColumn,
        keyTable: table.ownerTable,
        member: table.targetColumn,
        memberTable: table.targetTable,
        order: table.orderColumn,
        otherOrder: table.inverseOrderColumn,
      }
    : {
        table: table.name,
        key: table.targetColumn,
        keyTable: table.targetTable,
        member: table.ownerColumn,
        memberTable: table.ownerTable,
        order: table.inverseOrderColumn,
        otherOrder: table.orderColumn,
      };
}

/** A side's table and columns quoted for `db`, as the statements over one list use them. */
export interface QuotedSide {
  t: string;
  key: string;
  member: string;
  order: string | undefined;
  otherOrder: string | undefined;
}

export function quotedSide(db: Pick<Database, 'quote'>, side: ListSide): QuotedSide {
  const q = (name: string) => db.quote(name);
  return {
    t: q(side.table),
    key: q(side.key),
    member: q(side.member),
    order: side.order === undefined ? undefined : q(side.order),
    otherOrder: side.otherOrder === undefined ? undefined : q(side.otherOrder),
  };
}
