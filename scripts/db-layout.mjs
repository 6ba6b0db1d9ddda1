#!/usr/bin/env node
// Prints a database's layout (tables, columns, primary keys, indexes, foreign keys) as normalized, sorted JSON, the
// same shape on SQLite, PostgreSQL and MySQL/MariaDB: `diff` two dumps to see how two databases differ (Strapi's and
// Cairn's, one dialect and another, before and after). Reads the catalog only; the SQLite file is opened read-only.
//
//   node scripts/db-layout.mjs --client sqlite path/to/data.db
//   node scripts/db-layout.mjs --client postgres postgres://postgres@127.0.0.1:5432/strapi_ref   (or just: strapi_ref)
//   node scripts/db-layout.mjs --client mysql mysql://root@127.0.0.1:3306/strapi_ref             (or just: strapi_ref)
//
// Options: --native (each column's type as the dialect spells it, beside the normalized one), --schema <name>
// (PostgreSQL: a schema other than the connection's current one), --out <file> (write there instead of stdout).
// The reading and the normalization are src/database/layout.ts (loaded from source with jiti: no build needed).
import { writeFileSync } from 'node:fs';
import { createJiti } from 'jiti';

const usage = 'usage: db-layout.mjs --client sqlite|postgres|mysql <file | connection URL | database name> [--native] [--schema s] [--out file]';
const args = process.argv.slice(2);
const options = { native: false };
let client;
let target;
let schema;
let out;
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--client') client = args[++i];
  else if (arg === '--native') options.native = true;
  else if (arg === '--schema') schema = args[++i];
  else if (arg === '--out') out = args[++i];
  else if (arg === '-h' || arg === '--help') {
    console.log(usage);
    process.exit(0);
  } else if (!arg.startsWith('--') && target === undefined) target = arg;
  else fail(`unknown argument ${arg}`);
}
if (!['sqlite', 'postgres', 'mysql'].includes(client) || !target) fail(usage);

const jiti = createJiti(import.meta.url);
const { readLayout } = await jiti.import('../src/database/layout.ts');

const { query, close } = await open(client, target);
try {
  const layout = await readLayout(query, client, options);
  const json = format(layout);
  if (out) writeFileSync(out, json);
  else process.stdout.write(json);
} finally {
  await close();
}

/** A read-only `query(sql, params)` over the dialect's driver (the repository's own: better-sqlite3, pg, mysql2). */
async function open(dialect, where) {
  if (dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(where, { readonly: true, fileMustExist: true });
    return { query: async (sql, params = []) => db.prepare(sql).all(...params), close: async () => db.close() };
  }
  if (dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const url = where.includes('://') ? where : `postgres://postgres@127.0.0.1:5432/${where}`;
    const pgClient = new pg.Client({ connectionString: url });
    await pgClient.connect();
    if (schema) await pgClient.query(`SET search_path TO ${pgClient.escapeIdentifier(schema)}`);
    let n = 0;
    const numbered = (sql) => sql.replace(/\?/g, () => `$${++n}`);
    return {
      query: async (sql, params = []) => ((n = 0), (await pgClient.query(numbered(sql), [...params])).rows),
      close: () => pgClient.end(),
    };
  }
  const mysql = await import('mysql2/promise');
  const url = where.includes('://') ? where : `mysql://root@127.0.0.1:3306/${where}`;
  const connection = await mysql.createConnection({ uri: url, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
  return { query: async (sql, params = []) => (await connection.query(sql, [...params]))[0], close: () => connection.end() };
}

/** Indented JSON with one line per column, index and foreign key: a diff of two dumps shows one line per difference. */
function format(layout) {
  const line = (value) => JSON.stringify(value);
  const list = (items, indent) => (items.length === 0 ? '[]' : `[\n${items.map((item) => `${indent}  ${line(item)}`).join(',\n')}\n${indent}]`);
  const tables = layout.tables.map((t) =>
    [
      `    {`,
      `      "name": ${line(t.name)},`,
      `      "columns": ${list(t.columns, '      ')},`,
      `      "primaryKey": ${line(t.primaryKey)},`,
      `      "indexes": ${list(t.indexes, '      ')},`,
      `      "foreignKeys": ${list(t.foreignKeys, '      ')}`,
      `    }`,
    ].join('\n'),
  );
  return `{\n  "client": ${line(layout.client)},\n  "tables": [\n${tables.join(',\n')}\n  ]\n}\n`;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
