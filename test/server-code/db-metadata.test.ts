import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { readLayout } from '../../src/database/layout.js';
import { expectNamesIn, unnamedTables, type Join, type MetaAttribute } from '../helpers/strapi-metadata.js';

// strapi.db.metadata as Strapi 5.54 gives app code (@strapi/database metadata/): each model's table, columns and link
// tables, named as the tables Cairn made and reads.
const ARTICLE = 'api::article.article';
const LONG = 'relatedArticlesThroughAnExtraordinarilyLongAttributeName';

const model = {
  contentTypes: {
    article: {
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true },
        viewCount: { type: 'integer' },
        line2: { type: 'string' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
        [LONG]: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' },
        legacyTag: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag', useJoinTable: false },
        cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
        seo: { type: 'component', component: 'default.seo' },
        blocks: { type: 'dynamiczone', components: ['default.seo', 'default.quote'] },
        linkedOne: { type: 'relation', relation: 'morphToOne' },
        linkedMany: { type: 'relation', relation: 'morphToMany' },
      },
    },
    tag: {
      kind: 'collectionType',
      collectionName: 'tags',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
      },
    },
  },
  components: {
    'default.seo': { collectionName: 'components_default_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' } } },
    'default.quote': { collectionName: 'components_default_quotes', info: { displayName: 'quote' }, attributes: { text: { type: 'text' } } },
  },
  // README's example, as written there.
  index: `module.exports = {
  async bootstrap({ strapi }) {
    const meta = strapi.db.metadata.get('api::article.article');
    const { joinTable } = meta.attributes.tags;
    strapi.log.info(\`\${meta.tableName}.tags: \${joinTable.name} (\${joinTable.joinColumn.name} -> \${joinTable.inverseJoinColumn.name}, ordered by \${joinTable.orderColumnName})\`);
  },
};
`,
};

