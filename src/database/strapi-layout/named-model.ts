import type { Attribute, Component, ContentType, Model } from '../../model/types.js';
import { componentJoinTableName } from './identifiers.js';
import { strapiColumnName, strapiTableName } from './names.js';

/**
 * The model with the names Strapi 5 gives its tables and columns: identifiers over 55 characters shortened by
 * Strapi's rule, and columns in lodash's snake_case (`line2` → `line_2`), where the model as built keeps
 * `collectionName` and `snake_case` as they are. The SQL compiler and the stores read `table`, `componentsTable` and
 * `column`, so a model renamed once serves a database that Strapi made; `collectionName` keeps the name as written
 * (Strapi derives every other name from it). Names that need no change are the same strings: most models come out
 * equal.
 */
export function withStrapiNames(model: Model): Model {
  const contentTypes = new Map([...model.contentTypes].map(([uid, schema]) => [uid, renamed(schema)]));
  const components = new Map([...model.components].map(([uid, schema]) => [uid, renamed(schema)]));
  const byUid = (schema: ContentType) => contentTypes.get(schema.uid)!;
  return Object.freeze({
    contentTypes,
    components,
    byPluralName: new Map([...model.byPluralName].map(([name, schema]) => [name, byUid(schema)])),
    bySingularName: new Map([...model.bySingularName].map(([name, schema]) => [name, byUid(schema)])),
  });
}

function renamed<T extends ContentType | Component>(schema: T): T {
  const collectionName = schema.collectionName ?? schema.table;
  const attributes = new Map<string, Attribute>(
    [...schema.attributes].map(([name, attribute]) => [name, attribute.kind === 'scalar' ? Object.freeze({ ...attribute, column: strapiColumnName(name) }) : attribute]),
  );
  const copy: T = { ...schema, collectionName, table: strapiTableName(collectionName), componentsTable: componentJoinTableName(collectionName), attributes };
  return Object.freeze(copy);
}
