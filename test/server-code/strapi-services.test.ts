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

it("a plugin's service or controller by uid is not provided by Cairn; an app's unknown one is no such service", () => {
  const strapi = app.cairn.strapi as unknown as { service(uid: string): unknown; controller(uid: string): unknown };
  expect(typeof (strapi.service('api::note.note') as { find: unknown }).find).toBe('function');
  expect(() => strapi.service('plugin::users-permissions.role')).toThrow("strapi.service('plugin::users-permissions.role') is not provided by Cairn");
  expect(() => strapi.controller('plugin::users-permissions.auth')).toThrow("strapi.controller('plugin::users-permissions.auth') is not provided by Cairn");
  expect(() => strapi.service('api::nope.nope')).toThrow("strapi.service('api::nope.nope'): no such service (the app has api::note.note)");
});
