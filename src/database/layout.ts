import type { DialectName } from './types.js';

/**
 * A database's layout as data: every table with its columns, primary key, indexes and foreign keys, normalized so
 * that the same definition reads the same on SQLite, PostgreSQL and MySQL/MariaDB (types by meaning, not by the
 * dialect's spelling; everything sorted by name). Made to compare a database with another one (Strapi's with
 * Cairn's, before with after) and to say precisely what differs; `scripts/db-layout.mjs` prints it.
 *
 * Only catalog reads (SELECT and PRAGMA reads): reading a layout never changes the database.
 */
export interface DatabaseLayout {
  client: DialectName;
  tables: LayoutTable[];
}

export interface LayoutTable {
  name: string;
  columns: LayoutColumn[];
  /** The primary key's columns in key order; empty when the table has none. */
  primaryKey: string[];
  /** Secondary indexes and unique constraints (the primary key's own index is not listed). */
  indexes: LayoutIndex[];
  foreignKeys: LayoutForeignKey[];
}

export interface LayoutColumn {
  name: string;
  /**
   * integer, smallint, bigint, float (single precision), double, decimal(p,s), varchar(n), char(n), text, boolean,
   * date, time, datetime (no time zone), timestamptz, timestamp (MySQL's), json, blob, uuid; anything else as the
   * dialect spells it, lowercased.
   */
  type: string;
  nullable: boolean;
  /** The default as a literal's text (quotes and casts removed), CURRENT_TIMESTAMP, or null when there is none. */
  default: string | null;
  /** The database assigns increasing values that are never reused (SQLite AUTOINCREMENT, serial/identity, AUTO_INCREMENT). */
  autoIncrement: boolean;
  /** The dialect's own type text (with `--native`): what differs below the normalization, e.g. MySQL's `unsigned`. */
  native?: string;
}

export interface LayoutIndex {
  name: string;
  columns: string[];
  unique: boolean;
}

export interface LayoutForeignKey {
  /** The constraint's name (SQLite: the name written in the table's definition, null when unnamed). */
  name: string | null;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  /** CASCADE, SET NULL, SET DEFAULT, RESTRICT or NO ACTION (MySQL's RESTRICT, its synonym, reads NO ACTION). */
  onDelete: string;
  onUpdate: string;
}

