import type { Filter } from './types.js';

type Truth = 'true' | 'false' | 'unknown';

/** SQL's three-valued logic. */
const not = (t: Truth): Truth => (t === 'unknown' ? t : t === 'true' ? 'false' : 'true');
function all(items: Truth[]): Truth {
  if (items.includes('false')) return 'false';
  return items.includes('unknown') ? 'unknown' : 'true';
}
function any(items: Truth[]): Truth {
  if (items.includes('true')) return 'true';
  return items.includes('unknown') ? 'unknown' : 'false';
}

/**
 * What `filter` answers on a row whose every column is NULL: the row a LEFT JOIN gives an entry that has no
 * related entry. Relations and components of that row are NULL rows too.
 */
export function onNullRow(filter: Filter): Truth {
  switch (filter.kind) {
    case 'and':
      return all(filter.items.map(onNullRow));
    case 'or':
      return any(filter.items.map(onNullRow));
    case 'not':
      return not(onNullRow(filter.item));
    case 'relation':
    case 'component':
      return onNullRow(filter.filter);
    case 'publication':
      // Only ever at the top of a read (a root field's argument), never through a relation.
      return 'unknown';
    case 'compare': {
      const { operator, value } = filter;
      if (operator === '$null') return value ? 'true' : 'false';
      if (operator === '$notNull') return value ? 'false' : 'true';
      if (operator === '$eq' && value === null) return 'true';
      if (operator === '$ne' && value === null) return 'false';
      if (operator === '$in' && Array.isArray(value) && value.length === 0) return 'false';
      if (operator === '$notIn' && Array.isArray(value) && value.length === 0) return 'true';
      return 'unknown';
    }
  }
}

/** Always false on a stored row: `id` is never NULL. */
function neverTrue(filter: Filter): boolean {
  return (
    filter.kind === 'compare' &&
    filter.field.name === 'id' &&
    ((filter.operator === '$null' && filter.value === true) || (filter.operator === '$notNull' && filter.value === false))
  );
}

/**
 * A filter through a relation or component (`filters[author][id][$null]=true`). Cairn compiles it to EXISTS (no
 * duplicated rows); the reference joins, so an entry with no related entry is tested against a NULL row. Where
 * that NULL row matches (`$null`, `$notNull: false`, `$eq: null`...), "has no related entry" is added, so both
 * read the same: `filters[author][id][$null]=true` lists the articles without an author.
 */
export function throughRelation(kind: 'relation' | 'component', attribute: string, filter: Filter): Filter {
  const exists: Filter = { kind, attribute, filter } as Filter;
  if (onNullRow(filter) !== 'true') return exists;
  const none: Filter = { kind: 'not', item: { kind, attribute, filter: { kind: 'and', items: [] } } as Filter };
  return neverTrue(filter) ? none : { kind: 'or', items: [exists, none] };
}
