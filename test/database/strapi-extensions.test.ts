import { describe, expect, it } from 'vitest';
import { BUILTIN_SCHEMAS, buildModel, type Model } from '../../src/model/index.js';
import type { LayoutTable } from '../../src/database/layout.js';
import type { DialectName } from '../../src/database/types.js';
import { planStrapiLayout } from '../../src/database/strapi-layout/plan.js';

/**
 * An extended users-permissions user (src/extensions/users-permissions/content-types/user/schema.json) has the
 * tables Strapi makes for the attributes the extension adds, by the rules of the app's own types: its columns in
 * `up_users`, link tables named after `up_users` and `user`, an `up_users_cmps` table. Checked against the same
 * attributes on an app type (`members`, `member`), whose layout the conformance fixtures hold to real Strapi's.
 */
const USER_UID = 'plugin::users-permissions.user';
const user = BUILTIN_SCHEMAS.find((b) => b.uid === USER_UID)!.schema as { attributes: Record<string, unknown> };

/** What the extension adds, pointing its relations back at `owner`. */
const added = (owner: string) => ({
  phone: { type: 'string' },
  bio: { type: 'text' },
  birthday: { type: 'date' },
  avatar: { type: 'media', multiple: false, allowedTypes: ['images'] },
  profile: { type: 'relation', relation: 'oneToOne', target: 'api::profile.profile' },
  tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: owner === USER_UID ? 'users' : 'members' },
  address: { type: 'component', component: 'shared.address', repeatable: false },
  articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
});

const type = (singularName: string, pluralName: string, attributes: Record<string, unknown>) => ({
  schema: { kind: 'collectionType', info: { singularName, pluralName, displayName: singularName }, options: { draftAndPublish: true }, attributes },
});

function modelFor(owner: string): Model {
  const inverse = owner === USER_UID ? 'users' : 'members';
  return buildModel(
    {
      contentTypes: [
        type('article', 'articles', { title: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: owner, inversedBy: 'articles' } }),
        type('profile', 'profiles', { name: { type: 'string' } }),
        type('tag', 'tags', { name: { type: 'string' }, [inverse]: { type: 'relation', relation: 'manyToMany', target: owner, mappedBy: 'tags' } }),
        ...(owner === USER_UID ? [] : [{ ...type('member', 'members', added(owner)), uid: owner }]),
      ],
      components: [{ uid: 'shared.address', schema: { attributes: { city: { type: 'string' } } } }],
      extensions:
        owner === USER_UID
          ? [{ plugin: 'users-permissions', name: 'user', file: 'schema.json', schema: { ...user, attributes: { ...user.attributes, ...added(owner) } } }]
          : [],
    },
    { strapiLayout: true },
  );
}

/** A member's table, named as the user's would be (`members` -> `up_users`, `member_id` -> `user_id`...), sorted again by name. */
function asUser(table: LayoutTable): LayoutTable {
  const renamed: LayoutTable = JSON.parse(JSON.stringify(table).replace(/members/g, 'up_users').replace(/\bmember_/g, 'user_'));
  const byName = (a: { name?: string | null }, b: { name?: string | null }) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1);
  return { ...renamed, columns: renamed.columns.sort(byName), indexes: renamed.indexes.sort(byName), foreignKeys: renamed.foreignKeys.sort(byName) };
}

describe.each(['sqlite', 'postgres', 'mysql'] as DialectName[])("Strapi's layout of an extended users-permissions user [%s]", (dialect) => {
  const extended = planStrapiLayout(modelFor(USER_UID), dialect);
  const analog = planStrapiLayout(modelFor('api::member.member'), dialect);
  const plain = planStrapiLayout(buildModel({ contentTypes: [] }), dialect);
  const table = (tables: LayoutTable[], name: string) => tables.find((t) => t.name === name)!;

  it('up_users has the plugin\'s columns and one more per scalar the extension adds, typed as on an app type', () => {
    const own = new Set(table(plain, 'up_users').columns.map((c) => c.name));
    const users = table(extended, 'up_users');
    const extra = users.columns.filter((c) => !own.has(c.name));
    expect(extra.map((c) => c.name)).toEqual(['bio', 'birthday', 'phone']);
    const members = table(analog, 'members');
    for (const column of extra) expect(column).toEqual(members.columns.find((c) => c.name === column.name));
    // Its indexes and keys are the plugin's own, as before.
    expect({ ...users, columns: users.columns.filter((c) => own.has(c.name)) }).toEqual(table(plain, 'up_users'));
  });

  it('the relations, media and components it adds get the tables an app type gets, named after up_users and user', () => {
    const names = extended.map((t) => t.name).filter((name) => !plain.some((t) => t.name === name) && !['articles', 'profiles', 'tags', 'components_shared_addresses'].includes(name));
    expect(names).toEqual(['articles_author_lnk', 'up_users_cmps', 'up_users_profile_lnk', 'up_users_tags_lnk']);
    for (const name of names) expect(table(extended, name), name).toEqual(asUser(table(analog, name.replace('up_users', 'members'))));
    expect(table(extended, 'articles_author_lnk').columns.map((c) => c.name)).toEqual(['article_id', 'article_ord', 'id', 'user_id']);
    expect(table(extended, 'up_users_tags_lnk').columns.map((c) => c.name)).toEqual(['id', 'tag_id', 'tag_ord', 'user_id', 'user_ord']);
  });

  it('without an extension nothing changes: the users-permissions tables are the plugin\'s', () => {
    const users = table(planStrapiLayout(buildModel({ contentTypes: [type('article', 'articles', { title: { type: 'string' } })] }), dialect), 'up_users');
    expect(users).toEqual(table(plain, 'up_users'));
    expect(plain.some((t) => t.name === 'up_users_cmps')).toBe(false);
  });
});