/** Runs one read statement with `?` placeholders; a `Database`'s `query` fits, and so does a bare driver. */
export type LayoutQuery = (sql: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;

export interface ReadLayoutOptions {
  /** Keep each column's native type text beside the normalized one. */
  native?: boolean;
}

/** Reads the layout of the connection's own schema: SQLite's main database, PostgreSQL's current schema, MySQL's database. */
export async function readLayout(query: LayoutQuery, dialect: DialectName, options: ReadLayoutOptions = {}): Promise<DatabaseLayout> {
  const tables = await READERS[dialect](query);
  for (const table of tables) {
    if (!options.native) for (const column of table.columns) delete column.native;
    table.columns.sort(byName);
    table.indexes.sort(byName);
    table.foreignKeys.sort((a, b) => compareKeys(`${a.name ?? ''}\0${a.columns.join(',')}`, `${b.name ?? ''}\0${b.columns.join(',')}`));
  }
  tables.sort(byName);
  return { client: dialect, tables };
}

const byName = (a: { name: string }, b: { name: string }) => compareKeys(a.name, b.name);
/** Code-point order: the same on every machine, unlike localeCompare. */
const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Reader = (query: LayoutQuery) => Promise<LayoutTable[]>;

/** Groups rows by their `table_name`, creating each table once (tables with no rows of a kind stay empty). */
function tableIndex(names: string[]): Map<string, LayoutTable> {
  return new Map(names.map((name) => [name, { name, columns: [], primaryKey: [], indexes: [], foreignKeys: [] }]));
}

const str = (value: unknown): string => String(value);
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

// ---------------------------------------------------------------------------------------------------------------
// SQLite

const readSqlite: Reader = async (query) => {
  const tableRows = await query(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`,
  );
  const tables = tableIndex(tableRows.map((row) => str(row.name)));
  for (const row of tableRows) {
    const table = tables.get(str(row.name))!;
    const definition = text(row.sql) ?? '';
    const autoIncrement = /\bAUTOINCREMENT\b/i.test(definition);
    const columns = await query(`SELECT name, type, "notnull" AS not_null, dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, [table.name]);
    const keyColumns = columns.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk));
    table.primaryKey = keyColumns.map((c) => str(c.name));
    for (const c of columns) {
      const native = str(c.type).toLowerCase();
      const type = sqliteType(native);
      // A lone INTEGER PRIMARY KEY is the rowid: NOT NULL in effect even where the definition does not say it.
      const rowid = keyColumns.length === 1 && Number(c.pk) === 1 && native === 'integer';
      table.columns.push({
        name: str(c.name),
        type,
        nullable: !(Number(c.not_null) === 1 || rowid),
        default: normalizeDefault(text(c.dflt_value), type),
        autoIncrement: rowid && autoIncrement,
        native,
      });
    }
  }
  // Indexes and foreign keys once every primary key is known: a foreign key that names no column refers to one.
  for (const row of tableRows) {
    const table = tables.get(str(row.name))!;
    const definition = text(row.sql) ?? '';
    const indexes = await query(`SELECT name, "unique" AS is_unique, origin FROM pragma_index_list(?)`, [table.name]);
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const parts = await query(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`, [str(index.name)]);
      table.indexes.push({ name: str(index.name), columns: parts.map((p) => text(p.name) ?? '<expression>'), unique: Number(index.is_unique) === 1 });
    }
    const keys = await query(`SELECT id, seq, "table" AS ref_table, "from" AS col, "to" AS ref_col, on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, [
      table.name,
    ]);
    const names = sqliteConstraintNames(definition);
    const seen = new Set<string>();
    for (const group of groupBy(keys, (k) => str(k.id))) {
      const columns = group.map((k) => str(k.col));
      const referencedTable = str(group[0]!.ref_table);
      // `to` is null when the definition names no column: the referenced table's primary key.
      const referencedColumns = group.map((k, i) => text(k.ref_col) ?? tables.get(referencedTable)?.primaryKey[i] ?? 'id');
      const key: LayoutForeignKey = {
        name: names.get(columns.join(',')) ?? null,
        columns,
        referencedTable,
        referencedColumns,
        onDelete: ruleName(group[0]!.on_delete),
        onUpdate: ruleName(group[0]!.on_update),
      };
      // Rebuilding a table (how SQLite alters one) can repeat a constraint in its definition: one key, listed once.
      const identity = JSON.stringify(key);
      if (seen.has(identity)) continue;
      seen.add(identity);
      table.foreignKeys.push(key);
    }
  }
  return [...tables.values()];
};

