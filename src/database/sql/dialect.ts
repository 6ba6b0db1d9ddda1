import type { ColumnType } from '../../query/types.js';
import type { DialectName } from '../types.js';

/**
 * What differs between SQLite, PostgreSQL and MySQL/MariaDB when the compiler prints SQL: quoting, JSON
 * construction, how a stored value is emitted into JSON, case folding and LIKE, and how a bound value must look.
 * Everything else in the compiler is dialect-neutral.
 */
/** A remembered total as a list row gives it back, with the connection's stamps when it was counted. */
export interface RememberedTotal {
  total: number;
  version: number;
  changes: number;
}

export interface SqlDialect {
  readonly name: DialectName;
  quote(identifier: string): string;
  /** A JSON object from `[key, sqlExpression]` pairs. */
  jsonObject(pairs: ReadonlyArray<readonly [string, string]>): string;
  /** Aggregate `expr` (a JSON value) into a JSON array ordered by `orderBy` (SQL list); '[]' when no rows. */
  jsonArrayAgg(expr: string, orderBy: string): string;
  /**
   * A subquery aggregating `expr` over the rows of `fromWhere` into a JSON array, ordered by `orderBy`, keeping
   * only rows `start + 1` to `start + limit`. `expr` may refer to outer rows (correlated).
   */
  windowedArrayAgg(expr: string, orderBy: string, fromWhere: string, start: number, limit: number): string;
  /**
   * `AS` for a CTE that must be computed once, not inlined into each correlated use: SQLite and PostgreSQL 12+
   * inline a CTE referenced once, rebuilding it per row (a nested list per category: 34 ms → 7 ms on SQLite).
   */
  readonly materialized: string;
  /**
   * When a list picks its page's rows in a subquery before building their JSON, instead of building it for every
   * row the sort reads. PostgreSQL: always (the generic plan of a prepared list sorts rows with their JSON built:
   * 67 entries' JSON for a page of 25). SQLite: when sorting on a field (by id it reads rows in order and stops at
   * the page's end; there the subquery is a step more). MariaDB: never (it builds JSON after sorting, and the
   * subquery costs a temporary table).
   */
  readonly pageFirst: 'always' | 'sorted' | 'never';
  /** Wrap an aggregate subquery so no rows gives '[]'. */
  emptyArrayDefault(subquery: string): string;
  /**
   * Whether a to-one read picks its row's id first (ordered, limited to one) and builds the object
   * outside that subquery. SQLite marks json_object's result as JSON only until it passes through a sorter: an ORDER
   * BY that no index serves (Strapi's link tables have no (owner, order) index) returns plain text, which the
   * enclosing object would quote as a string, and re-parsing it with json() costs more than a primary key lookup.
   * Elsewhere one subquery builds the object of its first row.
   */
  readonly oneRowById: boolean;
  /**
   * A list's total remembered between requests while nothing changed, where counting costs a scan: Strapi's SQLite
   * tables have no index on `published_at` alone, so counting the published rows of a type reads the index entry of
   * every version row (a list of 25 articles: 40 of its 120 µs in SQLite). `total(count)` is the total column's
   * expression: its three `?` are the connection's stamps when the total was counted and that total; the count's
   * subquery runs only when the stamps differ from the connection's now. Its value is the total and the stamps it
   * was counted at, as `total version changes` (`unpack` reads them): one expression reads the stamps once.
   * Undefined: every list counts.
   */
  readonly rememberedTotal?: { total(count: string): string; unpack(value: unknown): RememberedTotal };
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
  /** Convert a filter/write value of `type` to what the driver binds. */
  bindValue(value: unknown, type: ColumnType): unknown;
  /** What follows `INSERT INTO table` for a row of defaults only (MySQL has no `DEFAULT VALUES`). */
  readonly defaultValues: string;
}

/** A model-derived constant (component uid, attribute name) printed as a string literal. */
export function stringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A window bound printed into SQL: a non-negative integer, checked (it never comes from a client unchecked). */
function int(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`bad window bound ${n}`);
  return n;
}

const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

