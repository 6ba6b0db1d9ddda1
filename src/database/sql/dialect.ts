import type { ColumnType } from '../../query/types.js';
import type { DialectName } from '../types.js';

/**
 * What differs between SQLite, PostgreSQL and MySQL/MariaDB when the compiler prints SQL: quoting, JSON
 * construction, how a stored value is emitted into JSON, case folding and LIKE, and how a bound value must look.
 * Everything else in the compiler is dialect-neutral.
 */
export interface SqlDialect {
  readonly name: DialectName;
  quote(identifier: string): string;
  /** A JSON object from `[key, sqlExpression]` pairs. */
  jsonObject(pairs: ReadonlyArray<readonly [string, string]>): string;
  /** Aggregate `expr` (a JSON value) into a JSON array ordered by `orderBy` (SQL list); '[]' when no rows. */
  jsonArrayAgg(expr: string, orderBy: string): string;
  /** Wrap an aggregate subquery so no rows gives '[]'. */
  emptyArrayDefault(subquery: string): string;
  /** Emit a stored column as its API JSON value (dates as ISO strings, booleans as true/false, bigints as strings). */
  jsonValue(column: string, type: ColumnType): string;
  /** A row's JSON text as the single result column. */
  rowText(jsonExpr: string): string;
  /** Unicode-aware lower case (SQLite's LOWER folds ASCII only: Cairn registers cairn_lower). */
  lower(expr: string): string;
  /** Case-sensitive LIKE with '!' as the escape character. */
  likeCaseSensitive(expr: string): string;
  /** Text of a JSON column, for substring search. */
  jsonText(column: string): string;
  /** ORDER BY term with NULLs sorted as SQLite does (first ascending, last descending). */
  orderTerm(expr: string, direction: 'asc' | 'desc'): string;
  /** A boolean literal for WHERE clauses. */
  readonly trueLiteral: string;
  /** What goes between `name AS` and a CTE's `(...)` so the CTE is computed once, not inlined where it is used. */
  readonly materialized: string;
  /** Convert a filter/write value of `type` to what the driver binds. */
  bindValue(value: unknown, type: ColumnType): unknown;
}

/** A model-derived constant (component uid, attribute name) printed as a string literal. */
export function stringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

/** 'YYYY-MM-DDTHH:MM:SS.mmmZ' -> 'YYYY-MM-DD HH:MM:SS.mmm' (UTC wall time) for PostgreSQL and MySQL columns. */
function wallTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = ISO_DATETIME.exec(value);
  return m ? `${m[1]} ${m[2]}` : value;
}

function bindCommon(value: unknown, type: ColumnType, booleansAsNumbers: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value) && type !== 'json' && type !== 'blocks') {
    return value.map((v) => bindCommon(v, type, booleansAsNumbers));
  }
  switch (type) {
    case 'boolean':
      return booleansAsNumbers ? (value ? 1 : 0) : Boolean(value);
    case 'json':
    case 'blocks':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return value;
  }
}

const sqlite: SqlDialect = {
  name: 'sqlite',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  jsonObject: (pairs) => `json_object(${pairs.map(([k, v]) => `${stringLiteral(k)}, ${v}`).join(', ')})`,
  jsonArrayAgg: (expr, orderBy) => `json_group_array(${expr}${orderBy ? ` ORDER BY ${orderBy}` : ''})`,
  emptyArrayDefault: (subquery) => `(${subquery})`,
  jsonValue(column, type) {
    switch (type) {
      case 'boolean':
        return `CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} THEN json('true') ELSE json('false') END`;
      case 'biginteger':
        return `CAST(${column} AS TEXT)`;
      case 'json':
      case 'blocks':
        return `json(${column})`;
      default:
        return column;
    }
  },
  rowText: (expr) => expr,
  lower: (expr) => `cairn_lower(${expr})`,
  likeCaseSensitive: (expr) => expr,
  jsonText: (column) => column,
  orderTerm: (expr, direction) => `${expr} ${direction.toUpperCase()}`,
  trueLiteral: '1',
  // SQLite evaluates a CTE used once as a subquery in place, but only once per statement: nothing to add.
  materialized: '',
  bindValue: (value, type) => bindCommon(value, type, true),
};

