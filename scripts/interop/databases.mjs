// One throw-away database per dialect for the interop run: created empty, described by the DATABASE_* variables that
// both the Strapi fixture app and the conformance app read, and dropped at the end.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';

const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', password: '' };
const MYSQL = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

/**
 * A fresh database for `dialect` (`suffix` tells apart the databases of the harness's tests). SQLite: `<workDir>/db/data.db`, named to both apps relative to their folders
 * (which are `<workDir>/<app>`: the conformance app's config joins the name to its folder, so it must be relative).
 * Returns { env, layoutTarget, drop() }.
 */
export async function freshDatabase(dialect, workDir, suffix = '') {
  if (dialect === 'sqlite') {
    mkdirSync(join(workDir, 'db'), { recursive: true });
    const file = join(workDir, 'db', 'data.db');
    return {
      env: { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: '../db/data.db' },
      layoutTarget: file,
      drop: async () => rmSync(join(workDir, 'db'), { recursive: true, force: true }),
    };
  }
  const name = `cairn_interop_${dialect}${suffix}`;
  if (dialect === 'postgres') {
    await pgAdmin(async (c) => {
      // a leftover of an interrupted run of this harness (the name is this harness's own)
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${name}`);
    });
    return {
      env: dbEnv('postgres', PG, name),
      layoutTarget: name,
      drop: () => pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
    };
  }
  if (dialect === 'mysql') {
    await mysqlAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    });
    return {
      env: dbEnv('mysql', MYSQL, name),
      layoutTarget: name,
      drop: () => mysqlAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name}`)),
    };
  }
  throw new Error(`unknown dialect ${dialect} (sqlite, postgres or mysql)`);
}

/**
 * The number of rows of each of `tables` in the database `target` (a layoutTarget of `freshDatabase`), as
 * { table: count }: two databases seeded alike must hold as many rows in each table, whatever their ids.
 */
export async function countRows(dialect, target, tables) {
  const counts = {};
  if (dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(target, { readonly: true, fileMustExist: true });
    try {
      for (const table of tables) counts[table] = Number(db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get().n);
    } finally {
      db.close();
    }
  } else if (dialect === 'postgres') {
    const c = new pg.Client({ ...PG, database: target });
    await c.connect();
    try {
      for (const table of tables) counts[table] = Number((await c.query(`SELECT COUNT(*) AS n FROM ${c.escapeIdentifier(table)}`)).rows[0].n);
    } finally {
      await c.end();
    }
  } else {
    const c = await mysql.createConnection({ ...MYSQL, database: target });
    try {
      for (const table of tables) counts[table] = Number((await c.query(`SELECT COUNT(*) AS n FROM \`${table}\``))[0][0].n);
    } finally {
      await c.end();
    }
  }
  return counts;
}

function dbEnv(client, server, name) {
  return {
    DATABASE_CLIENT: client,
    DATABASE_HOST: server.host,
    DATABASE_PORT: String(server.port),
    DATABASE_NAME: name,
    DATABASE_USERNAME: server.user,
    DATABASE_PASSWORD: server.password,
  };
}

async function pgAdmin(fn) {
  const c = new pg.Client({ ...PG, database: 'postgres' });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

async function mysqlAdmin(fn) {
  const c = await mysql.createConnection(MYSQL);
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}