/** The names given to foreign keys in a CREATE TABLE text, by their columns (`a,b`). */
function sqliteConstraintNames(definition: string): Map<string, string> {
  const names = new Map<string, string>();
  const pattern = /CONSTRAINT\s+[`"[]?([^`"\]\s]+)[`"\]]?\s+FOREIGN\s+KEY\s*\(([^)]*)\)/gi;
  for (const match of definition.matchAll(pattern)) {
    const columns = match[2]!.split(',').map((c) => c.trim().replace(/^[`"[]|[`"\]]$/g, ''));
    if (!names.has(columns.join(','))) names.set(columns.join(','), match[1]!);
  }
  return names;
}

/** SQLite keeps the declared type text; knex writes `float` for double, float and decimal alike (REAL: 8 bytes). */
function sqliteType(native: string): string {
  const base = native.replace(/\s+/g, ' ').trim();
  if (base === '') return 'blob';
  if (/^(integer|int)$/.test(base)) return 'integer';
  if (/^(tinyint|smallint|mediumint)\b/.test(base)) return 'smallint';
  if (/^bigint\b/.test(base)) return 'bigint';
  if (/^(float|real|double|double precision)\b/.test(base)) return 'double';
  const decimal = /^(?:decimal|numeric)\s*\((\d+)\s*,\s*(\d+)\)/.exec(base);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  if (/^(decimal|numeric)\b/.test(base)) return 'decimal';
  const varchar = /^(?:varchar|character varying|nvarchar)\s*\((\d+)\)/.exec(base);
  if (varchar) return `varchar(${varchar[1]})`;
  const char = /^(?:char|character|nchar)\s*\((\d+)\)/.exec(base);
  if (char) return `char(${char[1]})`;
  if (/^(text|clob|longtext|mediumtext|varchar|character varying)\b/.test(base)) return 'text';
  if (/^(boolean|bool)\b/.test(base)) return 'boolean';
  if (base === 'date') return 'date';
  if (/^time\b/.test(base)) return 'time';
  if (/^(datetime|timestamp)\b/.test(base)) return 'datetime';
  if (/^jsonb?$/.test(base)) return 'json';
  if (base === 'blob') return 'blob';
  if (base === 'uuid') return 'uuid';
  return base;
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

const readPostgres: Reader = async (query) => {
  const tableRows = await query(
    `SELECT c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const tables = tableIndex(tableRows.map((row) => str(row.name)));
  const columns = await query(
    `SELECT c.relname AS table_name, a.attname AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type,
       a.attnotnull AS not_null, pg_catalog.pg_get_expr(d.adbin, d.adrelid) AS default_value, a.attidentity AS identity
     FROM pg_catalog.pg_attribute a
     JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  for (const c of columns) {
    const table = tables.get(str(c.table_name));
    if (!table) continue;
    const native = str(c.type).toLowerCase();
    const type = postgresType(native);
    const given = text(c.default_value);
    const serial = given !== null && /^nextval\(/i.test(given);
    table.columns.push({
      name: str(c.name),
      type,
      nullable: !c.not_null,
      default: serial ? null : normalizeDefault(given, type),
      autoIncrement: serial || (c.identity !== '' && c.identity !== null && c.identity !== undefined),
      native,
    });
  }
  const indexParts = await query(
    `SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
       k.ord AS position, pg_catalog.pg_get_indexdef(ix.indexrelid, k.ord::int, true) AS column_name
     FROM pg_catalog.pg_index ix
     JOIN pg_catalog.pg_class t ON t.oid = ix.indrelid
     JOIN pg_catalog.pg_class i ON i.oid = ix.indexrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
     CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
     WHERE n.nspname = current_schema() AND k.ord <= ix.indnkeyatts
     ORDER BY t.relname, i.relname, k.ord`,
  );
  for (const group of groupBy(indexParts, (p) => `${str(p.table_name)}\0${str(p.index_name)}`)) {
    const table = tables.get(str(group[0]!.table_name));
    if (!table) continue;
    const columnNames = group.map((p) => unquote(str(p.column_name)));
    if (group[0]!.is_primary) table.primaryKey = columnNames;
    else table.indexes.push({ name: str(group[0]!.index_name), columns: columnNames, unique: Boolean(group[0]!.is_unique) });
  }
  const keyParts = await query(
    `SELECT cl.relname AS table_name, c.conname AS name, att.attname AS column_name, fcl.relname AS referenced_table,
       fatt.attname AS referenced_column, c.confupdtype AS on_update, c.confdeltype AS on_delete
     FROM pg_catalog.pg_constraint c
     JOIN pg_catalog.pg_class cl ON cl.oid = c.conrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = cl.relnamespace
     JOIN pg_catalog.pg_class fcl ON fcl.oid = c.confrelid
     CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(conkey, confkey, ord)
     JOIN pg_catalog.pg_attribute att ON att.attrelid = c.conrelid AND att.attnum = k.conkey
     JOIN pg_catalog.pg_attribute fatt ON fatt.attrelid = c.confrelid AND fatt.attnum = k.confkey
     WHERE c.contype = 'f' AND n.nspname = current_schema()
     ORDER BY cl.relname, c.conname, k.ord`,
  );
  const rules: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };
  for (const group of groupBy(keyParts, (p) => `${str(p.table_name)}\0${str(p.name)}`)) {
    const table = tables.get(str(group[0]!.table_name));
    if (!table) continue;
    table.foreignKeys.push({
      name: str(group[0]!.name),
      columns: group.map((p) => str(p.column_name)),
      referencedTable: str(group[0]!.referenced_table),
      referencedColumns: group.map((p) => str(p.referenced_column)),
      onDelete: rules[str(group[0]!.on_delete)] ?? str(group[0]!.on_delete),
      onUpdate: rules[str(group[0]!.on_update)] ?? str(group[0]!.on_update),
    });
  }
  return [...tables.values()];
};

/** pg_get_indexdef quotes a column name only when it must ("order"). */
const unquote = (name: string) => (/^"(.*)"$/.test(name) ? name.slice(1, -1).replace(/""/g, '"') : name);

/** `format_type` text: `character varying(255)`, `timestamp(6) without time zone`, `numeric(10,2)`... */
function postgresType(native: string): string {
  if (native === 'integer') return 'integer';
  if (native === 'smallint') return 'smallint';
  if (native === 'bigint') return 'bigint';
  if (native === 'real') return 'float';
  if (native === 'double precision') return 'double';
  const numeric = /^numeric\((\d+),(\d+)\)$/.exec(native);
  if (numeric) return `decimal(${numeric[1]},${numeric[2]})`;
  if (native === 'numeric') return 'decimal';
  const varchar = /^character varying\((\d+)\)$/.exec(native);
  if (varchar) return `varchar(${varchar[1]})`;
  if (native === 'character varying') return 'text';
  const char = /^character\((\d+)\)$/.exec(native);
  if (char) return `char(${char[1]})`;
  if (native === 'text') return 'text';
  if (native === 'boolean') return 'boolean';
  if (native === 'date') return 'date';
  if (/^time(\(\d+\))? without time zone$/.test(native)) return 'time';
  if (/^time(\(\d+\))? with time zone$/.test(native)) return 'timetz';
  if (/^timestamp(\(\d+\))? without time zone$/.test(native)) return 'datetime';
  if (/^timestamp(\(\d+\))? with time zone$/.test(native)) return 'timestamptz';
  if (native === 'json' || native === 'jsonb') return 'json';
  if (native === 'bytea') return 'blob';
  if (native === 'uuid') return 'uuid';
  return native;
}

// ---------------------------------------------------------------------------------------------------------------
// MySQL and MariaDB

const readMysql: Reader = async (query) => {
  const tableRows = await query(
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`,
  );
  const tables = tableIndex(tableRows.map((row) => str(row.name)));
  const jsonColumns = await mariadbJsonColumns(query);
  const columns = await query(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS is_nullable,
       COLUMN_DEFAULT AS default_value, EXTRA AS extra
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  for (const c of columns) {
    const table = tables.get(str(c.table_name));
    if (!table) continue;
    const native = str(c.type).toLowerCase();
    // MariaDB's JSON is LONGTEXT with a json_valid() check, which is how it reads its own columns back as JSON.
    const type = jsonColumns.has(`${table.name}\0${str(c.name)}`) ? 'json' : mysqlType(native);
    table.columns.push({
      name: str(c.name),
      type,
      nullable: c.is_nullable === 'YES',
      default: normalizeDefault(mysqlDefault(text(c.default_value)), type),
      autoIncrement: /\bauto_increment\b/i.test(str(c.extra)),
      native,
    });
  }
  const indexParts = await query(
    `SELECT TABLE_NAME AS table_name, INDEX_NAME AS index_name, NON_UNIQUE AS non_unique, COLUMN_NAME AS column_name
     FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  for (const group of groupBy(indexParts, (p) => `${str(p.table_name)}\0${str(p.index_name)}`)) {
    const table = tables.get(str(group[0]!.table_name));
    if (!table) continue;
    const columnNames = group.map((p) => text(p.column_name) ?? '<expression>');
    if (group[0]!.index_name === 'PRIMARY') table.primaryKey = columnNames;
    else table.indexes.push({ name: str(group[0]!.index_name), columns: columnNames, unique: Number(group[0]!.non_unique) === 0 });
  }
  const keyParts = await query(
    `SELECT k.TABLE_NAME AS table_name, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS column_name,
       k.REFERENCED_TABLE_NAME AS referenced_table, k.REFERENCED_COLUMN_NAME AS referenced_column,
       r.UPDATE_RULE AS on_update, r.DELETE_RULE AS on_delete
     FROM information_schema.KEY_COLUMN_USAGE k
     JOIN information_schema.REFERENTIAL_CONSTRAINTS r
       ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
     WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
     ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
  );
  for (const group of groupBy(keyParts, (p) => `${str(p.table_name)}\0${str(p.name)}`)) {
    const table = tables.get(str(group[0]!.table_name));
    if (!table) continue;
    table.foreignKeys.push({
      name: str(group[0]!.name),
      columns: group.map((p) => str(p.column_name)),
      referencedTable: str(group[0]!.referenced_table),
      referencedColumns: group.map((p) => str(p.referenced_column)),
      // InnoDB treats NO ACTION as RESTRICT and reports an unspecified rule as RESTRICT.
      onDelete: ruleName(group[0]!.on_delete === 'RESTRICT' ? 'NO ACTION' : group[0]!.on_delete),
      onUpdate: ruleName(group[0]!.on_update === 'RESTRICT' ? 'NO ACTION' : group[0]!.on_update),
    });
  }
  return [...tables.values()];
};

/** `table\0column` of MariaDB's JSON columns (a `json_valid(col)` check); empty on MySQL, whose JSON is a type. */
async function mariadbJsonColumns(query: LayoutQuery): Promise<Set<string>> {
  const found = new Set<string>();
  let checks: Record<string, unknown>[];
  try {
    checks = await query(`SELECT * FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()`);
  } catch {
    return found; // MySQL before 8.0.16 has no CHECK_CONSTRAINTS (and a native JSON type)
  }
  for (const check of checks) {
    const table = check.TABLE_NAME ?? check.table_name;
    const clause = str(check.CHECK_CLAUSE ?? check.check_clause);
    const match = /^json_valid\(`([^`]+)`\)$/i.exec(clause.trim());
    if (table !== undefined && match) found.add(`${str(table)}\0${match[1]}`);
  }
  return found;
}

/** COLUMN_TYPE text: `int(10) unsigned`, `tinyint(1)`, `double unsigned`, `datetime(6)`, `longtext`... */
function mysqlType(native: string): string {
  const base = native.replace(/\s+(unsigned|zerofill)\b/g, '').trim();
  if (base === 'tinyint(1)' || base === 'boolean' || base === 'bool') return 'boolean';
  if (/^(tinyint|smallint)\b/.test(base)) return 'smallint';
  if (/^(int|integer|mediumint)\b/.test(base)) return 'integer';
  if (/^bigint\b/.test(base)) return 'bigint';
  if (/^float\b/.test(base)) return 'float';
  if (/^(double|real)\b/.test(base)) return 'double';
  const decimal = /^(?:decimal|numeric)\((\d+),(\d+)\)$/.exec(base);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  const varchar = /^varchar\((\d+)\)$/.exec(base);
  if (varchar) return `varchar(${varchar[1]})`;
  const char = /^char\((\d+)\)$/.exec(base);
  if (char) return `char(${char[1]})`;
  if (/^(tinytext|text|mediumtext|longtext)$/.test(base)) return 'text';
  if (base === 'json') return 'json';
  if (base === 'date') return 'date';
  if (/^time(\(\d+\))?$/.test(base)) return 'time';
  if (/^datetime(\(\d+\))?$/.test(base)) return 'datetime';
  if (/^timestamp(\(\d+\))?$/.test(base)) return 'timestamp';
  if (/^(tinyblob|blob|mediumblob|longblob|varbinary\(\d+\)|binary\(\d+\))$/.test(base)) return 'blob';
  return base;
}

/** MariaDB writes COLUMN_DEFAULT as an expression (`NULL`, `'text'`, `current_timestamp()`); MySQL as the bare value. */
function mysqlDefault(value: string | null): string | null {
  if (value === null || value === 'NULL') return null;
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared

/** A default expression's meaning: a literal's text without quotes or casts, CURRENT_TIMESTAMP, true/false for booleans. */
function normalizeDefault(value: string | null, type: string): string | null {
  if (value === null) return null;
  let v = value.trim();
  // PostgreSQL casts: 'x'::character varying, NULL::text, '0'::numeric
  const cast = /^(.*?)::[a-z ]+(\(\d+(,\d+)?\))?(\[\])?$/i.exec(v);
  if (cast) v = cast[1]!.trim();
  if (/^\((.*)\)$/.test(v)) v = v.slice(1, -1).trim();
  if (/^null$/i.test(v)) return null;
  if (/^(current_timestamp(\(\d*\))?|now\(\))$/i.test(v)) return 'CURRENT_TIMESTAMP';
  const quoted = /^'(.*)'$/s.exec(v);
  if (quoted) v = quoted[1]!.replace(/''/g, "'");
  if (type === 'boolean') {
    if (/^(1|true|'1')$/i.test(v)) return 'true';
    if (/^(0|false|'0')$/i.test(v)) return 'false';
  }
  return v;
}

const ruleName = (value: unknown): string => {
  const rule = str(value ?? 'NO ACTION').toUpperCase();
  return rule === '' ? 'NO ACTION' : rule;
};

function groupBy<T>(items: T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    let group = groups.get(k);
    if (!group) groups.set(k, (group = []));
    group.push(item);
  }
  return [...groups.values()];
}

const READERS: Record<DialectName, Reader> = { sqlite: readSqlite, postgres: readPostgres, mysql: readMysql };
