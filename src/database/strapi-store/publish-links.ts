import type { Component, ContentType, Model } from '../../model/types.js';
import type { Database } from '../types.js';
import type { JoinTable } from '../strapi-layout/names.js';
import { LinkListError, rowIdOf } from './link-errors.js';
import { incomingJoins, owningJoins } from './relations-of.js';
import { plannedPerRun } from '../statement-names.js';
import type { SqlTerm } from './version-copy.js';

/**
 * What publishing (or discarding a draft) does to links that are not the copied row's own list, as Strapi's
 * `self-referential-relations.js` and `unidirectional-relations.js` do it (docs/strapi-5-writes.md §4). Cairn keeps
 * the replaced version's row (same id, rewritten in place), so Strapi's "re-point the old row's links to the new one"
 * is already true; what is left are the links Strapi adds or re-orders. One set-based statement per join table.
 *
 * `from` is the version copied (the draft when publishing), `to` the version written (the published row); `status`
 * is `to`'s ('published' or 'draft').
 */
export interface VersionLinks {
  contentType: ContentType;
  from: number;
  to: number;
  status: 'published' | 'draft';
}

/** SQL finding `c`, the version of row `<alias>.<column>`'s document (same locale) in `status`. */
function counterpartJoin(db: Database, table: string, column: string, status: 'published' | 'draft'): string {
  const q = (name: string) => db.quote(name);
  return (
    ` JOIN ${q(table)} s ON s.id = l.${q(column)}` +
    ` JOIN ${q(table)} c ON c.document_id = s.document_id` +
    ` AND (c.locale = s.locale OR (c.locale IS NULL AND s.locale IS NULL))` +
    ` AND c.published_at IS ${status === 'published' ? 'NOT ' : ''}NULL`
  );
}

/** The join tables of a content type's relations to itself, owner side (a mappedBy side shares its owner's table). */
function selfJoins(model: Model, contentType: ContentType): JoinTable[] {
  return owningJoins(model, contentType)
    .filter((j) => j.attribute.target === contentType.uid)
    .map((j) => j.table);
}

/** Whether row `from` links to any row through a self join (own), and whether another row links to it (inbound). */
export interface SelfLinkFacts {
  own: boolean;
  inbound: boolean;
}

/**
 * The questions mirrorSelfLinks asks before it writes (which of its statements can change anything), as select
 * terms about row `from`, to ask in a statement of the copy that runs before it (copyColumnsAsking): `from`'s
 * self-join links are the same then, as nothing between writes them. None when the type has no relation to itself.
 */
export function selfLinkQuestions(db: Database, model: Model, contentType: ContentType, from: number): SqlTerm[] {
  return selfJoins(model, contentType).flatMap((join, i) => joinQuestions(db, join, i, from));
}

/** selfLinkQuestions' answers, per self join. */
export function selfLinkAnswers(model: Model, contentType: ContentType, answers: Record<string, unknown>): SelfLinkFacts[] {
  return selfJoins(model, contentType).map((_, i) => factsOf(answers, i));
}

/** The two questions about row `from` in one self join (the `i`th), named by `i`. */
function joinQuestions(db: Database, join: JoinTable, i: number, from: number): SqlTerm[] {
  const q = (name: string) => db.quote(name);
  const [t, src, tgt] = [q(join.name), q(join.ownerColumn), q(join.targetColumn)];
  const row = rowIdOf(from, join.name, 'the row copied from');
  return [
    { sql: `(SELECT 1 FROM ${t} WHERE ${src} = ? LIMIT 1) AS self_own_${i}`, params: [row] },
    { sql: `(SELECT 1 FROM ${t} WHERE ${tgt} = ? AND ${src} <> ? LIMIT 1) AS self_inbound_${i}`, params: [row, row] },
  ];
}

const factsOf = (answers: Record<string, unknown>, i: number): SelfLinkFacts => ({ own: answers[`self_own_${i}`] != null, inbound: answers[`self_inbound_${i}`] != null });

