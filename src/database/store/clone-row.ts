import type { ContentType, Model } from '../../model/types.js';
import type { Database } from '../types.js';
import { incomingJoins, owningJoins } from '../strapi-store/relations-of.js';
import { copyLinksMapped } from '../strapi-store/copy-links.js';
import { checkedRowId, copyColumns, copyComponents, copyOwnLinks, storedColumns } from '../strapi-store/version-copy.js';
import { copyFileRows } from './media-links.js';
import { copyOwnMorphLinks } from './morph-links.js';
import { RowStore } from './rows.js';

/**
 * Strapi's `clone`: a new row of `contentType` (another document's version) made from row `fromId`, in one
 * transaction, every stored value copied by the database and then `overrides` written: its components copied afresh
 * (with their links and morph links), its media rows, its own links to the same rows (order values kept), its morph
 * links (owner side), and the links other types' rows hold to it where a row may link several (a manyToMany's or a
 * oneToMany's owner, and a oneToOne owner, whose join row Strapi copies). A manyToOne owner links one row: it keeps
 * linking the source (Strapi's create would move it to the clone). An inverse oneToOne whose owner keeps its link in a
 * column of its own row (`useJoinTable: false` in Strapi) is not copied: Strapi's clone does not write that column
 * (it is the owner's) and copies no join row for it. `fresh` names relations (either side, morphToMany too) whose links
 * are not copied: the clone's are written afresh after (a clone's `connect`/`disconnect`/`set`, which replaces the
 * source's links in Strapi's). Returns the new row's id.
 */
export async function cloneRow(
  db: Database,
  model: Model,
  contentType: ContentType,
  fromId: number,
  overrides: Record<string, unknown>,
  fresh: ReadonlySet<string> = new Set(),
): Promise<number> {
  checkedRowId(fromId, contentType.table, 'the row cloned');
  return db.transaction(async (trx) => {
    const store = new RowStore(trx, model);
    const columns = storedColumns(contentType).filter((name) => !(name in overrides));
    const rowId = await copyColumns(trx, contentType, fromId, undefined, columns);
    await store.update(contentType, [rowId], overrides);
    await copyComponents(trx, model, contentType, fromId, rowId, 'same');
    if ([...contentType.attributes.values()].some((a) => a.kind === 'media')) await copyFileRows(trx, contentType.uid, fromId, rowId);
    const owning = owningJoins(model, contentType).map((j) => j.attribute.name);
    await copyOwnLinks(trx, model, contentType, fromId, rowId, 'same', true, fresh.size ? owning.filter((name) => !fresh.has(name)) : undefined);
    for (const { owner, attribute, table } of incomingJoins(model, contentType.uid)) {
      if (owner.modelType !== 'contentType' || !attribute.inversedBy || attribute.relation === 'manyToOne') continue;
      if (owner.uid === contentType.uid || fresh.has(attribute.inversedBy)) continue;
      if (attribute.raw.useJoinTable === false) continue;
      await copyLinksMapped(trx, { table, side: 'inverse' }, { from: fromId, to: rowId, members: 'same', otherOrder: 'append' });
    }
    await copyOwnMorphLinks(trx, model, contentType, fromId, rowId, 'same', fresh);
    return rowId;
  });
}
