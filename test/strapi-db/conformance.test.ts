import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import type { DialectName } from '../../src/database/types.js';
import { STRAPI_FIXTURE_DIR } from '../helpers/strapi-fixture.js';
import { openStrapiFixtureApp, STRAPI_SECRETS, type StrapiFixtureApp } from '../helpers/strapi-app.js';

/**
 * Cairn on the databases that real Strapi made answers what Strapi itself answered on them: every golden of
 * test/fixtures/strapi-db/goldens/<dialect> (Strapi 5.54.0 on the same database: its README) is replayed with the
 * same credentials (the token Strapi issued, none for the public role, a wrong one, a user's JWT from Strapi's
 * users table) and compared by the conformance kit's compare.mjs, with Cairn's deliberate differences.
 */
const KIT = join(import.meta.dirname, '..', 'fixtures', 'conformance');
const WRONG_TOKEN = 'Bearer not-a-valid-token-0123456789';

interface Golden {
  name: string;
  request: { method: 'GET' | 'POST'; path: string; resolvedPath: string; auth: 'token' | 'none' | 'badtoken' | 'jwt'; body?: unknown };
}

/**
 * Cairn's deliberate differences (strict input where Strapi answers 200 or 500: README's table), the kit's and
 * Cairn's deviation files merged. An `override` compares with data recorded on a fresh seed, which these databases
 * are not: such entries are left out (their queries compare with Strapi's answer on this database instead).
 */
function deviations(dialect: DialectName, work: string): Record<string, unknown> {
  const merged = {
    ...JSON.parse(readFileSync(join(KIT, 'deviations.json'), 'utf8')),
    ...JSON.parse(readFileSync(join(import.meta.dirname, '..', 'conformance', 'rest', 'deviations.json'), 'utf8')),
  } as Record<string, { override?: boolean }>;
  const kept: Record<string, unknown> = Object.fromEntries(Object.entries(merged).filter(([, d]) => !d.override));
  // Where Strapi's answer depends on the database (NULL order, a 500 on PostgreSQL) and Cairn's does not: Strapi's
  // answer on another database is the one Cairn gives (test/strapi-db/deviations.json, each with its reason).
  const own = (JSON.parse(readFileSync(join(import.meta.dirname, 'deviations.json'), 'utf8')) as Record<string, Record<string, { sameAs: DialectName }>>)[dialect] ?? {};
  mkdirSync(join(work, 'overrides'), { recursive: true });
  for (const [name, { sameAs }] of Object.entries(own)) {
    copyFileSync(join(STRAPI_FIXTURE_DIR, 'goldens', sameAs, `${name}.json`), join(work, 'overrides', `${name}.json`));
    kept[name] = { override: true };
  }
  return kept;
}

describeEachDialect("Strapi's own answers on the database it made", (dialect) => {
  const goldenDir = join(STRAPI_FIXTURE_DIR, 'goldens', dialect);
  let app: StrapiFixtureApp;
  let work: string;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
    work = mkdtempSync(join(tmpdir(), 'cairn-strapi-goldens-'));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('every recorded request answers as Strapi did', { timeout: 300_000 }, async () => {
    const login = await app.request('POST', '/api/auth/local', { identifier: STRAPI_SECRETS.user.email, password: STRAPI_SECRETS.user.password }, '');
    expect(login.statusCode, login.body).toBe(200);
    const jwt = `Bearer ${login.json().jwt}`;
    const names: string[] = [];
    const out = join(work, 'actual');
    mkdirSync(out, { recursive: true });
    for (const file of readdirSync(goldenDir).filter((f) => f.endsWith('.json') && !f.startsWith('_'))) {
      const golden = JSON.parse(readFileSync(join(goldenDir, file), 'utf8')) as Golden;
      const { method, resolvedPath, auth } = golden.request;
      // A body names documents by placeholder (`{{article:30}}`), resolved as the kit's record.mjs resolves them.
      const body = golden.request.body === undefined ? undefined : JSON.parse(await resolvePlaceholders(app, JSON.stringify(golden.request.body)));
      const authorization = { token: undefined, none: '', badtoken: WRONG_TOKEN, jwt }[auth];
      const response = await app.request(method, resolvedPath, body, authorization);
      let parsed: unknown = null;
      try {
        parsed = response.body ? JSON.parse(response.body) : null;
      } catch {
        parsed = response.body;
      }
      writeFileSync(join(out, file), JSON.stringify({ name: golden.name, request: golden.request, status: response.statusCode, body: parsed }));
      names.push(golden.name);
    }
    writeFileSync(join(work, 'names.txt'), names.join('\n'));
    writeFileSync(join(work, 'deviations.json'), JSON.stringify(deviations(dialect, work)));
    const compare = spawnSync(process.execPath, [join(KIT, 'compare.mjs')], {
      encoding: 'utf8',
      env: { ...process.env, GOLDEN_DIR: goldenDir, ACTUAL_DIR: out, DEVIATIONS: join(work, 'deviations.json'), NAMES: join(work, 'names.txt'), VERBOSE: '1' },
    });
    expect(compare.stdout.split("\n").filter((l) => l.startsWith("  ")).join("\n")).toBe("");
    expect(compare.stdout).toContain(`${names.length} of ${names.length} match the reference`);
    expect(compare.status).toBe(0);
  });
});

const pad = (n: string, width: number) => n.padStart(width, '0');

/** What `{{kind:arg}}` stands for (record.mjs's lookups): a documentId found by a unique field, or a file's id. */
async function resolvePlaceholders(app: StrapiFixtureApp, text: string): Promise<string> {
  const keys = [...new Set([...text.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]))];
  for (const key of keys) {
    const [kind, arg] = key.split(/:(.*)/s);
    const lookups: Record<string, [string, string, string, string]> = {
      restaurant: ['restaurants', 'slug', '$endsWith', `-${pad(arg, 3)}`],
      article: ['articles', 'title', '$startsWith', `Article ${pad(arg, 4)} `],
      chef: ['chefs', 'email', '$eq', `chef${pad(arg, 3)}@example.com`],
      author: ['authors', 'email', '$eq', `author${pad(arg, 3)}@example.com`],
      dish: ['dishes', 'name', '$startsWith', `Dish ${pad(arg, 3)} `],
      category: ['categories', 'name', '$eq', arg],
    };
    let value: unknown;
    if (kind === 'file') {
      value = (await app.get(`/api/upload/files?filters[name][$eq]=${encodeURIComponent(arg)}`)).json()[0].id;
    } else {
      const [plural, field, op, wanted] = lookups[kind];
      const found = (await app.get(`/api/${plural}?status=draft&fields[0]=${field}&pagination[pageSize]=2&filters[${field}][${op}]=${encodeURIComponent(wanted)}`)).json();
      if (found.data?.length !== 1) throw new Error(`placeholder ${key}: ${JSON.stringify(found).slice(0, 200)}`);
      value = found.data[0].documentId;
    }
    text = text.split(`{{${key}}}`).join(String(value));
  }
  return text;
}