/**
 * Strapi's self-relation rule (`self-referential-relations.js`), for every relation of the type to itself:
 * - the links of `to` (just copied from `from`'s, members mapped) take `from`'s links' order values, both sides
 *   (Strapi re-applies the source version's join rows to the pairs that exist);
 * - every link Y → `from` of another row Y whose document has a version in `status` is mirrored to Y' → `to` (Y'
 *   that version): inserted with Y → `from`'s order values if missing, else its order values set to them. This is
 *   how publishing X gives Y/P → X/P to every Y whose draft links X's draft (2e), even when Y was not published
 *   again, and how re-publishing X re-orders Y/P's list (2g: a tie is possible, as in Strapi).
 * Links Y' → `to` whose Y no longer links `from` stay (Strapi re-points them and does not remove them).
 */
export async function mirrorSelfLinks(db: Database, model: Model, links: VersionLinks, known?: SelfLinkFacts[]): Promise<void> {
  const q = (name: string) => db.quote(name);
  for (const [i, join] of selfJoins(model, links.contentType).entries()) {
    const t = q(join.name);
    const from = rowIdOf(links.from, join.name, 'the row copied from');
    const to = rowIdOf(links.to, join.name, 'the row copied to');
    if (from === to) throw new LinkListError('self-anchor', `${join.name}: a row's links cannot be mirrored onto itself (row ${from})`, { table: join.name, row: from });
    const [src, tgt] = [q(join.ownerColumn), q(join.targetColumn)];
    const orders = [join.orderColumn, join.inverseOrderColumn].filter((c): c is string => c !== undefined).map(q);
    // Which of the three statements below can change anything, read first where there are three (unless the copy
    // asked already: `known`): a document that links to no other row through this table, and to which none links
    // (the common case), skips them all.
    let facts = known?.[i] ?? { own: true, inbound: true };
    if (!known && orders.length) {
      const questions = joinQuestions(db, join, i, from);
      const [answers] = await db.query(`SELECT ${questions.map((term) => term.sql).join(', ')}`, questions.flatMap((term) => term.params));
      facts = factsOf(answers!, i);
    }
    const [ownLinks, inboundLinks] = [facts.own, facts.inbound];
    // `to`'s own links: the order values of `from`'s link to the member they were mapped from.
    if (orders.length && ownLinks) {
      const mapped = (column: string) =>
        `(SELECT MIN(l.${column}) FROM ${t} l${counterpartJoin(db, join.targetTable, join.targetColumn, links.status)} WHERE l.${src} = ${from} AND c.id = ${t}.${tgt})`;
      await db.execute(
        plannedPerRun(`UPDATE ${t} SET ${orders.map((o) => `${o} = COALESCE(${mapped(o)}, ${o})`).join(', ')} WHERE ${t}.${src} = ?`),
        [to],
      );
    }
    // Links to `from` from other rows, mirrored onto their `status` version's links to `to`.
    if (!inboundLinks) continue;
    const mirrored = `FROM ${t} l${counterpartJoin(db, join.ownerTable, join.ownerColumn, links.status)} WHERE l.${tgt} = ${from} AND l.${src} <> ${from}`;
    if (orders.length) {
      const value = (column: string) => `(SELECT MIN(l.${column}) ${mirrored} AND c.id = ${t}.${src})`;
      await db.execute(
        plannedPerRun(`UPDATE ${t} SET ${orders.map((o) => `${o} = COALESCE(${value(o)}, ${o})`).join(', ')} WHERE ${t}.${tgt} = ? AND ${t}.${src} <> ?`),
        [to, to],
      );
    }
    const columns = [src, tgt, ...orders];
    await db.execute(
      plannedPerRun(
        `INSERT INTO ${t} (${columns.join(', ')}) SELECT c.id, ${to}${orders.map((o) => `, MIN(l.${o})`).join('')} ${mirrored}` +
          ` AND NOT EXISTS (SELECT 1 FROM ${t} k WHERE k.${src} = c.id AND k.${tgt} = ${to}) GROUP BY c.id`,
      ),
    );
  }
}