describeEachDialect('strapi.db.metadata: the tables Cairn reads, in Strapi 5.54\'s metadata shape', (dialect) => {
  let app: TestApp;
  const metadata = () => app.cairn.strapi.db.metadata;
  const attribute = (uid: string, name: string) => metadata().get(uid).attributes[name] as MetaAttribute & { joinTable: Join & { name: string } };
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
  });
  afterAll(async () => app?.close());

  it("the app's bootstrap reads it (README's example)", () => {
    expect(app.logs().map((l) => l.msg)).toContain('articles.tags: articles_tags_lnk (article_id -> tag_id, ordered by tag_ord)');
  });

  it('names only tables, columns and indexes of the database, and every table Cairn made for the model\'s models', async () => {
    const layout = await readLayout((sql, params) => app.cairn.db.query(sql, params), app.cairn.db.dialect);
    const named = expectNamesIn(metadata(), layout);
    expect(unnamedTables(layout, named)).toEqual(['strapi_database_schema', 'strapi_migrations', 'strapi_migrations_internal']);
  });

  it('a content type: table, scalar columns in lodash snake_case, document columns', () => {
    const meta = metadata().get(ARTICLE);
    expect(meta).toMatchObject({ uid: ARTICLE, singularName: 'article', tableName: 'articles', foreignKeys: [], lifecycles: {} });
    expect(meta.attributes.title).toEqual({ type: 'string', required: true, columnName: 'title' });
    expect(meta.attributes.viewCount).toMatchObject({ type: 'integer', columnName: 'view_count' });
    expect(meta.attributes.line2).toMatchObject({ columnName: 'line_2' });
    expect(meta.columnToAttribute).toMatchObject({ view_count: 'viewCount', line_2: 'line2', document_id: 'documentId', created_at: 'createdAt', tags: 'tags' });
    expect(Object.keys(meta.attributes).slice(-7)).toEqual(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);
  });

  it('a relation: the join table from both sides, with the order columns Strapi names; a long name shortened', () => {
    expect(attribute(ARTICLE, 'tags').joinTable).toEqual({
      __internal__: true,
      name: 'articles_tags_lnk',
      joinColumn: { name: 'article_id', referencedColumn: 'id', referencedTable: 'articles' },
      inverseJoinColumn: { name: 'tag_id', referencedColumn: 'id', referencedTable: 'tags' },
      pivotColumns: ['article_id', 'tag_id'],
      orderColumnName: 'tag_ord',
      orderBy: { tag_ord: 'asc' },
      inverseOrderColumnName: 'article_ord',
    });
    expect(attribute('api::tag.tag', 'articles')).toMatchObject({ mappedBy: 'tags', joinTable: { name: 'articles_tags_lnk', joinColumn: { name: 'tag_id' }, inverseJoinColumn: { name: 'article_id' }, orderColumnName: 'article_ord', inverseOrderColumnName: 'tag_ord' } });
    const long = attribute(ARTICLE, LONG).joinTable as Join;
    expect(long.name).toBe('articles_related_articles_through_an_extraordie9530_lnk');
    expect([long.joinColumn.name, long.inverseJoinColumn!.name, long.orderColumnName]).toEqual(['article_id', 'inv_article_id', 'article_ord']);
  });

  it('a component and a dynamic zone: the _cmps table, `on` their field', () => {
    expect(attribute(ARTICLE, 'seo')).toMatchObject({ type: 'relation', relation: 'oneToOne', target: 'default.seo', joinTable: { name: 'articles_cmps', on: { field: 'seo' }, joinColumn: { name: 'entity_id' }, inverseJoinColumn: { name: 'cmp_id' }, orderColumnName: 'order' } });
    expect(attribute(ARTICLE, 'blocks')).toMatchObject({ relation: 'morphToMany', joinTable: { name: 'articles_cmps', on: { field: 'blocks' }, morphColumn: { idColumn: { name: 'cmp_id' }, typeColumn: { name: 'component_type' }, typeField: '__component' } } });
    expect(metadata().get('default.seo')).toMatchObject({ tableName: 'components_default_seos', singularName: 'seo' });
  });

  it('media: morphOne to files, files.related in files_related_mph', () => {
    expect(attribute(ARTICLE, 'cover')).toEqual({ type: 'relation', relation: 'morphOne', target: 'plugin::upload.file', morphBy: 'related' });
    expect(attribute('plugin::upload.file', 'related').joinTable).toMatchObject({ name: 'files_related_mph', joinColumn: { name: 'file_id' }, morphColumn: { idColumn: { name: 'related_id' }, typeColumn: { name: 'related_type' } } });
  });

  it('morph relations: a morphToOne its columns on the row, a morphToMany its _mph table', () => {
    expect(attribute(ARTICLE, 'linkedOne')).toEqual({ type: 'relation', relation: 'morphToOne', owner: true, morphColumn: { typeColumn: { name: 'target_type' }, idColumn: { name: 'target_id', referencedColumn: 'id' } } });
    expect(attribute(ARTICLE, 'linkedMany').joinTable).toEqual({
      __internal__: true,
      name: 'articles_linked_many_mph',
      joinColumn: { name: 'article_id', referencedColumn: 'id' },
      morphColumn: { typeColumn: { name: 'linked_many_type' }, idColumn: { name: 'linked_many_id', referencedColumn: 'id' } },
      orderBy: { order: 'asc' },
      pivotColumns: ['article_id', 'linked_many_type', 'linked_many_id'],
    });
  });

  it("useJoinTable: false: createdBy's joinColumn on the row; an app's such relation, which Cairn keeps in a link table, says so", () => {
    expect(attribute(ARTICLE, 'createdBy')).toMatchObject({ useJoinTable: false, owner: true, joinColumn: { name: 'created_by_id', referencedColumn: 'id', referencedTable: 'admin_users' } });
    const legacy = attribute(ARTICLE, 'legacyTag');
    expect(legacy.joinTable.name).toBe('articles_legacy_tag_lnk');
    expect(() => legacy.joinColumn).toThrow('Strapi 5.54 keeps that link in a column legacy_tag_id of articles, Cairn in the link table articles_legacy_tag_lnk');
  });

  it('read-only: a set or a change of its objects throws and changes nothing; the server code gets the same', async () => {
    expect(() => metadata().set(ARTICLE, metadata().get('api::tag.tag'))).toThrow('read-only');
    expect(() => {
      attribute(ARTICLE, 'tags').joinTable.name = 'other';
    }).toThrow(TypeError);
    expect(metadata().get(ARTICLE).tableName).toBe('articles');
    expect(app.cairn.strapi.db.metadata).toBe(metadata());
    const created = await app.cairn.strapi.documents(ARTICLE).create({ data: { title: 'Still served' } } as never);
    expect((await app.cairn.strapi.documents(ARTICLE).findOne({ documentId: created.documentId } as never))?.title).toBe('Still served');
  });
});
