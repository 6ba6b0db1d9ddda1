import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { Permissions } from '../../src/auth/index.js';
import { permissionActions } from '../../src/auth/actions.js';
import { withStrapiDefaults } from '../helpers/strapi-roles.js';

// What a restart does to auth's tables and roles (issue 14): on a database that already holds them as configured,
// it only reads, so a start needs no transaction (and no Kysely); a changed role is still written.

const roles = { public: { permissions: ['api::note.note.find', 'api::note.note.findOne'] }, editor: { permissions: ['api::note.note.create'] } };

describeEachDialect('auth at start-up', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, {
      contentTypes: {
        note: { kind: 'collectionType', collectionName: 'notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, attributes: { title: { type: 'string' } } },
      },
      config: { permissions: { roles }, plugins: { 'users-permissions': { config: { jwtSecret: 'start-writes' } } } },
    });
  });
  afterAll(async () => app?.close());

  /** The statements `fn` sends, as a process that just started would (a new Permissions: nothing cached). */
  const sent = async (fn: (permissions: Permissions) => Promise<unknown>) => {
    const statements: string[] = [];
    const stop = app.cairn.db.onQuery((sql) => statements.push(sql));
    try {
      await fn(new Permissions(app.cairn.db, app.cairn.documents('plugin::users-permissions.role')));
    } finally {
      stop();
    }
    return statements;
  };
  const writes = (statements: string[]) => statements.filter((sql) => !/^\s*(SELECT|WITH)\b/i.test(sql));

  it('tables and roles already as configured: only reads', async () => {
    const statements = await sent(async (permissions) => {
      await permissions.sync(roles, permissionActions(app.cairn.model));
    });
    expect(statements.length).toBeGreaterThan(0);
    expect(writes(statements)).toEqual([]);
  });

  it('a role whose actions changed is rewritten, and holds exactly the new ones', async () => {
    const changed = { ...roles, editor: { permissions: ['api::note.note.create', 'api::note.note.update'] } };
    const statements = await sent((permissions) => permissions.sync(changed, permissionActions(app.cairn.model)));
    // Strapi's layout: one up_permissions row per action, linked to the role.
    expect(writes(statements).some((sql) => /^\s*INSERT INTO [`"]?up_permissions[`"]? /i.test(sql))).toBe(true);
    expect([...(await new Permissions(app.cairn.db, app.cairn.documents('plugin::users-permissions.role')).list('editor'))].sort()).toEqual([
      'api::note.note.create',
      'api::note.note.update',
    ]);
    expect(writes(await sent((permissions) => permissions.sync(changed, permissionActions(app.cairn.model))))).toEqual([]);
    // A role Strapi made keeps users-permissions' own actions (login, registration...) beside the file's list.
    expect([...(await new Permissions(app.cairn.db, app.cairn.documents('plugin::users-permissions.role')).list('public'))].sort()).toEqual(
      withStrapiDefaults('public', roles.public.permissions),
    );
  });
});