/**
 * Strapi's unidirectional rule (`unidirectional-relations.js`) for sources WITHOUT Draft & Publish: a source row
 * linking `from` but not `to` (the version `to` replaces: Cairn keeps its row) gets a copy of that link to `to`, its
 * order values as they are (a tie with the link to `from`, as Strapi's copy). Links to `to` the source holds
 * already stay, wherever the source's link to `from` is (or whether it has one). Sources: content types without
 * Draft & Publish and components whose entry has none (Strapi's component filter: a component row inside a D&P
 * entry is one version's and is left alone). Relations with a mappedBy side are Strapi's "bidirectional" ones:
 * not this rule's (the copied row's own relations re-create them: version-copy.ts copyInverseLinks).
 */
export async function copyNonDraftSourceLinks(db: Database, model: Model, links: VersionLinks): Promise<void> {
  const q = (name: string) => db.quote(name);
  for (const { owner, attribute, table: join } of incomingJoins(model, links.contentType.uid)) {
    if (attribute.inversedBy || attribute.mappedBy) continue;
    if (owner.modelType === 'contentType' && owner.draftAndPublish) continue;
    const t = q(join.name);
    const from = rowIdOf(links.from, join.name, 'the row copied from');
    const to = rowIdOf(links.to, join.name, 'the row copied to');
    const [src, tgt] = [q(join.ownerColumn), q(join.targetColumn)];
    const orders = [join.orderColumn, join.inverseOrderColumn].filter((c): c is string => c !== undefined).map(q);
    const columns = [src, tgt, ...orders];
    const inDraftEntry = owner.modelType === 'component' ? componentInDraftEntry(db, model, owner, `l.${src}`) : '';
    await db.execute(
      plannedPerRun(
        `INSERT INTO ${t} (${columns.join(', ')}) SELECT l.${src}, ${to}${orders.map((o) => `, l.${o}`).join('')} FROM ${t} l` +
          ` WHERE l.${tgt} = ${from} AND NOT EXISTS (SELECT 1 FROM ${t} k WHERE k.${src} = l.${src} AND k.${tgt} = ${to})${inDraftEntry}`,
      ),
    );
  }
}

/**
 * ` AND NOT ...`: component row `row` belongs to an entry of a content type with Draft & Publish, directly or through
 * the components it is nested in (Strapi's `shouldPropagateComponentRelationToNewVersion` walks up to the entry): such
 * a row is one version's, and its links are that version's.
 */
function componentInDraftEntry(db: Database, model: Model, component: Component, row: string): string {
  const condition = inDraftEntry(db, model, component, row, 0);
  return condition ? ` AND NOT (${condition})` : '';
}

/** SQL true when component row `row` hangs (at any depth) under a Draft & Publish entry; '' when it never can. */
function inDraftEntry(db: Database, model: Model, component: Component, row: string, depth: number): string {
  const q = (name: string) => db.quote(name);
  const uid = component.uid.replace(/'/g, "''");
  const p = `p${depth}`;
  const parents: string[] = [];
  for (const owner of [...model.contentTypes.values(), ...model.components.values()]) {
    if (![...owner.attributes.values()].some((a) => (a.kind === 'component' && a.component === component.uid) || (a.kind === 'dynamiczone' && a.components.includes(component.uid)))) continue;
    const link = `SELECT 1 FROM ${q(owner.componentsTable)} ${p} WHERE ${p}.cmp_id = ${row} AND ${p}.component_type = '${uid}'`;
    if (owner.modelType === 'contentType') {
      if (owner.draftAndPublish) parents.push(`EXISTS (${link})`);
      continue;
    }
    // The model has no cycle of components (checked at start): the walk ends.
    const above = inDraftEntry(db, model, owner, `${p}.entity_id`, depth + 1);
    if (above) parents.push(`EXISTS (${link} AND (${above}))`);
  }
  return parents.join(' OR ');
}