const postgres: SqlDialect = {
  name: 'postgres',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  // json_build_object takes at most 100 arguments: larger objects are built in chunks and merged as jsonb.
  jsonObject(pairs) {
    const chunk = (part: ReadonlyArray<readonly [string, string]>) =>
      `json_build_object(${part.map(([k, v]) => `${stringLiteral(k)}, ${v}`).join(', ')})`;
    if (pairs.length <= 50) return chunk(pairs);
    const parts: string[] = [];
    for (let i = 0; i < pairs.length; i += 50) parts.push(`${chunk(pairs.slice(i, i + 50))}::jsonb`);
    return `(${parts.join(' || ')})::json`;
  },
  jsonArrayAgg: (expr, orderBy) => `json_agg(${expr}${orderBy ? ` ORDER BY ${orderBy}` : ''})`,
  emptyArrayDefault: (subquery) => `COALESCE((${subquery}), '[]'::json)`,
  jsonValue(column, type) {
    switch (type) {
      case 'datetime':
      case 'timestamp':
        return `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      case 'date':
        return `to_char(${column}, 'YYYY-MM-DD')`;
      case 'time':
        return `to_char(${column}, 'HH24:MI:SS.MS')`;
      case 'biginteger':
        return `${column}::text`;
      case 'decimal':
        return `${column}::float8`;
      default:
        return column;
    }
  },
  rowText: (expr) => `(${expr})::text`,
  lower: (expr) => `LOWER(${expr})`,
  likeCaseSensitive: (expr) => expr,
  jsonText: (column) => `${column}::text`,
  orderTerm: (expr, direction) => `${expr} ${direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}`,
  trueLiteral: 'TRUE',
  // PostgreSQL 12+ inlines a CTE referenced once: inside a correlated subquery it would be rebuilt per row.
  materialized: 'MATERIALIZED ',
  bindValue(value, type) {
    if (type === 'datetime' || type === 'timestamp') {
      return Array.isArray(value) ? value.map(wallTime) : wallTime(value);
    }
    return bindCommon(value, type, false);
  },
};

const mysql: SqlDialect = {
  name: 'mysql',
  quote: (id) => `\`${id.replace(/`/g, '``')}\``,
  jsonObject: (pairs) => `JSON_OBJECT(${pairs.map(([k, v]) => `${stringLiteral(k)}, ${v}`).join(', ')})`,
  jsonArrayAgg: (expr, orderBy) => `JSON_ARRAYAGG(${expr}${orderBy ? ` ORDER BY ${orderBy}` : ''})`,
  emptyArrayDefault: (subquery) => `COALESCE((${subquery}), JSON_ARRAY())`,
  jsonValue(column, type) {
    switch (type) {
      case 'boolean':
        return `IF(${column} IS NULL, NULL, IF(${column}, JSON_EXTRACT('true', '$'), JSON_EXTRACT('false', '$')))`;
      case 'datetime':
      case 'timestamp':
        return `CONCAT(DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%s.'), LPAD(MICROSECOND(${column}) DIV 1000, 3, '0'), 'Z')`;
      case 'date':
        return `DATE_FORMAT(${column}, '%Y-%m-%d')`;
      case 'time':
        return `CONCAT(TIME_FORMAT(${column}, '%H:%i:%s.'), LPAD(MICROSECOND(${column}) DIV 1000, 3, '0'))`;
      case 'biginteger':
        return `CAST(${column} AS CHAR)`;
      case 'decimal':
        return `CAST(${column} AS DOUBLE)`;
      case 'json':
      case 'blocks':
        return `JSON_EXTRACT(${column}, '$')`;
      default:
        return column;
    }
  },
  rowText: (expr) => expr,
  lower: (expr) => `LOWER(${expr})`,
  // MariaDB's default collations ignore case: compare bytes for the case-sensitive operators.
  likeCaseSensitive: (expr) => `${expr} COLLATE utf8mb4_bin`,
  jsonText: (column) => `CAST(${column} AS CHAR)`,
  orderTerm: (expr, direction) => `${expr} ${direction.toUpperCase()}`,
  trueLiteral: '1',
  // MariaDB has no MATERIALIZED keyword; it materializes derived tables used in correlated subqueries.
  materialized: '',
  bindValue(value, type) {
    if (type === 'datetime' || type === 'timestamp') {
      return Array.isArray(value) ? value.map(wallTime) : wallTime(value);
    }
    return bindCommon(value, type, true);
  },
};

const DIALECTS: Record<DialectName, SqlDialect> = { sqlite, postgres, mysql };

export function sqlDialect(name: DialectName): SqlDialect {
  return DIALECTS[name];
}
