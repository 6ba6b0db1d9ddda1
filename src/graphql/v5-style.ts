import { getNamedType, type GraphQLObjectType } from 'graphql';
import type { OutputValue } from '../query/index.js';
import type { ReadStyle } from './read-selection.js';
import { fieldGroups, mergedSelection, restFilters } from './selection.js';

/**
 * Strapi v5's shape: a relation field holds its targets directly (an entry, or a list), or `{ nodes }` in its
 * `_connection` twin; nested lists follow the request's status; filters name `documentId` themselves.
 */
export const v5Style: ReadStyle = {
  attributeOf: (fieldName) => (fieldName.endsWith(CONNECTION) ? fieldName.slice(0, -CONNECTION.length) : fieldName),
  relation(fieldType, nodes, key, info) {
    if (!nodes[0].name.value.endsWith(CONNECTION)) return { type: fieldType, selection: mergedSelection(nodes), item: (fields) => fields, value: { kind: 'populate', key } };
    const groups = fieldGroups(mergedSelection(nodes), fieldType.name, info);
    const lists = groups.filter(([, group]) => group[0].name.value === 'nodes');
    const shape: Array<[string, OutputValue]> = groups.map(([responseKey, group]) => [
      responseKey,
      group[0].name.value === '__typename' ? { kind: 'literal', value: fieldType.name } : { kind: 'populate', key },
    ]);
    return {
      type: getNamedType(fieldType.getFields().nodes.type) as GraphQLObjectType,
      selection: mergedSelection(lists.flatMap(([, group]) => group)),
      item: (fields) => fields,
      value: lists.length > 1 ? undefined : { kind: 'object', shape },
    };
  },
  filters: (_model, _target, raw) => restFilters(raw),
  version: () => ({}),
};

const CONNECTION = '_connection';