/** 'YYYY-MM-DDTHH:MM:SS.mmmZ' -> 'YYYY-MM-DD HH:MM:SS.mmm' (UTC wall time) for PostgreSQL and MySQL columns. */
function wallTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = ISO_DATETIME.exec(value);
  return m ? `${m[1]} ${m[2]}` : value;
}

/**
 * A json/blocks column's text exactly as stored, read back to be written again (publishing copies a row). Every
 * other value bound to a json column is a JSON value (a string included: `"x"` is stored as the JSON text `"x"`),
 * so stored text must say it is one already rather than be encoded a second time.
 */
export class StoredJson {
  constructor(readonly text: string) {}
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
      return value instanceof StoredJson ? value.text : JSON.stringify(value);
    default:
      return value;
  }
}

/** An identifier in double quotes (SQLite, PostgreSQL). */
function doubleQuote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** PostgreSQL truncates identifiers to 63 bytes: a longer key (a long GraphQL alias) can't be a column alias. */
function fitsIdentifier(key: string): boolean {
  return Buffer.byteLength(key) <= 63;
}

/**
 * A JSON object as row_to_json of a one-row sub-select whose columns are the keys, in order; JSON values (nested
 * objects and arrays, json and jsonb columns) are spliced in as they are. Correlated: the values may refer to the
 * outer row. A scalar sub-select, not a LATERAL join, so an object stays an expression as on the other dialects
 * (a three-key object, per row: 0.66 µs as here, 0.56 µs through LATERAL, 0.82 µs with json_build_object).
 */
function rowToJson(pairs: ReadonlyArray<readonly [string, string]>): string {
  return `(SELECT row_to_json(e) FROM (SELECT ${pairs.map(([k, v]) => `${v} AS ${doubleQuote(k)}`).join(', ')}) e)`;
}

/**
 * json_build_object, for keys too long for row_to_json. It takes at most 100 arguments: a larger object is built
 * in chunks whose texts are joined in order (`{a, b}` and `{c}` make `{a, b, c}`).
 */
function jsonBuildObject(pairs: ReadonlyArray<readonly [string, string]>): string {
  const chunk = (part: ReadonlyArray<readonly [string, string]>) => `json_build_object(${part.map(([k, v]) => `${stringLiteral(k)}, ${v}`).join(', ')})`;
  if (pairs.length <= 50) return chunk(pairs);
  const members: string[] = [];
  for (let i = 0; i < pairs.length; i += 50) members.push(`left(substr(${chunk(pairs.slice(i, i + 50))}::text, 2), -1)`);
  return `('{' || ${members.join(` || ', ' || `)} || '}')::json`;
}

