import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel, readModelFiles } from '../../src/model/index.js';
import type { DatabaseLayout } from '../../src/database/layout.js';
import { withStrapiNames } from '../../src/database/strapi-layout/named-model.js';
import { strapiMetadata, type StrapiMetadata } from '../../src/database/strapi-layout/metadata.js';
import { STRAPI_FIXTURE_DIR } from '../helpers/strapi-fixture.js';
import { expectNamesIn, unnamedTables, type Join } from '../helpers/strapi-metadata.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');
const ARCHIVE = 'api::reservation-confirmation-message-archive.reservation-confirmation-message-archive';

describe('strapi.db.metadata for the model of the database real Strapi 5.54 made (layout.long-names.sqlite.json)', () => {
  let dir: string;
  let metadata: StrapiMetadata;
  const layout = JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, 'layout.long-names.sqlite.json'), 'utf8')) as DatabaseLayout;
  beforeAll(async () => {
    // Strapi ran with both: the conformance app's schemas and the two long-names files under src/.
    dir = mkdtempSync(join(tmpdir(), 'cairn-metadata-'));
    cpSync(join(CONFORMANCE_APP, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(STRAPI_FIXTURE_DIR, 'long-names-model'), join(dir, 'src'), { recursive: true });
    metadata = strapiMetadata(withStrapiNames(buildModel(await readModelFiles(dir), { strapiLayout: true })), 'sqlite');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names only the tables, columns and indexes Strapi made, and every table Strapi made for the model's models", () => {
    const named = expectNamesIn(metadata, layout);
    expect(unnamedTables(layout, named)).toEqual([
      'strapi_database_schema',
      'strapi_migrations',
      'strapi_migrations_internal',
    ]);
  });

  it('a content type: its table, scalar columns (shortened and snake_cased as Strapi does), document columns, columnToAttribute', () => {
    const meta = metadata.get(ARCHIVE);
    expect(meta).toMatchObject({ uid: ARCHIVE, singularName: 'reservation-confirmation-message-archive', tableName: 'restaurant_reservation_confirmation_messages_archives', lifecycles: {}, foreignKeys: [] });
    expect(meta.attributes.id).toEqual({ type: 'increments', columnName: 'id' });
    expect(meta.attributes.documentId).toMatchObject({ type: 'string', columnName: 'document_id' });
    const long = meta.attributes.anExtraordinarilyLongScalarAttributeNameThatExceedsTheLimit as { columnName: string };
    expect(long).toMatchObject({ type: 'string', pluginOptions: { i18n: { localized: true } } });
    expect(long.columnName).toHaveLength(55);
    expect(meta.columnToAttribute[long.columnName]).toBe('anExtraordinarilyLongScalarAttributeNameThatExceedsTheLimit');
    expect(meta.columnToAttribute).toMatchObject({ id: 'id', document_id: 'documentId', published_at: 'publishedAt', locale: 'locale', createdBy: 'createdBy' });
    expect(meta.indexes).toEqual([{ name: 'restaurant_reservation_confirmation_4bff2_documents_idx', columns: ['document_id', 'locale', 'published_at'] }]);
    expect(metadata.get('api::restaurant.restaurant').attributes.price).toMatchObject({ type: 'decimal', columnName: 'price' });
  });

  it("relations: the join table as Strapi's createJoinTable names it (shortened), from either side, order columns, self-relations", () => {
    const meta = metadata.get(ARCHIVE);
    const chef = meta.attributes.oneChefWithAnExceptionallyLongRelationAttributeName as { joinTable: Join };
    expect(chef).toMatchObject({ type: 'relation', relation: 'manyToOne', target: 'api::chef.chef' });
    expect(chef.joinTable).toEqual({
      __internal__: true,
      name: 'restaurant_reservati4bff2_one_chef_with_an_exc25b21_lnk',
      joinColumn: { name: 'reservation_confirmation_message_archive_id', referencedColumn: 'id', referencedTable: 'restaurant_reservation_confirmation_messages_archives' },
      inverseJoinColumn: { name: 'chef_id', referencedColumn: 'id', referencedTable: 'chefs' },
      pivotColumns: ['reservation_confirmation_message_archive_id', 'chef_id'],
    });
    const self = (meta.attributes.selfReferencingRelationWithAnExtremelyLongName as { joinTable: Join }).joinTable;
    const inverse = (meta.attributes.inverseSideOfTheSelfReferencingRelation as { joinTable: Join }).joinTable;
    expect(self).toMatchObject({ name: 'restaurant_reservati4bff2_self_referencing_relb3db9_lnk', joinColumn: { name: 'reservation_confirmation_message_archive_id' } });
    expect(self.inverseJoinColumn!.name).toBe('inv_reservation_confirmation_message_archive_id');
    expect(self.orderColumnName).toBe('reservation_confirmation_message_archive_ord');
    expect(self.inverseOrderColumnName).toBe('inv_reservation_confirmation_message_archive_ord');
    // The inverse side reads the owner's table the other way round, its order columns swapped.
    expect(inverse).toMatchObject({ name: self.name, joinColumn: self.inverseJoinColumn, inverseJoinColumn: self.joinColumn, orderColumnName: self.inverseOrderColumnName, inverseOrderColumnName: self.orderColumnName });
    // The join table is a model of its own, with Strapi's indexes and foreign keys.
    const link = metadata.get(self.name);
    expect(Object.keys(link.attributes)).toEqual(['id', 'reservation_confirmation_message_archive_id', 'inv_reservation_confirmation_message_archive_id', 'reservation_confirmation_message_archive_ord', 'inv_reservation_confirmation_message_archive_ord']);
    expect(link.foreignKeys.map((k) => k.referencedTable)).toEqual(['restaurant_reservation_confirmation_messages_archives', 'restaurant_reservation_confirmation_messages_archives']);
    expect(link.indexes.find((i) => i.type === 'unique')?.columns).toEqual(['reservation_confirmation_message_archive_id', 'inv_reservation_confirmation_message_archive_id']);
  });

  it('a component and a dynamic zone: the owner\'s _cmps table, with `on: { field }`; the component itself', () => {
    const meta = metadata.get(ARCHIVE);
    const cmps = 'restaurant_reservation_confirmation_messages_4bff2_cmps';
    expect(meta.attributes.longComponentFieldName).toEqual({
      type: 'relation',
      relation: 'oneToMany',
      target: 'long-category.extremely-long-component',
      joinTable: {
        name: cmps,
        joinColumn: { name: 'entity_id', referencedColumn: 'id' },
        inverseJoinColumn: { name: 'cmp_id', referencedColumn: 'id' },
        on: { field: 'longComponentFieldName' },
        orderColumnName: 'order',
        orderBy: { order: 'asc' },
        pivotColumns: ['entity_id', 'cmp_id', 'field', 'component_type'],
      },
    });
    expect(meta.attributes.longDynamicZoneFieldName).toEqual({
      type: 'relation',
      relation: 'morphToMany',
      joinTable: {
        name: cmps,
        joinColumn: { name: 'entity_id', referencedColumn: 'id' },
        morphColumn: { idColumn: { name: 'cmp_id', referencedColumn: 'id' }, typeColumn: { name: 'component_type' }, typeField: '__component' },
        on: { field: 'longDynamicZoneFieldName' },
        orderBy: { order: 'asc' },
        pivotColumns: ['entity_id', 'cmp_id', 'field', 'component_type'],
      },
    });
    expect(metadata.get(cmps).foreignKeys).toEqual([{ name: 'restaurant_reservation_confirmation_mess4bff2_entity_fk', columns: ['entity_id'], referencedColumns: ['id'], referencedTable: 'restaurant_reservation_confirmation_messages_archives', onDelete: 'CASCADE' }]);
    const component = metadata.get('long-category.extremely-long-component');
    expect(component).toMatchObject({ singularName: 'extremely-long-component', tableName: 'components_long_category_some_extremely_long_compo21308' });
    expect(component.attributes.documentId).toBeUndefined();
    expect((component.attributes.dishesRelationFromAComponentWithAVeryLongAttributeName as { joinTable: Join }).joinTable.name).toBe('components_long_cate5301e_dishes_relation_fromd556a_lnk');
  });

  it('media: a morphOne/morphMany to files, whose `related` has files_related_mph', () => {
    expect(metadata.get(ARCHIVE).attributes.attachmentsWithAVeryLongMediaFieldName).toEqual({ type: 'relation', relation: 'morphMany', target: 'plugin::upload.file', morphBy: 'related' });
    expect(metadata.get('plugin::upload.file').attributes.related).toEqual({
      type: 'relation',
      relation: 'morphToMany',
      joinTable: {
        __internal__: true,
        name: 'files_related_mph',
        joinColumn: { name: 'file_id', referencedColumn: 'id' },
        morphColumn: { typeColumn: { name: 'related_type' }, idColumn: { name: 'related_id', referencedColumn: 'id' } },
        orderBy: { order: 'asc' },
        pivotColumns: ['file_id', 'related_type', 'related_id'],
      },
    });
    expect(Object.keys(metadata.get('files_related_mph').attributes)).toEqual(['id', 'file_id', 'related_id', 'related_type', 'field', 'order']);
  });

  it('useJoinTable: false (createdBy / updatedBy): a joinColumn on the row; localizations by document_id', () => {
    const meta = metadata.get(ARCHIVE);
    expect(meta.attributes.createdBy).toMatchObject({ type: 'relation', relation: 'oneToOne', target: 'admin::user', useJoinTable: false, owner: true, joinColumn: { name: 'created_by_id', referencedColumn: 'id', referencedTable: 'admin_users' } });
    expect(meta.attributes.updatedBy).toMatchObject({ joinColumn: { name: 'updated_by_id', referencedColumn: 'id', referencedTable: 'admin_users' } });
    expect(meta.attributes.createdBy).not.toHaveProperty('joinTable');
    expect(meta.attributes.localizations).toMatchObject({ relation: 'oneToMany', target: ARCHIVE, unstable_virtual: true, private: false, joinColumn: { name: 'document_id', referencedColumn: 'document_id' } });
  });

  it('is read-only: set, add, delete and clear throw; its objects are frozen; get of an unknown uid throws as Strapi\'s', () => {
    expect(() => metadata.set('x', metadata.get(ARCHIVE))).toThrow('strapi.db.metadata.set(\'x\'): the metadata is read-only in Cairn');
    expect(() => metadata.add({ ...metadata.get(ARCHIVE), uid: 'y' })).toThrow('read-only');
    expect(() => metadata.delete(ARCHIVE)).toThrow('read-only');
    expect(() => metadata.clear()).toThrow('read-only');
    expect(() => {
      (metadata.get(ARCHIVE) as { tableName: string }).tableName = 'other';
    }).toThrow(TypeError);
    expect(() => {
      ((metadata.get(ARCHIVE).attributes.createdBy as { joinColumn: { name: string } }).joinColumn.name = 'x');
    }).toThrow(TypeError);
    expect(metadata.get(ARCHIVE).tableName).toBe('restaurant_reservation_confirmation_messages_archives');
    expect(metadata.has('api::nothing.nothing')).toBe(false);
    expect(() => metadata.get('api::nothing.nothing')).toThrow('Metadata for "api::nothing.nothing" not found');
    expect(metadata.identifiers).toMatchObject({ ID_COLUMN: 'id', ORDER_COLUMN: 'order', FIELD_COLUMN: 'field' });
    expect(metadata.identifiers.getJoinTableName('restaurant_reservation_confirmation_messages_archives', 'one_chef_with_an_exceptionally_long_relation_attribute_name')).toBe(
      'restaurant_reservati4bff2_one_chef_with_an_exc25b21_lnk',
    );
  });
});
