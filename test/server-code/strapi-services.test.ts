import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

// `strapi.service(uid)` and `strapi.controller(uid)` for app code: the app's own (core ones included); a plugin's
// (`plugin::users-permissions.role`) is Strapi's code, which Cairn does not run: an error saying so, not "no such
// service" (which would send the reader looking for a typo).
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp('sqlite', {
    contentTypes: {
      note: {
        kind: 'collectionType',
        collectionName: 'notes',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        options: { draftAndPublish: false },
        attributes: { title: { type: 'string' } },
      },
    },
  });
});
afterAll(async () => app?.close());

it("a plugin's service or controller by uid is not provided by Cairn (but the role service); an app's unknown one is no such service", () => {
  const strapi = app.cairn.strapi as unknown as { service(uid: string): unknown; controller(uid: string): unknown };
  expect(typeof (strapi.service('api::note.note') as { find: unknown }).find).toBe('function');
  expect(() => strapi.service('plugin::users-permissions.user')).toThrow("strapi.service('plugin::users-permissions.user') is not provided by Cairn");
  expect(() => strapi.controller('plugin::users-permissions.auth')).toThrow("strapi.controller('plugin::users-permissions.auth') is not provided by Cairn");
  expect(() => strapi.service('api::nope.nope')).toThrow("strapi.service('api::nope.nope'): no such service (the app has api::note.note)");
});

it("users-permissions' role service, as a bootstrap uses it to open a route to the public role (Strapi's findOne and updateRole)", async () => {
  type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;
  type RoleService = {
    find(): Promise<Array<{ type: string }>>;
    findOne(id: number): Promise<{ type: string; permissions: Tree }>;
    updateRole(id: number, data: { permissions: Tree }): Promise<void>;
  };
  const roles = (app.cairn.strapi as unknown as { service(uid: string): RoleService }).service('plugin::users-permissions.role');
  const publicRole = (await app.cairn.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } })) as { id: number };
  expect((await app.request('GET', '/api/notes', undefined, { authorization: '' })).status).toBe(403);
  const role = await roles.findOne(publicRole.id);
  const tree = role.permissions as Tree;
  expect([role.type, tree['api::note'].controllers.note.find]).toEqual(['public', { enabled: false, policy: '' }]);
  tree['api::note'].controllers.note.find.enabled = true;
  await roles.updateRole(publicRole.id, { permissions: tree });
  expect((await app.request('GET', '/api/notes', undefined, { authorization: '' })).status).toBe(200);
  expect((await roles.findOne(publicRole.id)).permissions['api::note'].controllers.note.find.enabled).toBe(true);
  await expect(roles.findOne(999_999)).rejects.toThrow('Role not found');
  expect((await roles.find()).map((r) => r.type).sort()).toEqual(['authenticated', 'public']);
});