const sqlite: SqlDialect = {
  name: 'sqlite',
  quote: doubleQuote,
  jsonObject: (pairs) => `json_object(${pairs.map(([k, v]) => `${stringLiteral(k)}, ${v}`).join(', ')})`,
  jsonArrayAgg: (expr, orderBy) => `json_group_array(${expr}${orderBy ? ` ORDER BY ${orderBy}` : ''})`,
  // A subquery with ORDER BY and LIMIT yields its rows in order (SQLite keeps that ORDER BY), which the aggregate
  // follows: a third cheaper than numbering the rows with ROW_NUMBER().
  windowedArrayAgg: (expr, orderBy, fromWhere, start, limit) =>
    `SELECT json_group_array(json(w.j)) FROM (SELECT ${expr} AS j FROM ${fromWhere} ORDER BY ${orderBy} LIMIT ${int(limit)} OFFSET ${int(start)}) w`,
  emptyArrayDefault: (subquery) => `(${subquery})`,
  oneRowById: true,
  // data_version changes when another connection (or process) commits; total_changes() counts the rows this
  // connection changed (a transaction's too, even if it rolls back: a recount, never a stale total). Reading
  // data_version costs a pragma (~7 µs on a database in rollback-journal mode, Strapi's): one scalar subquery reads
  // it once, for the test and for the stamps it gives back.
  rememberedTotal: {
    total: (count) =>
      `(SELECT CASE WHEN data_version = ? AND total_changes() = ? THEN ? ELSE (${count}) END || ' ' || data_version || ' ' || total_changes() FROM pragma_data_version())`,
    unpack(value) {
      const [total, version, changes] = String(value).split(' ').map(Number);
      return { total, version, changes };
    },
  },
  materialized: 'AS MATERIALIZED',
  pageFirst: 'sorted',
  jsonValue(column, type) {
    switch (type) {
      case 'boolean':
        return `CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} THEN json('true') ELSE json('false') END`;
      case 'biginteger':
        return `CAST(${column} AS TEXT)`;
      case 'json':
      case 'blocks':
        // A TEXT column may hold text that is not JSON (written by another tool): it reads as that string
        // rather than failing the statement (json() raises "malformed JSON" for the whole read).
        return `json(CASE WHEN json_valid(${column}) THEN ${column} ELSE json_quote(${column}) END)`;
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
  bindValue: (value, type) => bindCommon(value, type, true),
  defaultValues: 'DEFAULT VALUES',
};

const postgres: SqlDialect = {
  name: 'postgres',
  quote: doubleQuote,
  // row_to_json prints compact JSON (json_build_object spaces every key and value: ~11% more bytes).
  jsonObject: (pairs) => (pairs.every(([k]) => fitsIdentifier(k)) ? rowToJson(pairs) : jsonBuildObject(pairs)),
  // array_to_json separates elements with ',' (json_agg with ', ').
  jsonArrayAgg: (expr, orderBy) => `array_to_json(array_agg(${expr}${orderBy ? ` ORDER BY ${orderBy}` : ''}))`,
  windowedArrayAgg: (expr, orderBy, fromWhere, start, limit) =>
    `SELECT array_to_json(array_agg(w.j ORDER BY w.n)) FROM (SELECT ${expr} AS j, ROW_NUMBER() OVER (ORDER BY ${orderBy}) AS n FROM ${fromWhere}) w WHERE w.n > ${int(start)} AND w.n <= ${int(start) + int(limit)}`,
  emptyArrayDefault: (subquery) => `COALESCE((${subquery}), '[]'::json)`,
  oneRowById: false,
  materialized: 'AS MATERIALIZED',
  pageFirst: 'always',
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
  bindValue(value, type) {
    if (type === 'datetime' || type === 'timestamp') {
      return Array.isArray(value) ? value.map(wallTime) : wallTime(value);
    }
    return bindCommon(value, type, false);
  },
  defaultValues: 'DEFAULT VALUES',
};

const mysql: SqlDialect = {
  name: 'mysql',
  quote: (id) => `\`${id.replace(/`/g, '``')}\``,
  jsonObject: (pairs) => `JSON_OBJECT(${pairs.map(([k, v]) => `${stringLiteral(k)}, ${v}`).join(', ')})`,
  jsonArrayAgg: (expr, orderBy) => `JSON_ARRAYAGG(${expr}${orderBy ? ` ORDER BY ${orderBy}` : ''})`,
  // MariaDB has no correlated derived tables, but its JSON_ARRAYAGG takes a LIMIT.
  windowedArrayAgg: (expr, orderBy, fromWhere, start, limit) => `SELECT JSON_ARRAYAGG(${expr} ORDER BY ${orderBy} LIMIT ${int(start)}, ${int(limit)}) FROM ${fromWhere}`,
  emptyArrayDefault: (subquery) => `COALESCE((${subquery}), JSON_ARRAY())`,
  oneRowById: false,
  // MariaDB has no hint; it materializes a CTE read from correlated subqueries by itself.
  materialized: 'AS',
  pageFirst: 'never',
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
        // MariaDB's JSON is LONGTEXT with a json_valid check; a column made without it may hold text that is not
        // JSON, read as that string (JSON_EXTRACT would answer NULL). The IF picks text, so the value stays JSON.
        return `JSON_EXTRACT(IF(JSON_VALID(${column}), ${column}, JSON_QUOTE(${column})), '$')`;
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
  bindValue(value, type) {
    if (type === 'datetime' || type === 'timestamp') {
      return Array.isArray(value) ? value.map(wallTime) : wallTime(value);
    }
    return bindCommon(value, type, true);
  },
  defaultValues: '() VALUES ()',
};

const DIALECTS: Record<DialectName, SqlDialect> = { sqlite, postgres, mysql };

export function sqlDialect(name: DialectName): SqlDialect {
  return DIALECTS[name];
}
