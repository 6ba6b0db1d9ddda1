import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/project/config.js';
import { ConfigError } from '../../src/errors/index.js';
import { answerHeaders, corsConfig, applicationMiddlewares, jsonBodyLimit, multipartFileLimit, queryStringLimits } from '../../src/project/middlewares.js';
import { byteSize } from '../../src/project/config-values.js';
import { folder, removeFolders, withEnv } from './fixtures.js';

afterAll(removeFolders);

const CONFORMANCE_APP = join(import.meta.dirname, '../fixtures/conformance/app');
const COMMONJS = { 'package.json': '{ "type": "commonjs" }' };

describe('config folder: formats', () => {
  it('loads the conformance app unchanged (CommonJS functions of env)', async () => {
    const config = await loadConfig(CONFORMANCE_APP);
    expect(config.server.port).toBe(1337);
    expect(config.server.host).toBe('127.0.0.1');
    expect(config.api.rest).toEqual({ defaultLimit: 25, maxLimit: 100, withCount: true });
    expect((config.plugins.i18n.config as { locales: string[] }).locales).toEqual(['en', 'fr']);
    expect(Object.keys(config.permissions!.roles!)).toEqual(['public', 'authenticated']);
    expect(config.permissions!.roles!.public.permissions).toContain('api::restaurant.restaurant.find');
    expect(config.database.connection.client).toBe('sqlite');
    expect(config.dir).toBe(CONFORMANCE_APP);
  });

  it('reads objects and ({ env }) functions from .js (CommonJS), .cjs, .mjs, .ts and .json', async () => {
    const dir = folder({
      ...COMMONJS,
      'config/server.js': 'module.exports = ({ env }) => ({ host: env("CAIRN_T_HOST", "0.0.0.0"), port: env.int("CAIRN_T_PORT", 1) });',
      'config/api.cjs': 'module.exports = { rest: { defaultLimit: 10, maxLimit: 50, withCount: false } };',
      'config/plugins.mjs': 'export default ({ env }) => ({ i18n: { config: { locales: env.array("CAIRN_T_LOCALES") } } });',
      'config/admin.ts': 'interface Admin { auth: { secret: string } }\nconst admin: Admin = { auth: { secret: "s" } };\nexport default admin;',
      'config/permissions.json': '{ "roles": { "public": { "permissions": ["api::a.a.find"] } } }',
    });
    const config = await withEnv({ CAIRN_T_PORT: '4242', CAIRN_T_LOCALES: 'en,de', CAIRN_T_HOST: undefined }, () => loadConfig(dir));
    expect(config.server).toEqual({ host: '0.0.0.0', port: 4242 });
    expect(config.api.rest).toEqual({ defaultLimit: 10, maxLimit: 50, withCount: false });
    expect(config.plugins).toEqual({ i18n: { config: { locales: ['en', 'de'] } } });
    expect(config.admin).toEqual({ auth: { secret: 's' } });
    expect(config.permissions).toEqual({ roles: { public: { permissions: ['api::a.a.find'] } } });
  });

  it('takes ESM syntax in a CommonJS package, CommonJS in a "type": "module" one, and named ESM exports', async () => {
    const esmInCjs = folder({ ...COMMONJS, 'config/server.js': 'export default { port: 2001 };' });
    expect((await loadConfig(esmInCjs)).server.port).toBe(2001);
    const cjsInEsm = folder({ 'package.json': '{ "type": "module" }', 'config/server.js': 'module.exports = { port: 2002 };' });
    expect((await loadConfig(cjsInEsm)).server.port).toBe(2002);
    const topLevelAwait = folder({ 'config/server.mjs': 'const port = await Promise.resolve(2003);\nexport default { port };' });
    expect((await loadConfig(topLevelAwait)).server.port).toBe(2003);
    const asyncFunction = folder({ ...COMMONJS, 'config/server.js': 'module.exports = async () => ({ port: 2004 });' });
    expect((await loadConfig(asyncFunction)).server.port).toBe(2004);
  });

  it('.env in the app folder feeds env() without overriding real variables', async () => {
    const dir = folder({ ...COMMONJS, '.env': 'CAIRN_T_DOTPORT=4343\nCAIRN_T_DOTHOST=10.0.0.1\n', 'config/server.js': 'module.exports = ({ env }) => ({ host: env("CAIRN_T_DOTHOST"), port: env.int("CAIRN_T_DOTPORT") });' });
    const config = await withEnv({ CAIRN_T_DOTPORT: undefined, CAIRN_T_DOTHOST: '127.0.0.2' }, async () => {
      try {
        return await loadConfig(dir);
      } finally {
        delete process.env.CAIRN_T_DOTPORT;
      }
    });
    expect(config.server).toEqual({ host: '127.0.0.2', port: 4343 });
  });

  it("a .ts config sees the __dirname Strapi gives it (<app>/dist/config: Strapi runs the compiled file), so its database lands in the app", async () => {
    const database = `import path from 'path';
      export default ({ env }: { env: (key: string, fallback: string) => string }) => ({
        connection: { client: 'sqlite', connection: { filename: path.join(__dirname, '..', '..', env('CAIRN_T_DBFILE', '.tmp/data.db')) } },
      });`;
    const dir = folder({ 'config/database.ts': database, 'config/server.ts': 'export default { host: __filename };' });
    const config = await withEnv({ CAIRN_T_DBFILE: undefined }, () => loadConfig(dir));
    expect(config.database.connection.connection.filename).toBe(join(dir, '.tmp', 'data.db'));
    expect(config.server.host).toBe(join(dir, 'dist', 'config', 'server.js'));
    // config/env/<env>/ files are compiled to dist/config/env/<env>/; tsconfig.json's outDir replaces dist (comments and
    // trailing commas are allowed there, as TypeScript allows them).
    const built = folder({
      'tsconfig.json': '{\n  // Strapi template\n  "compilerOptions": { "outDir": "build/out", "rootDir": "." /* "outDir": "x" */, },\n}',
      'config/env/staging/server.ts': 'export default { host: __dirname };',
    });
    expect((await withEnv({ NODE_ENV: 'staging' }, () => loadConfig(built))).server.host).toBe(join(built, 'build', 'out', 'config', 'env', 'staging'));
    // JavaScript runs where it is (Strapi's JavaScript projects have no dist/), and imports resolve from the real folder.
    const js = folder({ ...COMMONJS, 'config/server.js': 'module.exports = { host: __dirname };', 'config/api.ts': 'import { rest } from "./rest";\nexport default { rest };', 'config/rest.ts': 'export const rest = { defaultLimit: 5 };' });
    const jsConfig = await loadConfig(js);
    expect(jsConfig.server.host).toBe(join(js, 'config'));
    expect(jsConfig.api.rest.defaultLimit).toBe(5);
  });

  it('a changed file is read again by the next load (no stale module cache)', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = folder({ ...COMMONJS, 'config/server.js': 'module.exports = { port: 3001 };' });
    expect((await loadConfig(dir)).server.port).toBe(3001);
    writeFileSync(join(dir, 'config/server.js'), 'module.exports = { port: 3002 };');
    expect((await loadConfig(dir)).server.port).toBe(3002);
  });

  it('config files Cairn does not read (Strapi cron-tasks.js, features.js) are ignored', async () => {
    const dir = folder({ ...COMMONJS, 'config/cron-tasks.js': 'nonsense(', 'config/features.js': 'throw new Error("must not load")' });
    await expect(loadConfig(dir)).resolves.toBeTruthy();
  });
});

