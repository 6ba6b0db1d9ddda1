import { ModelError } from '../errors/index.js';
import type { DraftComponent, DraftContentType } from './normalize-schema.js';

/**
 * singularName and pluralName become routes (/api/:pluralName, /api/:singularName) and GraphQL names: no two
 * content-types may share one. Plugin types count too, as in Strapi's content-type builder (an api type named
 * `users` would shadow the users-permissions routes).
 */
export function checkApiNames(contentTypes: ReadonlyMap<string, DraftContentType>): void {
  const seen = new Map<string, string>();
  for (const ct of contentTypes.values()) {
    for (const name of new Set([ct.info.singularName, ct.info.pluralName])) {
      const other = seen.get(name);
      if (other !== undefined) throw new ModelError(ct.file, undefined, `API name "${name}" (info.singularName/pluralName) is already used by ${other}`);
      seen.set(name, ct.uid);
    }
  }
}

/** Two schemas (or a schema and a link table) sharing a table would overwrite each other's rows. */
export function checkTables(contentTypes: ReadonlyMap<string, DraftContentType>, components: ReadonlyMap<string, DraftComponent>): void {
  const owners = new Map<string, string>();
  for (const schema of [...contentTypes.values(), ...components.values()]) {
    const claim = (table: string, attribute?: string) => {
      const other = owners.get(table);
      if (other !== undefined) throw new ModelError(schema.file, attribute, `table "${table}" is also used by ${other}`);
      owners.set(table, attribute ? `${schema.uid} (attribute "${attribute}")` : schema.uid);
    };
    claim(schema.table);
    const attributes = [...schema.attributes.values()];
    // Same rule as the database layer: the components table exists only when something uses it.
    if (attributes.some((a) => a.kind === 'component' || a.kind === 'dynamiczone')) claim(schema.componentsTable);
    for (const attribute of attributes) {
      if ((attribute.kind === 'relation' && attribute.owner) || attribute.kind === 'media') claim(attribute.linkTable, attribute.name);
    }
  }
}
