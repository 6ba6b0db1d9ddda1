// One throw-away database per dialect for the interop run: created empty, described by the DATABASE_* variables that
// both the Strapi fixture app and the conformance app read, and dropped at the end.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';

const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', password: '' };
const MYSQL = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

/**
 * A fresh database for `dialect`. SQLite: `<workDir>/db/data.db`, named to both apps relative to their folders
 * (which are `<workDir>/<app>`: the conformance app's config joins the name to its folder, so it must be relative).
 * PostgreSQL and MySQL: `cairn_interop_<dialect><suffix>` (each test its own suffix, so --keep keeps them all).
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
