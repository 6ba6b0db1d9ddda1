import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startupError, writeApp } from '../helpers/app.js';

// Unsupported is loud: server code using an API of Strapi's that Cairn does not provide stops the start with an
// error naming the file and the API, never a silent no-op.
const ARTICLE = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An app with the article content-type and the given files (path under src/api/article -> source). */
function appWith(files: Record<string, string>): string {
  const dir = writeApp({ contentTypes: { article: ARTICLE } });
  dirs.push(dir);
  for (const [path, source] of Object.entries(files)) {
    const file = join(dir, 'src', 'api', 'article', path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, source);
  }
  return dir;
}


const ROUTER = `const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreRouter('api::article.article');\n`;

describe('server code Cairn cannot run stops the start, naming the file and the API', () => {
  it('an unknown strapi member read while the controller is built', async () => {
    const dir = appWith({
      'routes/article.js': ROUTER,
      'controllers/article.js': `const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreController('api::article.article', ({ strapi }) => {\n  const query = strapi.entityService;\n  return { async find() { return query; } };\n});\n`,
    });
    const message = await startupError(dir);
    expect(message).toContain(join(dir, 'src/api/article/controllers/article.js'));
    expect(message).toContain('strapi.entityService is not provided by Cairn');
  });

  it('an option of createCoreRouter Cairn does not know', async () => {
    const dir = appWith({ 'routes/article.js': `const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreRouter('api::article.article', { onlyy: ['find'] });\n` });
    const message = await startupError(dir);
    expect(message).toContain(join(dir, 'src/api/article/routes/article.js'));
    expect(message).toContain("the option 'onlyy' is not supported by Cairn");
  });

  it("a member of @strapi/utils Cairn does not provide, with the file's line", async () => {
    const dir = appWith({ 'routes/article.js': ROUTER, 'services/article.js': `'use strict';\n\nconst { yup } = require('@strapi/utils');\nmodule.exports = () => ({ yup });\n` });
    const message = await startupError(dir);
    expect(message).toContain(join(dir, 'src/api/article/services/article.js'));
    expect(message).toContain("@strapi/utils: 'yup' is not provided by Cairn");
    expect(message).toContain('line 3');
  });

  it('an unknown policy, an unknown middleware, a missing action, an unsupported route key', async () => {
    const route = (extra: string) => `module.exports = { routes: [{ method: 'GET', path: '/x', handler: 'article.find', ${extra} }] };\n`;
    const cases: Array<[string, string]> = [
      [route(`config: { policies: ['is-admin'] }`), 'Policy is-admin not found'],
      [route(`config: { middlewares: ['strapi::compression'] }`), 'Middleware strapi::compression not found'],
      [`module.exports = { routes: [{ method: 'GET', path: '/x', handler: 'article.nope' }] };\n`, 'Handler not found "article.nope"'],
      [route(`responses: {}`), "'responses' is not supported by Cairn"],
      [route(`config: { rateLimit: 1 }`), 'config.rateLimit is not supported by Cairn'],
      [`const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreRouter('api::article.article', { only: ['findMany'] });\n`, "no core route 'findMany'"],
    ];
    for (const [source, expected] of cases) {
      const dir = appWith({ 'routes/custom.js': source });
      const message = await startupError(dir);
      expect(message).toContain(join(dir, 'src/api/article/routes/custom.js'));
      expect(message).toContain(expected);
    }
  });

  it("a strapi member Cairn does not provide, read in src/index.js's register or bootstrap, with the file's line", async () => {
    for (const [hook, use, line] of [
      ['register', 'strapi.webhookStore.addAllowedEvent("x", "y");', 4],
      ['bootstrap', 'await strapi.admin.services.permission.conditionProvider.register({ name: "is-owner" });', 5],
    ] as const) {
      const dir = appWith({});
      const file = join(dir, 'src', 'index.js');
      const body = hook === 'register' ? `  register({ strapi }) {\n    ${use}\n  },\n` : `  register() {},\n  async bootstrap({ strapi }) {\n    ${use}\n  },\n`;
      writeFileSync(file, `'use strict';\nmodule.exports = {\n${body}};\n`);
      const member = hook === 'register' ? 'webhookStore' : 'admin';
      expect(await startupError(dir)).toBe(`${file} (line ${line}): strapi.${member} is not provided by Cairn (see README's list of the Strapi APIs Cairn runs)`);
    }
  });
});
