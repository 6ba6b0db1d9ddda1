import type { LayoutColumn, LayoutForeignKey, LayoutIndex, LayoutTable } from '../layout.js';
import { idColumn } from './columns.js';

/**
 * The 21 tables of Strapi 5.54's admin and its other features (admin roles and permissions, transfer tokens,
 * sessions, webhooks, content history, releases, review workflows, AI jobs) that Cairn neither reads nor plans
 * (plan.ts: a database made by an older Strapi 5 may lack some, and Cairn serves it all the same). A database Cairn
 * creates gets them too, as Strapi makes them, so that Strapi's first start on it creates and changes no table.
 *
 * Copied from the layout Strapi made for the conformance model (test/fixtures/strapi-db/layout.*.json: the same on
 * SQLite, PostgreSQL and MariaDB once normalized); no model changes them. create.ts spells the native types.
 * Compact form: a column is `name type` (nullable unless `NOT NULL`; `id` is added), an index
 * `[UNIQUE ]name (columns)`, a foreign key `name (column) referenced-table on-delete` (to the table's `id`).
 */
interface CompactTable {
  columns: string[];
  indexes?: string[];
  foreignKeys?: string[];
}

const ADMIN_TABLES: Record<string, CompactTable> = {
  admin_permissions: {
    columns: ['action varchar(255)', 'action_parameters json', 'conditions json', 'created_at datetime', 'created_by_id integer', 'document_id varchar(255)', 'locale varchar(255)', 'properties json', 'published_at datetime', 'subject varchar(255)', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['admin_permissions_created_by_id_fk (created_by_id)', 'admin_permissions_documents_idx (document_id, locale, published_at)', 'admin_permissions_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['admin_permissions_created_by_id_fk (created_by_id) admin_users SET NULL', 'admin_permissions_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  admin_permissions_api_token_lnk: {
    columns: ['api_token_id integer', 'permission_id integer', 'permission_ord double'],
    indexes: ['admin_permissions_api_token_lnk_fk (permission_id)', 'admin_permissions_api_token_lnk_ifk (api_token_id)', 'admin_permissions_api_token_lnk_oifk (permission_ord)', 'UNIQUE admin_permissions_api_token_lnk_uq (permission_id, api_token_id)'],
    foreignKeys: ['admin_permissions_api_token_lnk_fk (permission_id) admin_permissions CASCADE', 'admin_permissions_api_token_lnk_ifk (api_token_id) strapi_api_tokens CASCADE'],
  },
  admin_permissions_role_lnk: {
    columns: ['permission_id integer', 'permission_ord double', 'role_id integer'],
    indexes: ['admin_permissions_role_lnk_fk (permission_id)', 'admin_permissions_role_lnk_ifk (role_id)', 'admin_permissions_role_lnk_oifk (permission_ord)', 'UNIQUE admin_permissions_role_lnk_uq (permission_id, role_id)'],
    foreignKeys: ['admin_permissions_role_lnk_fk (permission_id) admin_permissions CASCADE', 'admin_permissions_role_lnk_ifk (role_id) admin_roles CASCADE'],
  },
  admin_roles: {
    columns: ['code varchar(255)', 'created_at datetime', 'created_by_id integer', 'description varchar(255)', 'document_id varchar(255)', 'locale varchar(255)', 'name varchar(255)', 'published_at datetime', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['admin_roles_created_by_id_fk (created_by_id)', 'admin_roles_documents_idx (document_id, locale, published_at)', 'admin_roles_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['admin_roles_created_by_id_fk (created_by_id) admin_users SET NULL', 'admin_roles_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  admin_users_roles_lnk: {
    columns: ['role_id integer', 'role_ord double', 'user_id integer', 'user_ord double'],
    indexes: ['admin_users_roles_lnk_fk (user_id)', 'admin_users_roles_lnk_ifk (role_id)', 'admin_users_roles_lnk_ofk (role_ord)', 'admin_users_roles_lnk_oifk (user_ord)', 'UNIQUE admin_users_roles_lnk_uq (user_id, role_id)'],
    foreignKeys: ['admin_users_roles_lnk_fk (user_id) admin_users CASCADE', 'admin_users_roles_lnk_ifk (role_id) admin_roles CASCADE'],
  },
  strapi_ai_localization_jobs: {
    columns: ['content_type varchar(255) NOT NULL', 'created_at datetime', 'related_document_id varchar(255) NOT NULL', 'source_locale varchar(255) NOT NULL', 'status varchar(255) NOT NULL', 'target_locales json NOT NULL', 'updated_at datetime'],
  },
  strapi_ai_metadata_jobs: {
    columns: ['completed_at datetime', 'created_at datetime', 'status varchar(255) NOT NULL'],
  },
  strapi_history_versions: {
    columns: ['content_type varchar(255) NOT NULL', 'created_at datetime', 'created_by_id integer', 'data json', 'locale varchar(255)', 'related_document_id varchar(255)', 'schema json', 'status varchar(255)'],
    indexes: ['strapi_history_versions_created_by_id_fk (created_by_id)'],
    foreignKeys: ['strapi_history_versions_created_by_id_fk (created_by_id) admin_users SET NULL'],
  },
  strapi_release_actions: {
    columns: ['content_type varchar(255)', 'created_at datetime', 'created_by_id integer', 'document_id varchar(255)', 'entry_document_id varchar(255)', 'is_entry_valid boolean', 'locale varchar(255)', 'published_at datetime', 'type varchar(255)', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['strapi_release_actions_created_by_id_fk (created_by_id)', 'strapi_release_actions_documents_idx (document_id, locale, published_at)', 'strapi_release_actions_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_release_actions_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_release_actions_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_release_actions_release_lnk: {
    columns: ['release_action_id integer', 'release_action_ord double', 'release_id integer'],
    indexes: ['strapi_release_actions_release_lnk_fk (release_action_id)', 'strapi_release_actions_release_lnk_ifk (release_id)', 'strapi_release_actions_release_lnk_oifk (release_action_ord)', 'UNIQUE strapi_release_actions_release_lnk_uq (release_action_id, release_id)'],
    foreignKeys: ['strapi_release_actions_release_lnk_fk (release_action_id) strapi_release_actions CASCADE', 'strapi_release_actions_release_lnk_ifk (release_id) strapi_releases CASCADE'],
  },
  strapi_releases: {
    columns: ['created_at datetime', 'created_by_id integer', 'document_id varchar(255)', 'locale varchar(255)', 'name varchar(255)', 'published_at datetime', 'released_at datetime', 'scheduled_at datetime', 'status varchar(255)', 'timezone varchar(255)', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['strapi_releases_created_by_id_fk (created_by_id)', 'strapi_releases_documents_idx (document_id, locale, published_at)', 'strapi_releases_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_releases_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_releases_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_sessions: {
    columns: ['absolute_expires_at datetime', 'child_id varchar(255)', 'created_at datetime', 'created_by_id integer', 'device_id varchar(255)', 'document_id varchar(255)', 'expires_at datetime', 'locale varchar(255)', 'metadata json', 'origin varchar(255)', 'published_at datetime', 'session_id varchar(255)', 'status varchar(255)', 'type varchar(255)', 'updated_at datetime', 'updated_by_id integer', 'user_id varchar(255)'],
    indexes: ['strapi_sessions_created_by_id_fk (created_by_id)', 'strapi_sessions_documents_idx (document_id, locale, published_at)', 'strapi_sessions_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_sessions_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_sessions_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_transfer_token_permissions: {
    columns: ['action varchar(255)', 'created_at datetime', 'created_by_id integer', 'document_id varchar(255)', 'locale varchar(255)', 'published_at datetime', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['strapi_transfer_token_permissions_created_by_id_fk (created_by_id)', 'strapi_transfer_token_permissions_documents_idx (document_id, locale, published_at)', 'strapi_transfer_token_permissions_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_transfer_token_permissions_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_transfer_token_permissions_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_transfer_token_permissions_token_lnk: {
    columns: ['transfer_token_id integer', 'transfer_token_permission_id integer', 'transfer_token_permission_ord double'],
    indexes: ['strapi_transfer_token_permissions_token_lnk_fk (transfer_token_permission_id)', 'strapi_transfer_token_permissions_token_lnk_ifk (transfer_token_id)', 'strapi_transfer_token_permissions_token_lnk_oifk (transfer_token_permission_ord)', 'UNIQUE strapi_transfer_token_permissions_token_lnk_uq (transfer_token_permission_id, transfer_token_id)'],
    foreignKeys: ['strapi_transfer_token_permissions_token_lnk_fk (transfer_token_permission_id) strapi_transfer_token_permissions CASCADE', 'strapi_transfer_token_permissions_token_lnk_ifk (transfer_token_id) strapi_transfer_tokens CASCADE'],
  },
  strapi_transfer_tokens: {
    columns: ['access_key varchar(255)', 'created_at datetime', 'created_by_id integer', 'description varchar(255)', 'document_id varchar(255)', 'expires_at datetime', 'last_used_at datetime', 'lifespan bigint', 'locale varchar(255)', 'name varchar(255)', 'published_at datetime', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['strapi_transfer_tokens_created_by_id_fk (created_by_id)', 'strapi_transfer_tokens_documents_idx (document_id, locale, published_at)', 'strapi_transfer_tokens_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_transfer_tokens_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_transfer_tokens_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_webhooks: {
    columns: ['enabled boolean', 'events json', 'headers json', 'name varchar(255)', 'url text'],
  },
  strapi_workflows: {
    columns: ['content_types json', 'created_at datetime', 'created_by_id integer', 'document_id varchar(255)', 'locale varchar(255)', 'name varchar(255)', 'published_at datetime', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['strapi_workflows_created_by_id_fk (created_by_id)', 'strapi_workflows_documents_idx (document_id, locale, published_at)', 'strapi_workflows_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_workflows_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_workflows_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_workflows_stage_required_to_publish_lnk: {
    columns: ['workflow_id integer', 'workflow_stage_id integer'],
    indexes: ['strapi_workflows_stage_required_to_publish_lnk_fk (workflow_id)', 'strapi_workflows_stage_required_to_publish_lnk_ifk (workflow_stage_id)', 'UNIQUE strapi_workflows_stage_required_to_publish_lnk_uq (workflow_id, workflow_stage_id)'],
    foreignKeys: ['strapi_workflows_stage_required_to_publish_lnk_fk (workflow_id) strapi_workflows CASCADE', 'strapi_workflows_stage_required_to_publish_lnk_ifk (workflow_stage_id) strapi_workflows_stages CASCADE'],
  },
  strapi_workflows_stages: {
    columns: ['color varchar(255)', 'created_at datetime', 'created_by_id integer', 'document_id varchar(255)', 'locale varchar(255)', 'name varchar(255)', 'published_at datetime', 'updated_at datetime', 'updated_by_id integer'],
    indexes: ['strapi_workflows_stages_created_by_id_fk (created_by_id)', 'strapi_workflows_stages_documents_idx (document_id, locale, published_at)', 'strapi_workflows_stages_updated_by_id_fk (updated_by_id)'],
    foreignKeys: ['strapi_workflows_stages_created_by_id_fk (created_by_id) admin_users SET NULL', 'strapi_workflows_stages_updated_by_id_fk (updated_by_id) admin_users SET NULL'],
  },
  strapi_workflows_stages_permissions_lnk: {
    columns: ['permission_id integer', 'permission_ord double', 'workflow_stage_id integer'],
    indexes: ['strapi_workflows_stages_permissions_lnk_fk (workflow_stage_id)', 'strapi_workflows_stages_permissions_lnk_ifk (permission_id)', 'strapi_workflows_stages_permissions_lnk_ofk (permission_ord)', 'UNIQUE strapi_workflows_stages_permissions_lnk_uq (workflow_stage_id, permission_id)'],
    foreignKeys: ['strapi_workflows_stages_permissions_lnk_fk (workflow_stage_id) strapi_workflows_stages CASCADE', 'strapi_workflows_stages_permissions_lnk_ifk (permission_id) admin_permissions CASCADE'],
  },
  strapi_workflows_stages_workflow_lnk: {
    columns: ['workflow_id integer', 'workflow_stage_id integer', 'workflow_stage_ord double'],
    indexes: ['strapi_workflows_stages_workflow_lnk_fk (workflow_stage_id)', 'strapi_workflows_stages_workflow_lnk_ifk (workflow_id)', 'strapi_workflows_stages_workflow_lnk_oifk (workflow_stage_ord)', 'UNIQUE strapi_workflows_stages_workflow_lnk_uq (workflow_stage_id, workflow_id)'],
    foreignKeys: ['strapi_workflows_stages_workflow_lnk_fk (workflow_stage_id) strapi_workflows_stages CASCADE', 'strapi_workflows_stages_workflow_lnk_ifk (workflow_id) strapi_workflows CASCADE'],
  },};

export const STRAPI_ADMIN_TABLES: readonly LayoutTable[] = Object.entries(ADMIN_TABLES).map(([name, table]) => ({
  name,
  columns: [idColumn(), ...table.columns.map(column)],
  primaryKey: ['id'],
  indexes: (table.indexes ?? []).map(index),
  foreignKeys: (table.foreignKeys ?? []).map(foreignKey),
}));

function column(text: string): LayoutColumn {
  const [, name, type, notNull] = /^(\w+) (\S+)( NOT NULL)?$/.exec(text) ?? fail('column', text);
  return { name: name!, type: type!, nullable: !notNull, default: null, autoIncrement: false };
}

function index(text: string): LayoutIndex {
  const [, unique, name, columns] = /^(UNIQUE )?(\w+) \(([\w, ]+)\)$/.exec(text) ?? fail('index', text);
  return { name: name!, columns: columns!.split(', '), unique: Boolean(unique) };
}

function foreignKey(text: string): LayoutForeignKey {
  const [, name, column, referencedTable, onDelete] = /^(\w+) \((\w+)\) (\w+) (CASCADE|SET NULL)$/.exec(text) ?? fail('foreign key', text);
  return { name: name!, columns: [column!], referencedTable: referencedTable!, referencedColumns: ['id'], onDelete: onDelete!, onUpdate: 'NO ACTION' };
}

function fail(what: string, text: string): never {
  throw new Error(`admin-tables.ts: unreadable ${what} "${text}"`);
}
