import { ModelError } from '../errors/index.js';
import type { RelationAttribute, RelationKind } from './types.js';
import type { Fail } from './attribute-options.js';
import type { DraftComponent, DraftContentType } from './normalize-schema.js';

/** The kind an inverse (mappedBy) side must have, by the kind of its owner. Other owners cannot have one. */
const INVERSE_KIND: Partial<Record<RelationKind, RelationKind>> = {
  oneToOne: 'oneToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};

type Draft = DraftContentType | DraftComponent;

/**
 * Runs once every schema is read: components and relation targets must exist, both sides of a bidirectional
 * relation must name each other with matching kinds, and an inverse side takes its owner's link table.
 */
export function resolveReferences(contentTypes: ReadonlyMap<string, DraftContentType>, components: ReadonlyMap<string, DraftComponent>): void {
  for (const schema of [...contentTypes.values(), ...components.values()]) {
    for (const attribute of schema.attributes.values()) {
      const fail: Fail = (reason) => {
        throw new ModelError(schema.file, attribute.name, reason);
      };
      if (attribute.kind === 'component' && !components.has(attribute.component)) fail(`unknown component "${attribute.component}"`);
      if (attribute.kind === 'dynamiczone') {
        for (const uid of attribute.components) if (!components.has(uid)) fail(`unknown component "${uid}" in "components"`);
      }
      if (attribute.kind === 'relation') resolveRelation(schema, attribute, contentTypes, fail);
      if (attribute.kind === 'morph' && attribute.morphBy !== undefined) {
        // As Strapi's metadata: "Morph target not found", "Morph target attribute not found".
        const owner = contentTypes.get(attribute.target!);
        if (!owner) fail(`unknown morph target "${attribute.target}" (not a content-type uid)`);
        const by = owner!.attributes.get(attribute.morphBy);
        const expected = attribute.relation === 'morphOne' ? ['morphToOne', 'morphToMany'] : ['morphToMany', 'morphToOne'];
        if (by?.kind !== 'morph' || !expected.includes(by.relation)) {
          fail(`morphBy "${attribute.morphBy}" must name a morphToOne or morphToMany attribute of ${attribute.target}`);
        }
      }
    }
  }
  checkComponentCycles(components);
}

function resolveRelation(schema: Draft, attribute: RelationAttribute, contentTypes: ReadonlyMap<string, DraftContentType>, fail: Fail): void {
  const target = contentTypes.get(attribute.target);
  if (!target) return fail(`unknown relation target "${attribute.target}" (not a content-type uid)`);
  const where = `${attribute.target}.`;
  if (attribute.mappedBy !== undefined) {
    const owner = target.attributes.get(attribute.mappedBy);
    if (!owner || owner.kind !== 'relation' || owner.target !== schema.uid || !owner.owner) {
      return fail(`mappedBy "${attribute.mappedBy}" must name a relation of ${attribute.target} that targets ${schema.uid} and owns the relation`);
    }
    if (owner.inversedBy !== undefined && owner.inversedBy !== attribute.name) {
      fail(`mappedBy "${attribute.mappedBy}": ${where}${attribute.mappedBy} has inversedBy "${owner.inversedBy}", not "${attribute.name}"`);
    }
    const expected = INVERSE_KIND[owner.relation];
    if (expected !== attribute.relation) {
      fail(`a ${attribute.relation} cannot be the inverse side of ${where}${attribute.mappedBy} (${owner.relation})` +
        (expected ? `: use ${expected}` : ': only oneToOne, manyToOne and manyToMany relations have an inverse side'));
    }
    // Both sides read and write the owner's link table; the owner learns its inverse even without inversedBy.
    (attribute as { linkTable: string }).linkTable = owner.linkTable;
    if (owner.inverseOf === undefined) (owner as { inverseOf?: string }).inverseOf = attribute.name;
  } else if (attribute.inversedBy !== undefined) {
    const inverse = target.attributes.get(attribute.inversedBy);
    if (!inverse || inverse.kind !== 'relation' || inverse.target !== schema.uid || inverse.mappedBy !== attribute.name) {
      fail(`inversedBy "${attribute.inversedBy}" must name a relation of ${attribute.target} that targets ${schema.uid} with mappedBy "${attribute.name}"`);
    }
  }
}

/** A component that contains itself (directly or through others) could never be written or read. */
function checkComponentCycles(components: ReadonlyMap<string, DraftComponent>): void {
  const done = new Set<string>();
  const visit = (uid: string, path: string[]): void => {
    if (done.has(uid)) return;
    const component = components.get(uid)!;
    for (const attribute of component.attributes.values()) {
      // A dynamic zone inside a component holds components too (Strapi 5 stores it in the component's `_cmps`).
      const held = attribute.kind === 'component' ? [attribute.component] : attribute.kind === 'dynamiczone' ? attribute.components : [];
      for (const inner of held) {
        if (path.includes(inner)) {
          const cycle = [...path.slice(path.indexOf(inner)), inner].join(' -> ');
          throw new ModelError(component.file, attribute.name, `component "${inner}" contains itself (${cycle})`);
        }
        visit(inner, [...path, inner]);
      }
    }
    done.add(uid);
  };
  for (const uid of components.keys()) visit(uid, [uid]);
}
