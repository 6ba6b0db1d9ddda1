import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { folder } from '../app/fixtures.js';
import { cairn, ensureBuilt, root } from './build.js';

beforeAll(ensureBuilt);

it('--help lists the commands; --version prints the version', () => {
  const help = cairn(['--help']);
  expect(help.status).toBe(0);
  for (const command of ['start', 'develop', 'token', 'permissions']) expect(help.stdout).toContain(command);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  expect(cairn(['--version']).stdout.trim()).toBe(version);
  expect(cairn(['-v']).stdout.trim()).toBe(version);
  const startHelp = cairn(['start', '--help']);
  for (const option of ['--dir', '--port', '--host', '--workers']) expect(startHelp.stdout).toContain(option);
});

it('a bad app folder or a bad model exits 1 with one clear line', () => {
  const missing = cairn(['start', '--dir', '/nonexistent/app']);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toMatch(/^cairn: .*does not exist\n$/);
  const notAnApp = cairn(['start', '--dir', root + '/bin']);
  expect(notAnApp.status).toBe(1);
  expect(notAnApp.stderr).toMatch(/^cairn: .*\/bin is not a Cairn app: .*\n$/);
  const schema = { kind: 'collectionType', info: { singularName: 'bad', pluralName: 'bads', displayName: 'Bad' }, attributes: { x: { type: 'nope' } } };
  const dir = folder({ 'src/api/bad/content-types/bad/schema.json': JSON.stringify(schema) });
  const bad = cairn(['start', '--dir', dir]);
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('attribute "x"');
  expect(bad.stderr).toContain('unknown attribute type "nope"');
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  rmSync(dir, { recursive: true, force: true });
});

it('a folder that is not a Cairn app (the repository root, a project with src/ only) exits 1 saying what was looked for', () => {
  const project = folder({ 'package.json': '{}', 'src/index.ts': 'export {};', 'src/api/.keep': '' });
  try {
    for (const dir of [root, project]) {
      // --port 0: if the folder were taken for an app, the server would start (and be killed by the timeout).
      const result = cairn(['start', '--dir', dir, '--port', '0'], {}, { timeout: 20_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `cairn: ${dir} is not a Cairn app: found no content-type schema (src/api/<api>/content-types/<name>/schema.json) and no config file ` +
          '(config/<name>.js, .ts, .cjs, .mjs or .json; <name>: server, database, api, plugins, admin, permissions, middlewares, cron-tasks, features, typescript); ' +
          'use --dir to point at an app folder\n',
      );
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}, 60_000);

it("custom fields: the app's register() declares them for the admin commands too; an undeclared one stops the start in one line", () => {
  const schema = {
    kind: 'collectionType',
    info: { singularName: 'theme', pluralName: 'themes', displayName: 'Theme' },
    attributes: { accent: { type: 'customField', customField: 'plugin::color-picker.color' }, body: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor' } },
  };
  const files = { 'package.json': '{ "type": "commonjs" }', 'src/api/theme/content-types/theme/schema.json': JSON.stringify(schema) };
  const declared = folder({
    ...files,
    'src/index.js': "module.exports = { register({ strapi }) { strapi.customFields.register({ name: 'CKEditor', plugin: 'ckeditor5', type: 'richtext' }); } };",
  });
  const undeclared = folder(files);
  try {
    const list = cairn(['permissions', 'list', '--dir', declared, '--role', 'public']);
    expect(list.stderr).toBe('');
    expect(list.status).toBe(0);
    expect(cairn(['token', 'list', '--dir', declared]).status).toBe(0);
    const start = cairn(['start', '--dir', undeclared, '--port', '0'], {}, { timeout: 20_000 });
    expect(start.status).toBe(1);
    expect(start.stderr).toBe(
      'cairn: src/api/theme/content-types/theme/schema.json (attribute "body"): custom field "plugin::ckeditor5.CKEditor" is not known to Cairn: ' +
        "declare the type it is stored as in register() of src/index.js, e.g. strapi.customFields.register({ name: 'CKEditor', plugin: 'ckeditor5', type: 'string' })\n",
    );
  } finally {
    rmSync(declared, { recursive: true, force: true });
    rmSync(undeclared, { recursive: true, force: true });
  }
}, 60_000);

it('a bad config value exits 1 naming the file and the key, without a stack', () => {
  const dir = folder({ 'config/api.json': JSON.stringify({ rest: { defaultLimit: 500, maxLimit: 100 } }) });
  const result = cairn(['start', '--dir', dir]);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^cairn: .*config\/api\.json: api\.rest\.defaultLimit \(500\) must not exceed rest\.maxLimit \(100\)\n$/);
  rmSync(dir, { recursive: true, force: true });
  const plugins = folder({ 'package.json': '{ "type": "commonjs" }', 'config/plugins.js': 'module.exports = { graphql: { config: { depthLimit: -1 } } };' });
  const graphql = cairn(['start', '--dir', plugins, '--port', '0'], {}, { timeout: 20_000 });
  expect(graphql.status).toBe(1);
  expect(graphql.stderr).toBe(`cairn: ${plugins}/config/plugins.js: plugins.graphql.config.depthLimit must be a positive integer, not -1\n`);
  rmSync(plugins, { recursive: true, force: true });
});

it('bad options and unknown commands are refused before anything loads', () => {
  const port = cairn(['start', '--port', 'abc']);
  expect(port.status).toBe(1);
  expect(port.stderr).toContain("option '-p, --port <number>' argument 'abc' is invalid");
  const workers = cairn(['start', '--workers', '0']);
  expect(workers.status).toBe(1);
  expect(workers.stderr).toContain('expected a positive number of workers');
  const unknown = cairn(['serve']);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain("unknown command 'serve'");
});

it('develop refuses a missing folder the same way', () => {
  const result = cairn(['develop', '--dir', '/nonexistent/app']);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^cairn: .*does not exist\n$/);
});
