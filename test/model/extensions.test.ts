import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_SCHEMAS, buildModel, getContentType, readModelFiles, type SchemaExtension } from '../../src/model/index.js';

// src/extensions/<plugin>/content-types/<name>/schema.json: Strapi's `{ ...plugin's schema, ...extension's }`.
const USER_UID = 'plugin::users-permissions.user';
const FILE = 'src/extensions/users-permissions/content-types/user/schema.json';
const userSchema = () => structuredClone(BUILTIN_SCHEMAS.find((b) => b.uid === USER_UID)!.schema) as { attributes: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** The user's extension: the plugin's schema with these attributes added (or changed). */
function extension(attributes: Record<string, unknown>, rest: Record<string, unknown> = {}): SchemaExtension {
  const schema = userSchema();
  return { plugin: 'users-permissions', name: 'user', file: FILE, schema: { ...schema, ...rest, attributes: { ...schema.attributes, ...attributes } } };
}

const ARTICLE = {
  kind: 'collectionType',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  attributes: {
    title: { type: 'string' },
    author: { type: 'relation', relation: 'manyToOne', target: USER_UID, inversedBy: 'articles' },
  },
};

describe("a plugin content type's extension", () => {
  it('adds attributes to the users-permissions user: scalars and a relation both ways, the plugin\'s own kept', () => {
    const model = buildModel({
      contentTypes: [{ schema: ARTICLE }],
      extensions: [extension({ phone: { type: 'string', maxLength: 20 }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } })],
    });
    const user = getContentType(model, USER_UID);
    expect([...user.attributes.keys()]).toEqual([...Object.keys(userSchema().attributes), 'phone', 'articles']);
    expect(user.attributes.get('phone')).toMatchObject({ kind: 'scalar', type: 'string', column: 'phone', maxLength: 20 });
    expect(user.attributes.get('articles')).toMatchObject({ kind: 'relation', owner: false, linkTable: 'articles_author_lnk' });
    expect(getContentType(model, 'api::article.article').attributes.get('author')).toMatchObject({ inverseOf: 'articles' });
    expect(user).toMatchObject({ table: 'up_users', plugin: 'users-permissions', file: FILE });
    expect(model.byPluralName.has('users')).toBe(false); // still a plugin type: not routed under /api/:pluralName
  });

  it("the extension's options of the plugin's own attributes apply (as Strapi's validator reads the merged schema)", () => {
    const model = buildModel({ contentTypes: [], extensions: [extension({ username: { type: 'string', minLength: 5, required: true, unique: true } })] });
    expect(getContentType(model, USER_UID).attributes.get('username')).toMatchObject({ minLength: 5, required: true });
  });

  it('without an extension the user is the built-in one, unchanged', () => {
    const plain = getContentType(buildModel({ contentTypes: [] }), USER_UID);
    expect(plain.file).toBe(`<built-in ${USER_UID}>`);
    expect([...plain.attributes.keys()]).toEqual(Object.keys(userSchema().attributes));
  });

  it.each([
    ['a plugin that is no Strapi plugin', { plugin: 'user-permissions' }, 'src/extensions/x: "user-permissions" is not a plugin Cairn knows (Strapi\'s own: users-permissions, upload'],
    ['a third-party plugin', { plugin: 'navigation' }, 'Cairn runs no third-party plugin, so an extension of one cannot apply'],
    ['a content type the plugin lacks', { name: 'users' }, 'the plugin users-permissions has no content type "users" (it has permission, role, user): did you mean "user"?'],
    ['a plugin type Cairn does not extend', { name: 'role' }, 'extending plugin::users-permissions.role is not supported by Cairn (it extends plugin::users-permissions.user)'],
    ['the upload file', { plugin: 'upload', name: 'file' }, 'extending plugin::upload.file is not supported by Cairn'],
  ])('refuses %s, naming the file', (_, names, message) => {
    const given = { ...extension({}), ...names, file: 'plugin' in names ? 'src/extensions/x' : FILE };
    expect(() => buildModel({ contentTypes: [], extensions: [given] })).toThrow(message);
  });

  it.each([
    ["drops one of the plugin's attributes", () => {
      const e = extension({});
      delete (e.schema as { attributes: Record<string, unknown> }).attributes.confirmed;
      return e;
    }, `${FILE}: the plugin's attribute "confirmed" is missing: an extension's "attributes" replace the plugin's whole (as in Strapi)`],
    ["changes a plugin attribute's type", () => extension({ email: { type: 'string' } }), `${FILE} (attribute "email"): a plugin's own attribute keeps its type`],
    ["changes the role relation", () => extension({ role: { type: 'relation', relation: 'manyToMany', target: 'plugin::users-permissions.role', inversedBy: 'users' } }), '(attribute "role"): a plugin\'s own attribute keeps its relation'],
    ['shows a secret token', () => extension({ resetPasswordToken: { type: 'string' } }), '(attribute "resetPasswordToken"): must stay private: Cairn never shows it'],
    ['moves the table', () => extension({}, { collectionName: 'members' }), '"collectionName" must stay "up_users", the plugin\'s table'],
    ['renames the type', () => extension({}, { info: { singularName: 'member', pluralName: 'members', displayName: 'Member' } }), 'info.singularName must stay "user"'],
    ['turns on Draft & Publish', () => extension({}, { options: { draftAndPublish: true } }), 'options.draftAndPublish must stay false'],
    ['adds a bad attribute', () => extension({ phone: { type: 'phone' } }), `${FILE} (attribute "phone"): `],
    ['is not an object', () => ({ ...extension({}), schema: [] }), 'an extension schema must be a JSON object'],
  ])('refuses an extension that %s', (_, make, message) => {
    expect(() => buildModel({ contentTypes: [], extensions: [make()] })).toThrow(message);
  });
});

describe('src/extensions read from the app folder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const app = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-ext-'));
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it("reads each plugin's content-types/<name>/schema.json; other files and folders without one extend nothing", async () => {
    const schema = JSON.stringify(extension({ phone: { type: 'string' } }).schema);
    const dir = app({
      [FILE]: schema,
      'src/extensions/users-permissions/content-types/role/lifecycles.js': 'module.exports = {};',
      'src/extensions/documentation/documentation/1.0.0/full_documentation.json': '{}',
      'src/extensions/.gitkeep': '',
    });
    const input = await readModelFiles(dir);
    expect(input.extensions).toEqual([{ plugin: 'users-permissions', name: 'user', file: FILE, schema: JSON.parse(schema) }]);
    expect(getContentType(buildModel(input), USER_UID).attributes.has('phone')).toBe(true);
  });

  it('refuses a folder that names no plugin, and a schema.json that is no JSON', async () => {
    await expect(readModelFiles(app({ 'src/extensions/users-permission/content-types/user/schema.json': '{}' }))).rejects.toThrow(
      'src/extensions/users-permission: "users-permission" is not a plugin Cairn knows (Strapi\'s own: users-permissions, upload, i18n, content-releases, review-workflows, graphql, email, documentation, sentry, cloud, color-picker, content-manager, content-type-builder): did you mean "users-permissions"?',
    );
    await expect(readModelFiles(app({ [FILE]: '{ nope' }))).rejects.toThrow(`${FILE}: invalid JSON`);
  });
});
