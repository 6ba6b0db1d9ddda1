import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createCairn, type Cairn } from '../../src/app/cairn.js';
import type { DatabaseConfig, DialectName } from '../../src/database/types.js';
import type { AppConfig } from '../../src/project/types.js';
import { freshDatabaseConfig } from './databases.js';
import type { ApiTokens } from '../../src/auth/index.js';
import { createLogger } from '../../src/app/logger.js';

export interface TestSchemas {
  /** `api` name -> schema.json object (the content-type's singularName names its folder). */
  contentTypes: Record<string, object>;
  /** `category.name` -> component JSON. */
  components?: Record<string, object>;
  /** Extra config files: name -> object (e.g. `plugins`). */
  config?: Record<string, object>;
  /** Source of src/index.js, if any. */
  index?: string;
}

export interface TestApp {
  cairn: Cairn;
  dir: string;
  /** The full-access API key requests carry by default. */
  token: string;
  /** What the app logged so far (pino's JSON lines, parsed): the helper keeps them instead of printing them. */
  logs(): Array<{ level: number; msg: string; err?: { type: string; message: string; stack: string } } & Record<string, unknown>>;
  request(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; raw: string }>;
  close(): Promise<void>;
}

/** Writes a Strapi-layout app folder for the given schemas. */
export function writeApp(schemas: TestSchemas): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-app-'));
  for (const [api, schema] of Object.entries(schemas.contentTypes)) {
    const name = (schema as { info: { singularName: string } }).info.singularName;
    const folder = join(dir, 'src', 'api', api, 'content-types', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'schema.json'), JSON.stringify(schema, null, 2));
  }
  for (const [uid, component] of Object.entries(schemas.components ?? {})) {
    const [category, name] = uid.split('.');
    mkdirSync(join(dir, 'src', 'components', category), { recursive: true });
    writeFileSync(join(dir, 'src', 'components', category, `${name}.json`), JSON.stringify(component, null, 2));
  }
  mkdirSync(join(dir, 'config'), { recursive: true });
  for (const [name, value] of Object.entries(schemas.config ?? {})) {
    writeFileSync(join(dir, 'config', `${name}.json`), JSON.stringify(value, null, 2));
  }
  if (schemas.index) writeFileSync(join(dir, 'src', 'index.js'), schemas.index);
  return dir;
}

/** Writes files (path in the app folder -> text) into an app folder: server code, config files... */
/** The error that stops Cairn's start on the app in `dir` (on SQLite, in its .tmp/); fails the test if it starts. */
export async function startupError(dir: string): Promise<string> {
  try {
    const cairn = await createCairn({
      dir,
      config: { database: { connection: { client: 'sqlite', connection: { filename: join(dir, '.tmp', 'data.db') } } } } as never,
      log: createLogger({ write: () => undefined }),
    });
    await cairn.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the app started');
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Starts a real Cairn on a fresh database of `dialect` for an app folder (written from schemas, or given). */
export async function startTestApp(dialect: DialectName, app: TestSchemas | string): Promise<TestApp> {
  const dir = typeof app === 'string' ? app : writeApp(app);
  const database = await freshDatabaseConfig(dialect);
  const lines: string[] = [];
  const log = createLogger({ write: (line: string) => void lines.push(line) });
  const cairn = await createCairn({ dir, config: { database: database.config } as never, log });
  // Requests carry a full-access API token unless a test passes its own `authorization` header ('' for none).
  const tokens = cairn.plugin('users-permissions').service<ApiTokens>('tokens');
  const { key } = await tokens.create({ name: 'tests', type: 'full-access' });
  return {
    cairn,
    dir,
    token: key,
    logs: () => lines.map((line) => JSON.parse(line)),
    request: requester(cairn, { authorization: `Bearer ${key}` }),
    async close() {
      await cairn.close();
      await database.drop();
      if (typeof app !== 'string') rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a real Cairn for the app folder `dir` on a database that exists already (`database`: e.g. a copy of a
 * database Strapi made), with `config` merged over the app's. Nothing is created for the test: requests carry no
 * credentials unless they pass an `authorization` header. close() stops the app; the database is the caller's.
 */
export async function startAppOn(dir: string, database: DatabaseConfig, config: Record<string, unknown> = {}): Promise<Omit<TestApp, 'token'>> {
  const lines: string[] = [];
  const log = createLogger({ write: (line: string) => void lines.push(line) });
  const cairn = await createCairn({ dir, config: { ...config, database } as Partial<AppConfig> as never, log });
  return {
    cairn,
    dir,
    logs: () => lines.map((line) => JSON.parse(line)),
    request: requester(cairn, {}),
    close: () => cairn.close(),
  };
}

/** Requests to the app through fastify's inject; `headers` go with each unless a request overrides them (an empty authorization: none). */
function requester(cairn: Cairn, headers: Record<string, string>): TestApp['request'] {
  return async (method, url, body, given = {}) => {
    const sent: Record<string, string> = { ...headers, ...given };
    if (sent.authorization === '') delete sent.authorization;
    const response = await cairn.fastify.inject({
      method: method as 'GET',
      url,
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      headers: body === undefined ? sent : { 'content-type': 'application/json', ...sent },
    });
    const raw = response.body;
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = raw;
    }
    return { status: response.statusCode, body: parsed, raw };
  };
}
