import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCairn, type Cairn } from '../../src/app/cairn.js';
import { changeRole, roleActions } from '../../src/auth/role-changes.js';
import { ValidationError } from '../../src/errors/index.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { writeApp } from '../helpers/app.js';
import { strapiDefaultActions, withStrapiDefaults } from '../helpers/strapi-roles.js';

const note = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' } },
};
const author = {
  kind: 'collectionType',
  collectionName: 'authors',
  info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' } },
};
const permissionsFile = { roles: { public: { description: 'readers', permissions: ['api::note.note.find'] } } };

/** An anonymous POST, as a client without credentials would make it. */
const anonymousPost = async (cairn: Cairn) =>
  (await cairn.fastify.inject({ method: 'POST', url: '/api/notes', payload: { data: { title: 'x' } }, headers: { 'content-type': 'application/json' } })).statusCode;

/** Polls until `cairn` answers `status`, for up to 3 s (the server checks for changes once a second). */
async function eventually(cairn: Cairn, status: number): Promise<number> {
  const started = Date.now();
  while ((await anonymousPost(cairn)) !== status) {
    if (Date.now() - started > 3000) throw new Error(`still not ${status} after 3 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

describeEachDialect('permission changes: the file and the database agree, running servers follow', (dialect) => {
  let dir: string;
  let drop: () => Promise<void>;
  const running: Cairn[] = [];
  const start = async (config: object) => {
    const cairn = await createCairn({ dir, config: { database: config } as never });
    running.push(cairn);
    return cairn;
  };
  let server: Cairn;
  let admin: Cairn;
  let database: object;
  beforeAll(async () => {
    dir = writeApp({ contentTypes: { note, author }, config: { permissions: permissionsFile } });
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    database = fresh.config;
    // Two apps on one database: a running server, and the process a `cairn permissions` command runs in.
    server = await start(database);
    admin = await start(database);
  });
  afterAll(async () => {
    for (const cairn of running) await cairn.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a grant to a role the file names is written to the file and the database; a running server applies it within a second', async () => {
    expect(await anonymousPost(server)).toBe(403);
    const result = await changeRole(admin, { role: 'public', grant: ['api::note.note.create'] });
    expect(result).toEqual({ actions: ['api::note.note.find', 'api::note.note.create'], file: join('config', 'permissions.json') });
    expect(JSON.parse(readFileSync(join(dir, 'config', 'permissions.json'), 'utf8'))).toEqual({
      roles: { public: { description: 'readers', permissions: ['api::note.note.find', 'api::note.note.create'] } },
    });
    expect(await eventually(server, 201)).toBeLessThan(2000);
    // A restart syncs the file into the database: the change stays.
    const restarted = await start(database);
    expect(await anonymousPost(restarted)).toBe(201);
    await changeRole(admin, { role: 'public', revoke: ['api::note.note.create'] });
    await eventually(server, 403);
    await eventually(restarted, 403);
    // users-permissions' own actions, which Strapi grants the role it makes, stay: the file sets Cairn's actions.
    expect(await roleActions(admin, 'public')).toEqual(withStrapiDefaults('public', ['api::note.note.find']));
  });

  it('a parsed query cached for the role does not outlive a change of its permissions (populate leaves out what it may not find)', async () => {
    const inject = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      JSON.parse((await server.fastify.inject({ method, url, payload, headers: payload ? { 'content-type': 'application/json' } : {} })).body);
    await changeRole(admin, { role: 'public', grant: ['api::note.note.create', 'api::author.author.create'] });
    await eventually(server, 201);
    const ann = (await inject('POST', '/api/authors', { data: { name: 'Ann' } })).data.documentId;
    await inject('POST', '/api/notes', { data: { title: 'with author', author: ann } });
    const populated = async () => (await inject('GET', '/api/notes?filters[title][$eq]=with%20author&populate=author')).data[0].author;
    expect(await populated()).toBeUndefined();
    await changeRole(admin, { role: 'public', grant: ['api::author.author.find'], revoke: ['api::note.note.create', 'api::author.author.create'] });
    const started = Date.now();
    while ((await populated()) === undefined) {
      if (Date.now() - started > 3000) throw new Error('the cached query still leaves the author out after 3 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await populated()).toMatchObject({ name: 'Ann' });
    await changeRole(admin, { role: 'public', revoke: ['api::author.author.find'] });
  });

  it('a role the file does not name is changed in the database only, and a restart keeps it', async () => {
    // The role as Strapi made it (its default actions, user.me among them), with the grant at the end.
    const result = await changeRole(admin, { role: 'authenticated', grant: ['api::note.note.create', 'plugin::users-permissions.user.me'] });
    expect(strapiDefaultActions('authenticated')).toContain('plugin::users-permissions.user.me');
    expect(result).toEqual({ actions: [...strapiDefaultActions('authenticated'), 'api::note.note.create'] });
    expect(JSON.parse(readFileSync(join(dir, 'config', 'permissions.json'), 'utf8')).roles.authenticated).toBeUndefined();
    const restarted = await start(database);
    expect(await roleActions(restarted, 'authenticated')).toEqual(withStrapiDefaults('authenticated', ['api::note.note.create']));
    await changeRole(admin, { role: 'authenticated', revoke: ['plugin::users-permissions.user.me'] });
    expect(await roleActions(restarted, 'authenticated')).toEqual(withStrapiDefaults('authenticated', ['api::note.note.create']).filter((a) => a !== 'plugin::users-permissions.user.me'));
  });

  it('an unknown role or action is refused with the valid ones, and nothing changes', async () => {
    const before = readFileSync(join(dir, 'config', 'permissions.json'), 'utf8');
    const refused = async (change: Parameters<typeof changeRole>[1]) => {
      const error = await changeRole(admin, change).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      return (error as Error).message;
    };
    expect(await refused({ role: 'editor', grant: ['api::note.note.find'] })).toBe('unknown role "editor"; the roles are authenticated, public');
    const message = await refused({ role: 'public', grant: ['api::note.note.create', 'api::note.note.creat', 'api::note.note.publish'] });
    // publish needs Draft & Publish, which notes don't have.
    expect(message).toBe(
      'unknown actions api::note.note.creat, api::note.note.publish; the actions are:\n  ' +
        [
          'api::author.author.create', 'api::author.author.delete', 'api::author.author.find', 'api::author.author.findOne', 'api::author.author.update',
          'api::note.note.create', 'api::note.note.delete', 'api::note.note.find', 'api::note.note.findOne', 'api::note.note.update',
          'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne', 'plugin::upload.content-api.findPage',
          'plugin::upload.content-api.upload', 'plugin::upload.content-api.destroy',
          'plugin::users-permissions.user.find', 'plugin::users-permissions.user.findOne', 'plugin::users-permissions.user.create',
          'plugin::users-permissions.user.update', 'plugin::users-permissions.user.destroy', 'plugin::users-permissions.user.me',
          'plugin::users-permissions.role.createRole', 'plugin::users-permissions.role.findOne', 'plugin::users-permissions.role.find',
          'plugin::users-permissions.role.updateRole', 'plugin::users-permissions.role.deleteRole', 'plugin::users-permissions.permissions.getPermissions',
        ].join('\n  '),
    );
    expect(readFileSync(join(dir, 'config', 'permissions.json'), 'utf8')).toBe(before);
    // users-permissions' own actions, which Strapi grants the role it makes, stay: the file sets Cairn's actions.
    expect(await roleActions(admin, 'public')).toEqual(withStrapiDefaults('public', ['api::note.note.find']));
    await expect(roleActions(admin, 'nobody')).rejects.toThrow('unknown role "nobody"; the roles are authenticated, public');
  });

  it('a role named by a .js permissions file cannot be rewritten: the command says where to change it', async () => {
    rmSync(join(dir, 'config', 'permissions.json'));
    writeFileSync(join(dir, 'config', 'permissions.js'), `module.exports = ${JSON.stringify(permissionsFile)};`);
    try {
      const js = await start(database);
      await expect(changeRole(js, { role: 'public', grant: ['api::note.note.create'] })).rejects.toThrow(
        'config/permissions.js names role "public" and is synced at every start, but Cairn rewrites only JSON: change the role\'s permissions in config/permissions.js',
      );
      expect(await roleActions(js, 'public')).toEqual(withStrapiDefaults('public', ['api::note.note.find']));
    } finally {
      rmSync(join(dir, 'config', 'permissions.js'));
      writeFileSync(join(dir, 'config', 'permissions.json'), JSON.stringify(permissionsFile));
    }
  });
});
