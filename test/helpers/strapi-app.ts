import type { LightMyRequestResponse } from 'fastify';
import { join } from 'node:path';
import { loadCairn, type Cairn } from '../../src/app/cairn.js';
import { installBodyParsers, installErrorHandling, registerContentApi } from '../../src/rest/index.js';
import { OPEN_ACCESS } from '../../src/auth/access-control.js';
import { readLayout, type DatabaseLayout } from '../../src/database/layout.js';
import type { Database, DialectName } from '../../src/database/types.js';
import { loadStrapiFixture } from './strapi-fixture.js';

export const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');

/** Cairn's REST Content API on a copy of the database that real Strapi made for `dialect`, every action allowed. */
export interface StrapiFixtureApp {
  cairn: Cairn;
  get(url: string): Promise<LightMyRequestResponse>;
  send(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The content API alone, open to every caller: what the read compiler and the document service answer on Strapi's
 * tables, apart from permissions (test/auth covers those on the same databases).
 */
export async function openStrapiFixtureApp(dialect: DialectName): Promise<StrapiFixtureApp> {
  const fixture = await loadStrapiFixture(dialect);
  try {
    const cairn = await loadCairn({ dir: CONFORMANCE_APP, config: { database: fixture.config } as never });
    installErrorHandling(cairn.fastify, cairn.log);
    installBodyParsers(cairn.fastify);
    registerContentApi(cairn.fastify, {
      model: cairn.model,
      documents: (uid) => cairn.documents(uid),
      readSettings: cairn.readSettings,
      locales: cairn.locales,
      access: () => OPEN_ACCESS,
    });
    await cairn.fastify.ready();
    return {
      cairn,
      get: (url) => cairn.fastify.inject({ method: 'GET', url }),
      send: (method, url, body) =>
        cairn.fastify.inject({ method, url, ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) }),
      async close() {
        await cairn.db.close();
        await fixture.drop();
      },
    };
  } catch (error) {
    await fixture.drop();
    throw error;
  }
}

/** Everything a database holds that a write would change: its layout and every table's row count. */
export async function databaseState(db: Database): Promise<{ layout: DatabaseLayout; rows: Record<string, number> }> {
  const layout = await readLayout((sql, params) => db.query(sql, params), db.dialect);
  const rows: Record<string, number> = {};
  for (const table of layout.tables) {
    const [row] = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${db.quote(table.name)}`);
    rows[table.name] = Number(row.n);
  }
  return { layout, rows };
}