describe('config/middlewares: Strapi\'s list: the app\'s middlewares, and Strapi\'s mapped to Cairn\'s', () => {
  const TEMPLATE = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];
  const load = async (files: Record<string, string>, overrides = {}) => {
    const warnings: string[] = [];
    const config = await loadConfig(folder({ ...COMMONJS, ...files }), overrides, { warn: (m) => warnings.push(m) });
    return { config, warnings, limits: queryStringLimits(config.middlewares) };
  };

  it("Strapi's template list (names, or { name, config }) starts quietly; strapi::query's config sets the limits", async () => {
    const plain = await load({ 'config/middlewares.js': `module.exports = ${JSON.stringify(TEMPLATE)};` });
    expect(plain.config.middlewares).toEqual(TEMPLATE);
    expect(plain.limits).toEqual({});
    expect(plain.warnings).toEqual([]);
    const objects = TEMPLATE.map((name) => (name === 'strapi::query' ? { name, config: { arrayLimit: 155, depth: 30, parameterLimit: 2000 } } : { name }));
    const configured = await load({ 'config/middlewares.json': JSON.stringify(objects) });
    expect(configured.limits).toEqual({ arrayLimit: 155, depth: 30, parameterLimit: 2000 });
    expect(configured.warnings).toEqual([]);
    // No file: Strapi's defaults (the query layer's), nothing in the config.
    const none = await load({ 'config/server.json': '{}' });
    expect(none.config.middlewares).toBeUndefined();
    expect(none.limits).toEqual({});
  });

  it('({ env }) => list in .ts or .mjs, numbers from env() strings; config/env/<NODE_ENV>/ replaces the list; an override replaces both', async () => {
    const ts = await withEnv({ CAIRN_T_QS: '150' }, () =>
      load({ 'config/middlewares.ts': "export default ({ env }: { env: (k: string) => string }) => ['strapi::errors', { name: 'strapi::query', config: { arrayLimit: env('CAIRN_T_QS') } }];" }),
    );
    expect(ts.limits).toEqual({ arrayLimit: 150 });
    const files = {
      'config/middlewares.mjs': "export default [{ name: 'strapi::query', config: { arrayLimit: 150 } }];",
      'config/env/staging/middlewares.js': "module.exports = ['strapi::errors', { name: 'strapi::query', config: { depth: 25 } }];",
    };
    expect((await load(files)).limits).toEqual({ arrayLimit: 150 });
    expect((await withEnv({ NODE_ENV: 'staging' }, () => load(files))).limits).toEqual({ depth: 25 });
    expect((await load(files, { middlewares: [{ name: 'strapi::query', config: { parameterLimit: 10 } }] })).limits).toEqual({ parameterLimit: 10 });
  });

  it("what Cairn does not apply is a warning naming the file, the entry and why", async () => {
    const { config, warnings } = await load({
      'config/middlewares.js': `module.exports = [
        'strapi::errors',
        { name: 'strapi::security', config: { contentSecurityPolicy: false } },
        { name: 'strapi::cors', config: { origin: ['https://example.org'], credentials: true } },
        'plugin::users-permissions.rateLimit',
        { name: 'strapi::body', config: { jsonLimit: '10mb', formLimit: '10mb', formidable: { maxFileSize: 1, keepExtensions: true }, patchKoa: true, jsonLimt: 1 } },
        { name: 'strapi::poweredBy', config: { poweredBy: 'Me', header: 'x' } },
        { name: 'strapi::responseTime', config: { precise: true } },
        'strapi::query',
        { name: 'strapi::session', config: { key: 'koa.sess' } },
      ];`,
    });
    const file = join(config.dir, 'config', 'middlewares.js');
    expect(warnings).toEqual([
      `${file}: middlewares[3] "plugin::users-permissions.rateLimit" is not applied: Cairn runs no plugin's middlewares (its plugins are its own)`,
      `${file}: middlewares[4] "strapi::body" config.formLimit is not applied: Cairn parses no urlencoded form bodies (they are answered 415) (Cairn applies jsonLimit and formidable.maxFileSize of strapi::body)`,
      `${file}: middlewares[4] "strapi::body" config.formidable.keepExtensions is not applied: of formidable's options Cairn applies maxFileSize, to the files of the app's routes' multipart bodies (the media library's limit is config/plugins' upload.config.sizeLimit) (Cairn applies jsonLimit and formidable.maxFileSize of strapi::body)`,
      `${file}: middlewares[4] "strapi::body" config.jsonLimt is not an option of koa-body, which strapi::body passes its config to: did you mean jsonLimit? (Cairn applies jsonLimit and formidable.maxFileSize of strapi::body)`,
      `${file}: middlewares[5] "strapi::poweredBy" config.header is not an option of strapi::poweredBy: it takes poweredBy (the X-Powered-By header's value)`,
      `${file}: middlewares[6] "strapi::responseTime" has a config: strapi::responseTime takes none`,
      `${file}: middlewares[8] "strapi::session" has a config Cairn does not apply (of Strapi's middlewares Cairn applies strapi::query's qs limits, strapi::body's jsonLimit and formidable.maxFileSize, strapi::security, strapi::cors, strapi::ip, strapi::poweredBy, strapi::responseTime, strapi::public, strapi::favicon, strapi::compression, strapi::logger and strapi::responses)`,
    ]);
    expect(jsonBodyLimit(config.middlewares)).toBe(10 * 1024 * 1024);
    expect(multipartFileLimit(config.middlewares)).toBe(1);
    expect(answerHeaders(config.middlewares)).toEqual({ poweredBy: 'Me', responseTime: true });
    expect(answerHeaders(['strapi::poweredBy'])).toEqual({ poweredBy: 'Strapi <strapi.io>', responseTime: false });
    expect(answerHeaders(['strapi::errors'])).toEqual({ poweredBy: undefined, responseTime: false });
    expect(jsonBodyLimit(['strapi::body'])).toBeUndefined();
    expect(corsConfig(config.middlewares)).toEqual({
      origins: ['https://example.org'],
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
      maxAge: 31536000,
    });
    expect(corsConfig(['strapi::errors'])).toBeUndefined();
    expect(corsConfig([{ name: 'strapi::cors', config: { origin: 'https://a.example, https://b.example', expose: 'X-Total', maxAge: '60', credentials: false } }])).toMatchObject({
      origins: ['https://a.example', 'https://b.example'],
      expose: ['X-Total'],
      maxAge: 60,
      credentials: false,
    });
  });

  it("strapi::cors' options are checked, and what Cairn cannot take stops the start, named", async () => {
    const attempt = (config: string) => load({ 'config/middlewares.js': `module.exports = [{ name: 'strapi::cors', config: ${config} }];` }).then(
      ({ warnings }) => warnings,
      (error: Error) => error.message,
    );
    expect(await attempt('{ origin: (ctx) => "*" }')).toMatch(/middlewares\[0\]\.config\.origin \(strapi::cors\) is a function: Cairn takes a list of values or a comma-separated string$/);
    expect(await attempt('{ origin: 5 }')).toMatch(/config\.origin \(strapi::cors\) must be a list of strings or a comma-separated string, not 5$/);
    expect(await attempt('{ credentials: "yes" }')).toMatch(/config\.credentials \(strapi::cors\) must be true or false, not "yes"$/);
    expect(await attempt('{ maxAge: -1 }')).toMatch(/config\.maxAge \(strapi::cors\) must be a number of seconds, not -1$/);
    expect(await attempt('{ orgin: "*" }')).toMatch(/config\.orgin \(strapi::cors\) is not an option of strapi::cors: it takes origin, credentials/);
    expect(await attempt('{ enabled: false }')).toEqual([expect.stringMatching(/"strapi::cors" config\.enabled is no longer an option of strapi::cors: to disable CORS, remove strapi::cors from the list$/)]);
  });

  it("koa-body's sizes: bytes, or a number with a unit (powers of 1024)", () => {
    expect([byteSize(2048), byteSize('1mb'), byteSize('1.5KB'), byteSize(' 10 gb '), byteSize('512')]).toEqual([2048, 1048576, 1536, 10 * 1024 ** 3, 512]);
    expect([byteSize(0), byteSize(-1), byteSize(1.5), byteSize('ten mb'), byteSize('1zb'), byteSize(null)]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it("the app's middlewares: global::<file>, api::<api>.<file>, { resolve } (a path or a package), in list order with their configs", async () => {
    const { config, warnings } = await load({
      'config/middlewares.js': `module.exports = [
        'global::first',
        'strapi::errors',
        { name: 'api::article.audit', config: { level: 2 } },
        { resolve: './lib/mw' },
        { resolve: 'some-middleware', config: null },
        { name: 'global::first', resolve: './ignored' },
      ];`,
      'src/middlewares/first.ts': 'export default () => undefined;',
      'src/api/article/middlewares/audit.js': 'module.exports = () => undefined;',
      'lib/mw/index.js': 'module.exports = () => undefined;',
      'node_modules/some-middleware/package.json': '{ "name": "some-middleware", "main": "main.js" }',
      'node_modules/some-middleware/main.js': 'module.exports = () => undefined;',
    });
    expect(warnings).toEqual([]);
    const { middlewares, errorsAt } = applicationMiddlewares(config.middlewares, config.dir);
    expect(errorsAt).toBe(1);
    expect(middlewares).toEqual([
      { at: 0, name: 'global::first', byName: true, file: join(config.dir, 'src/middlewares/first.ts'), config: {} },
      { at: 2, name: 'api::article.audit', byName: true, file: join(config.dir, 'src/api/article/middlewares/audit.js'), config: { level: 2 } },
      { at: 3, name: './lib/mw', byName: false, file: join(config.dir, 'lib/mw/index.js'), config: {} },
      // Strapi defaults only an absent config to {}.
      { at: 4, name: 'some-middleware', byName: false, file: join(config.dir, 'node_modules/some-middleware/main.js'), config: null },
      // A name wins over resolve, as in Strapi.
      { at: 5, name: 'global::first', byName: true, file: join(config.dir, 'src/middlewares/first.ts'), config: {} },
    ]);
  });

  it('a bad value stops the start with an error naming the file and the key', async () => {
    const fails = async (list: string, message: string) => {
      const dir = folder({ ...COMMONJS, 'config/middlewares.js': `module.exports = ${list};` });
      const file = join(dir, 'config', 'middlewares.js');
      await expect(loadConfig(dir, {}, { warn: () => undefined })).rejects.toThrow(new ConfigError(`${file}: ${message.replaceAll('<DIR>', dir)}`));
    };
    const query = (config: string) => `['strapi::errors', { name: 'strapi::query', config: ${config} }]`;
    await fails(query('{ arrayLimit: 0 }'), 'middlewares[1].config.arrayLimit (strapi::query) must be a positive integer, not 0');
    await fails(query('{ arrayLimit: -5 }'), 'middlewares[1].config.arrayLimit (strapi::query) must be a positive integer, not -5');
    await fails(query('{ depth: 2.5 }'), 'middlewares[1].config.depth (strapi::query) must be a positive integer, not 2.5');
    await fails(query('{ parameterLimit: "many" }'), 'middlewares[1].config.parameterLimit (strapi::query) must be a positive integer, not "many"');
    await fails(query('{ arrayLimt: 155 }'), 'middlewares[1].config.arrayLimt (strapi::query) is not an option Cairn applies: did you mean arrayLimit? Cairn takes arrayLimit, depth, parameterLimit');
    await fails(query('{ strictNullHandling: true }'), 'middlewares[1].config.strictNullHandling (strapi::query) is not an option Cairn applies: Cairn takes arrayLimit, depth, parameterLimit');
    await fails(query('155'), 'middlewares[1].config (strapi::query) must be an object of qs options (arrayLimit, depth, parameterLimit), not 155');
    await fails("['strapi::query', { name: 'strapi::query' }]", 'middlewares[1] lists strapi::query again (it is middlewares[0] already)');
    await fails("['strapi::qeury']", 'middlewares[0] "strapi::qeury" is not one of Strapi\'s middlewares: did you mean strapi::query?');
    await fails("[{ name: 'strapi::query', options: { arrayLimit: 155 } }]", 'middlewares[0].options is not a key of a middleware entry: Strapi takes name, resolve and config');
    await fails('[{ config: {} }]', 'middlewares[0] must have a name (or a resolve path)');
    await fails('[42]', "middlewares[0] must be a middleware's name or { name, config }, not 42");
    await fails('{ query: { arrayLimit: 155 } }', 'middlewares must be an array of middlewares (names, or { name, config }), as Strapi takes it, not {"query":{"arrayLimit":155}}');
    await fails("[{ name: 'strapi::body', config: { jsonLimit: 'lots' } }]", 'middlewares[0].config.jsonLimit (strapi::body) must be a size in bytes (a positive integer, or a string like "10mb"), not "lots"');
    await fails("[{ name: 'strapi::poweredBy', config: { poweredBy: 42 } }]", 'middlewares[0].config.poweredBy (strapi::poweredBy) must be a non-empty string, not 42');
    await fails("['strapi::body', { name: 'strapi::body' }]", 'middlewares[1] lists strapi::body again (it is middlewares[0] already)');
    await fails("['global::audit']", 'middlewares[0] "global::audit" has no file: there is no <DIR>/src/middlewares/audit.js (or .ts, .mjs, .cjs) (there is no <DIR>/src/middlewares folder)');
    await fails("['api::article']", 'middlewares[0] "api::article" is not a middleware uid: an API\'s middleware is api::<api>.<file> (src/api/<api>/middlewares/<file>.js)');
    await fails("['audit']", 'middlewares[0] "audit" names no middleware: Strapi names them global::<file> (src/middlewares/<file>), api::<api>.<file> (src/api/<api>/middlewares/<file>), strapi::<name>, or { resolve: \'./path\' | \'package\' }');
  });
});

describe('config folder: defaults, environments, overrides', () => {
  it('an app with no config files gets Strapi defaults', async () => {
    const config = await withEnv({ NODE_ENV: undefined }, () => loadConfig(folder({ 'src/api/note/content-types/note/schema.json': '{}' })));
    expect(config.environment).toBe('development');
    expect(config.server).toEqual({ host: '127.0.0.1', port: 1337 });
    expect(config.database).toEqual({ connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } });
    expect(config.api.rest).toEqual({ defaultLimit: 25, maxLimit: 100, withCount: true });
    expect(config.plugins).toEqual({});
    expect(config.admin).toEqual({});
    expect(config.permissions).toBeUndefined();
  });

  it("users-permissions' jwtSecret defaults to JWT_SECRET, as the plugin's own config does; config/plugins wins", async () => {
    const bare = folder({ 'src/api/note/content-types/note/schema.json': '{}', 'config/plugins.ts': 'export default () => ({});' });
    const fromEnv = await withEnv({ JWT_SECRET: 'from-env' }, () => loadConfig(bare));
    expect(fromEnv.plugins).toEqual({ 'users-permissions': { config: { jwtSecret: 'from-env' } } });
    expect((await withEnv({ JWT_SECRET: undefined }, () => loadConfig(bare))).plugins).toEqual({});
    expect((await withEnv({ JWT_SECRET: '' }, () => loadConfig(bare))).plugins).toEqual({});
    const own = folder({ 'config/plugins.js': 'module.exports = { "users-permissions": { config: { jwtSecret: "own", jwt: { expiresIn: "7d" } } } };', ...COMMONJS });
    const config = await withEnv({ JWT_SECRET: 'from-env' }, () => loadConfig(own));
    expect(config.plugins['users-permissions'].config).toEqual({ jwtSecret: 'own', jwt: { expiresIn: '7d' } });
  });

  it('config/env/<NODE_ENV>/ files merge deeply over the base files; arrays are replaced', async () => {
    const dir = folder({
      ...COMMONJS,
      'config/server.js': 'module.exports = { host: "0.0.0.0", port: 1400, app: { keys: ["a", "b"] } };',
      'config/api.json': '{ "rest": { "defaultLimit": 10, "maxLimit": 50 } }',
      'config/env/production/server.ts': 'export default ({ env }: { env: (k: string, d: string) => string }) => ({ port: 80, app: { keys: [env("CAIRN_T_KEY", "k")] } });',
      'config/env/production/api.json': '{ "rest": { "maxLimit": 20 } }',
    });
    const production = await withEnv({ NODE_ENV: 'production' }, () => loadConfig(dir));
    expect(production.environment).toBe('production');
    expect(production.server).toEqual({ host: '0.0.0.0', port: 80, app: { keys: ['k'] } });
    expect(production.api.rest).toEqual({ defaultLimit: 10, maxLimit: 20, withCount: true });
    const development = await withEnv({ NODE_ENV: 'development' }, () => loadConfig(dir));
    expect(development.server.port).toBe(1400);
    expect(development.api.rest.maxLimit).toBe(50);
  });

  it('overrides (command-line options, tests) win over every file', async () => {
    const dir = folder({ ...COMMONJS, 'config/server.js': 'module.exports = { port: 1400, host: "0.0.0.0" };' });
    const config = await loadConfig(dir, { server: { port: 9999 }, api: { rest: { withCount: false } } });
    expect(config.server).toEqual({ host: '0.0.0.0', port: 9999 });
    expect(config.api.rest).toEqual({ defaultLimit: 25, maxLimit: 100, withCount: false });
  });

  it('a port or worker count given as a string of digits (env("PORT")) becomes a number', async () => {
    const dir = folder({ 'config/server.json': '{ "port": "1500", "workers": "2" }' });
    const config = await loadConfig(dir);
    expect(config.server.port).toBe(1500);
    expect(config.server.workers).toBe(2);
  });
});

describe('config folder: errors name the file and the key', () => {
  const fails = async (files: Record<string, string>, pattern: RegExp) => {
    const error = await loadConfig(folder({ ...COMMONJS, ...files })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(pattern);
    return (error as Error).message;
  };

  it('the app folder must exist and look like one', async () => {
    await expect(loadConfig('/nonexistent/app')).rejects.toThrow(/app folder \/nonexistent\/app does not exist/);
    const file = join(folder({ 'x.txt': '' }), 'x.txt');
    await expect(loadConfig(file)).rejects.toThrow(/is not a folder/);
  });

  it('a folder with neither a content-type schema nor a config file is not an app: the error names it and what was looked for', async () => {
    const lookedFor = (dir: string) =>
      new RegExp(
        `^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a Cairn app: found no content-type schema \\(src/api/<api>/content-types/<name>/schema\\.json\\) ` +
          'and no config file \\(config/<name>\\.js, \\.ts, \\.cjs, \\.mjs or \\.json; <name>: server, database, api, plugins, admin, permissions, middlewares, cron-tasks, features, typescript\\); ' +
          'use --dir to point at an app folder$',
      );
    // The repository root has src/ (Cairn's own code) and no config/: it was taken for an empty app.
    const repositoryRoot = join(import.meta.dirname, '..', '..');
    await expect(loadConfig(repositoryRoot)).rejects.toThrow(lookedFor(repositoryRoot));
    for (const files of [{}, { 'src/index.ts': '', 'src/api/.keep': '' }, { 'src/api/a/content-types/a/notes.txt': '' }, { 'config/settings.yml': '' }] as Array<Record<string, string>>) {
      const dir = folder(files);
      await expect(loadConfig(dir)).rejects.toThrow(lookedFor(dir));
    }
    // One content-type, or one config file (Strapi's middlewares.js too), is enough.
    await expect(loadConfig(folder({ 'src/api/a/content-types/a/schema.json': '{}' }))).resolves.toBeTruthy();
    await expect(loadConfig(folder({ ...COMMONJS, 'config/middlewares.js': 'module.exports = [];' }))).resolves.toBeTruthy();
    await expect(loadConfig(folder({ 'config/env/staging/admin.json': '{}' }))).resolves.toBeTruthy();
  });

  it('two files for one name', async () => {
    await fails({ 'config/server.json': '{}', 'config/server.js': 'module.exports = {}' }, /server\.js and .*server\.json both define "server": keep one/);
    await withEnv({ NODE_ENV: 'development' }, () =>
      fails({ 'config/env/development/api.ts': 'export default {}', 'config/env/development/api.mjs': 'export default {}' }, /both define "api"/),
    );
  });

  it('syntax errors and throwing files give the file, the line and the cause', async () => {
    const message = await fails({ 'config/server.js': 'module.exports = {\n  port: 1337,\n  host: \n};' }, /config\/server\.js: Unexpected token/);
    expect(message).toMatch(/line \d/);
    await fails({ 'config/server.json': '{ "port": 1337, }' }, /config\/server\.json: .*JSON/);
    await fails({ 'config/server.ts': 'export default { port: 1337 ' }, /config\/server\.ts: /);
    await fails({ 'config/server.js': 'module.exports = () => { throw new Error("no secret set"); };' }, /config\/server\.js: no secret set/);
    await fails({ 'config/server.js': 'module.exports = require("./missing-helper");' }, /config\/server\.js: Cannot find module '.\/missing-helper'/);
  });

  it('a bad environment variable names the file and the variable', async () => {
    const message = await withEnv({ CAIRN_T_BADPORT: 'abc' }, () =>
      fails({ 'config/server.js': 'module.exports = ({ env }) => ({ port: env.int("CAIRN_T_BADPORT", 1337) });' }, /config\/server\.js: environment variable CAIRN_T_BADPORT="abc" is not an integer/),
    );
    expect(message).not.toContain('\n');
  });

  it('a file must export an object or a function returning one', async () => {
    await fails({ 'config/server.js': 'module.exports = 42;' }, /config\/server\.js must export an object or a function/);
    await fails({ 'config/server.js': 'module.exports = () => [1];' }, /config\/server\.js must export an object/);
  });

  it('values of the wrong type', async () => {
    await fails({ 'config/server.json': '{ "port": 99999 }' }, /config\/server\.json: server\.port 99999 is not a valid port/);
    await fails({ 'config/server.json': '{ "port": "abc" }' }, /server\.port "abc" is not a valid port/);
    await fails({ 'config/server.json': '{ "port": 1.5 }' }, /server\.port 1.5 is not a valid port/);
    await fails({ 'config/server.json': '{ "host": "" }' }, /server\.host must be a host name/);
    await fails({ 'config/server.json': '{ "workers": 0 }' }, /server\.workers must be a positive integer/);
    await fails({ 'config/api.json': '{ "rest": { "defaultLimit": 200, "maxLimit": 100 } }' }, /config\/api\.json: api\.rest\.defaultLimit \(200\) must not exceed rest\.maxLimit \(100\)/);
    await fails({ 'config/api.json': '{ "rest": { "maxLimit": 0 } }' }, /api\.rest\.maxLimit must be a positive integer, not 0/);
    await fails({ 'config/api.json': '{ "rest": { "defaultLimit": "25" } }' }, /api\.rest\.defaultLimit must be a positive integer, not "25"/);
    await fails({ 'config/api.json': '{ "rest": { "withCount": "yes" } }' }, /api\.rest\.withCount must be true or false/);
    await fails({ 'config/api.json': '{ "documents": { "strictParams": "yes" } }' }, /config\/api\.json: api\.documents\.strictParams must be true or false, not "yes"/);
    await fails({ 'config/database.json': '{ "connection": { "client": "oracle" } }' }, /config\/database\.json: database\.connection\.client must be sqlite, postgres or mysql, not "oracle"/);
    await fails({ 'config/plugins.json': '{ "graphql": true }' }, /config\/plugins\.json: plugins\.graphql must be an object/);
    await fails({ 'config/permissions.json': '{ "roles": { "public": { "permissions": "find" } } }' }, /permissions\.roles\.public\.permissions must be a list/);
  });

  it('plugins, admin, database: a bad value names the file, the key and the allowed values', async () => {
    const plugins = (config: object) => ({ 'config/plugins.json': JSON.stringify(config) });
    await fails(plugins({ graphql: { config: { depthLimit: -1 } } }), /^\/.*\/config\/plugins\.json: plugins\.graphql\.config\.depthLimit must be a positive integer, not -1$/);
    await fails(plugins({ graphql: { config: { amountLimit: 2.5 } } }), /plugins\.graphql\.config\.amountLimit must be a positive integer, not 2\.5$/);
    await fails(plugins({ graphql: { config: { endpoint: 'graphql' } } }), /plugins\.graphql\.config\.endpoint must be a path starting with "\/", not "graphql"$/);
    await fails(plugins({ graphql: { config: { v4CompatibilityMode: 'false' } } }), /plugins\.graphql\.config\.v4CompatibilityMode must be true or false, not "false"$/);
    await fails(plugins({ graphql: { config: { shape: 'v5' } } }), /plugins\.graphql\.config\.shape must be "v4" \(the seed's Strapi v4 schema\) or absent \(v4CompatibilityMode decides\), not "v5"$/);
    await fails(plugins({ graphql: { enabled: 'no' } }), /plugins\.graphql\.enabled must be true or false, not "no"$/);
    await fails(plugins({ graphql: { config: { apolloServer: { tracing: 1 } } } }), /plugins\.graphql\.config\.apolloServer\.tracing must be true or false, not 1$/);
    await fails(plugins({ upload: { config: { provider: 'cloudinary' } } }), /plugins\.upload\.config\.provider must be local, aws-s3 or s3, not "cloudinary"$/);
    await fails(plugins({ upload: { config: { sizeLimit: 0 } } }), /plugins\.upload\.config\.sizeLimit must be a positive integer, not 0$/);
    await fails(plugins({ upload: { config: { breakpoints: { small: '500px' } } } }), /plugins\.upload\.config\.breakpoints\.small must be a positive integer, not "500px"$/);
    await fails(plugins({ 'users-permissions': { config: { jwt: { expiresIn: true } } } }), /plugins\.users-permissions\.config\.jwt\.expiresIn must be a duration such as "30d" or a number of seconds, not true$/);
    await fails(plugins({ 'users-permissions': { config: { register: { allowedFields: 'nickname' } } } }), /register\.allowedFields must be a list of attribute names, not "nickname"$/);
    await fails(plugins({ 'users-permissions': { config: { ratelimit: { max: 0 } } } }), /plugins\.users-permissions\.config\.ratelimit\.max must be a positive integer, not 0$/);
    await fails(
      plugins({ 'users-permissions': { config: { ratelimit: { interval: { minutes: 5 } } } } }),
      /ratelimit\.interval must be a positive number of milliseconds or an object of ms, sec, min, hour, day, week such as \{ min: 5 \}, not \{"minutes":5\}$/,
    );
    await fails(plugins({ 'users-permissions': { config: { ratelimit: { enabled: 'no' } } } }), /ratelimit\.enabled must be true or false, not "no"$/);
    await fails(plugins({ 'users-permissions': { config: { jwtSecret: '' } } }), /plugins\.users-permissions\.config\.jwtSecret must be a non-empty string, not ""$/);
    await fails(plugins({ i18n: { config: { locales: 'en,fr' } } }), /plugins\.i18n\.config\.locales must be a list of locale codes such as \["en", "fr"\], not "en,fr"$/);
    await fails({ 'config/admin.json': '{ "apiToken": { "salt": "" } }' }, /config\/admin\.json: admin\.apiToken\.salt must be a non-empty string, not ""$/);
    await fails({ 'config/server.json': '{ "bodyLimit": -1 }' }, /config\/server\.json: server\.bodyLimit must be a positive integer, not -1$/);
    await fails(
      { 'config/database.json': '{ "connection": { "client": "sqlite", "connection": {}, "pool": { "min": 5, "max": 2 } } }' },
      /config\/database\.json: database\.connection\.pool\.min \(5\) must not exceed pool\.max \(2\)$/,
    );
    await fails(
      { 'config/database.js': 'module.exports = { connection: { client: "sqlite", connection: () => ({ filename: "x.db" }) } };' },
      /config\/database\.js: database\.connection\.connection must be an object of connection settings, not a function$/,
    );
  });

  it("an unknown key is a warning naming the file, the key and the closest known key; keys Strapi defines are not unknown", async () => {
    const warnings: string[] = [];
    const dir = folder({
      'config/server.json': JSON.stringify({ port: 1400, workerz: 2, cron: { enabled: true }, app: { keys: ['a'] }, proxy: { koa: true }, url: 'https://x.example' }),
      'config/database.json': JSON.stringify({ connection: { client: 'sqlite', connection: { filename: 'x.db', timeout: 5000 }, useNullAsDefault: true, pol: { max: 2 } }, settings: { runMigrations: false } }),
      'config/api.json': JSON.stringify({ rest: { maxlimit: 50, strictParams: true }, documents: { strictParams: true } }),
      'config/admin.json': JSON.stringify({ auth: { secret: 's' }, apiToken: { salt: 's', salts: 'x' }, transfer: { token: { salt: 't' } }, flags: { nps: false } }),
      'config/plugins.json': JSON.stringify({
        graphql: { enabled: true, config: { depthLimt: 5, maxLimit: 50, apolloServer: { introspection: true } } },
        upload: { config: { sizelimit: 100, providerOptions: { localServer: { maxage: 1 } }, actionOptions: {} } },
        'users-permissions': { config: { jwtSecret: 'x', jwtsecret: 'y', jwtManagement: 'legacy-support', jwt: { algorithm: 'HS256' } } },
        'users-permission': { config: {} },
        i18n: { config: { locale: 'en' } },
        email: { config: { provider: 'sendmail' } },
        seo: { enabled: true },
      }),
      'config/permissions.json': JSON.stringify({ roles: { public: { permissions: [], descripton: 'x' } }, role: {} }),
    });
    await loadConfig(dir, {}, { warn: (message) => warnings.push(message) });
    const file = (name: string) => join(dir, 'config', `${name}.json`);
    const unknown = (name: string, key: string, closest: string) => `${file(name)}: ${key} is not a key Cairn or Strapi knows, and is ignored: did you mean ${closest}?`;
    expect(warnings).toEqual([
      unknown('server', 'server.workerz', 'workers'),
      unknown('database', 'database.connection.pol', 'pool'),
      unknown('api', 'api.rest.maxlimit', 'maxLimit'),
      unknown('admin', 'admin.apiToken.salts', 'salt'),
      unknown('plugins', 'plugins.graphql.config.depthLimt', 'depthLimit'),
      unknown('plugins', 'plugins.upload.config.sizelimit', 'sizeLimit'),
      unknown('plugins', 'plugins.users-permissions.config.jwtsecret', 'jwtSecret'),
      unknown('plugins', 'plugins.users-permission', 'users-permissions'),
      unknown('plugins', 'plugins.i18n.config.locale', 'locales'),
      `${file('plugins')}: plugins.seo is a plugin Cairn does not run: its config is ignored`,
      unknown('permissions', 'permissions.roles.public.descripton', 'description'),
      unknown('permissions', 'permissions.role', 'roles'),
    ]);
  });

  it('a key Strapi uses and Cairn ignores is mentioned when ignoring it changes what the app does', async () => {
    const warnings: string[] = [];
    const dir = folder({
      'config/server.json': '{ "socket": "/tmp/cairn.sock" }',
      'config/api.json': JSON.stringify({ rest: { prefix: '/v1', strictParams: false }, responses: { privateAttributes: ['createdAt'] } }),
      'config/plugins.json': JSON.stringify({ upload: { enabled: false }, graphql: { config: { subscriptions: true } } }),
    });
    await loadConfig(dir, {}, { warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([
      `${join(dir, 'config', 'server.json')}: server.socket is set: Cairn listens on host and port, not on a socket: socket is ignored`,
      `${join(dir, 'config', 'api.json')}: api.rest.prefix is set: Cairn serves the REST API under /api: rest.prefix is ignored`,
      `${join(dir, 'config', 'api.json')}: api.rest.strictParams is set: Cairn's REST always refuses unknown query parameters (400), as Strapi does with strictParams: true: rest.strictParams: false is ignored`,
      `${join(dir, 'config', 'api.json')}: api.responses.privateAttributes is set: Cairn has no global list of private attributes: these attributes are returned (mark them "private": true in the schemas)`,
      `${join(dir, 'config', 'plugins.json')}: plugins.upload.enabled is set: Cairn always runs this plugin: enabled: false is ignored`,
      `${join(dir, 'config', 'plugins.json')}: plugins.graphql.config.subscriptions is set: Cairn has no GraphQL subscriptions: subscriptions is ignored`,
    ]);
    // Their harmless values say nothing.
    const quiet: string[] = [];
    await loadConfig(folder({ 'config/api.json': JSON.stringify({ rest: { prefix: '/api', strictParams: true }, responses: { privateAttributes: [] } }) }), {}, { warn: (m) => quiet.push(m) });
    expect(quiet).toEqual([]);
  });

  it('an env-specific file that sets the bad value is the one named', async () => {
    await withEnv({ NODE_ENV: 'staging' }, () =>
      fails({ 'config/server.json': '{ "port": 1337 }', 'config/env/staging/server.json': '{ "port": -1 }' }, /config\/env\/staging\/server\.json: server\.port -1/),
    );
  });
});
