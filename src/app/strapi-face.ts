import { strapiDocuments, type StrapiDocuments } from '../documents/strapi-service.js';
import { strapiStore, type StrapiStore } from './strapi-store.js';
import type { LifecycleSubscriber } from '../documents/hooks.js';
import type { Database } from '../database/types.js';
import type { Documents } from '../documents/index.js';
import type { DocumentHooks } from '../documents/hooks.js';
import { queryEngine, type QueryEngine } from '../documents/query-engine.js';
import { LOCALE_UID, PERMISSION_UID } from '../model/system-types.js';
import { strapiTransaction, type StrapiTransactionHandles } from './strapi-transaction.js';
import type { Model } from '../model/types.js';
import { strapiMetadata, type StrapiMetadata } from '../database/strapi-layout/metadata.js';
import { notProvided, QUIET } from '../server-code/strapi-object.js';
import type { StrapiConfig } from '../project/strapi-config.js';
import type { StrapiDialect, StrapiKnex } from '../database/knex.js';
import type { Knex } from 'knex';

/** What the face needs of the app (the `Cairn` object). */
interface FaceHost {
  documents(uid: string): Documents;
  readonly documentHooks: DocumentHooks;
  readonly db: Database;
  readonly model: Model;
  /** The app's locales: a write of `plugin::i18n.locale` through the Query Engine reads them again at once. */
  readonly appLocales: { reload(db: Database): Promise<void> };
  /** Features' services by plugin: a write of users-permissions' permissions drops their cached role actions. */
  readonly services: Map<string, Record<string, unknown>>;
  /** `strapi.config` (project/strapi-config.ts): get, set and has over the app's config. */
  readonly strapiConfig: StrapiConfig;
  /** `strapi.db.connection` (Strapi's knex, made on first read) and `strapi.db.dialect` (database/knex.ts). */
  readonly strapiKnex: StrapiKnex;
  /** What the app's server code gets as `strapi` (server-code/strapi-object.ts), once registered: its members come first. */
  readonly serverStrapi?: Record<string, unknown>;
}

/** What app code gets as `strapi`. */
export type StrapiFace<T extends FaceHost> = Omit<T, 'documents' | 'db' | 'config'> & {
  documents: StrapiDocuments;
  config: StrapiConfig;
  store: StrapiStore;
  db: Omit<Database, 'query' | 'transaction' | 'dialect'> & {
    /** Strapi's knex on the app's database: its queries run outside Cairn's transactions. */
    connection: Knex;
    /** Strapi's `getConnection(table)`: that knex, on `table` when one is named. */
    getConnection(table?: string): Knex | Knex.QueryBuilder;
    /** Strapi's dialect: `client`, `getBatchInsertSize()`, `schemaInspector.getTables()`, `startSchemaUpdate()`, `endSchemaUpdate()`. */
    dialect: StrapiDialect;
    lifecycles: { subscribe(subscriber: LifecycleSubscriber): () => void };
    query: StrapiDbQuery;
    transaction<T>(callback: (handles: StrapiTransactionHandles) => Promise<T> | T): Promise<T>;
    /** Strapi's `db.metadata`: each model's table, columns and link tables, by the names of Cairn's plan (read-only). */
    metadata: StrapiMetadata;
  };
};

/** `strapi.db.query(uid)`, Strapi's Query Engine; `query(sql, params)`, Cairn's own SQL, as before. */
type StrapiDbQuery = ((uid: string) => QueryEngine) & Database['query'];

/**
 * The `strapi` object app code receives (in `register`/`bootstrap`/`destroy`, and as the global `strapi` that
 * lifecycle files and services use): a thin face over the app. `strapi.documents` is Strapi 5's Document Service
 * (`strapi.documents(uid).findMany()`, `strapi.documents.use(middleware)`); `strapi.db.lifecycles.subscribe` adds
 * lifecycle subscribers; `strapi.config` is Strapi's config provider (get, set, has); `strapi.db.query(uid)` is Strapi's Query Engine (its reads: documents/query-engine.ts), while
 * `db.query(sql, params)` stays Cairn's SQL (a model's uid is never SQL); `strapi.db.transaction(cb)` is Strapi's
 * (strapi-transaction.ts); `strapi.store` Strapi's core store (strapi-store.ts); `strapi.db.metadata` Strapi's model metadata (database/strapi-layout/metadata.ts); once the server code is registered, Strapi's members it provides (`service`, `controller`,
 * `contentTypes`...), the app's own (`plugin`, `customFields`, `log`...); any other member is an error.
 */
export function strapiFace<T extends FaceHost>(cairn: T): StrapiFace<T> {
  // The Document Service reads `api.documents.strictParams` at each call, as Strapi does: a set takes effect.
  const documents = strapiDocuments((uid) => cairn.documents(uid), cairn.documentHooks, {
    strictParams: () => cairn.strapiConfig.get('api.documents.strictParams'),
  });
  const lifecycles = { subscribe: (subscriber: LifecycleSubscriber) => cairn.documentHooks.subscribe(subscriber) };
  let db: object | undefined;
  // Strapi's core store, in the transaction of a `strapi.db.transaction` callback as the Query Engine is.
  const store = strapiStore(() => cairn.documentHooks.transaction ?? cairn.db);
  // Built once, on first read: the model does not change while the app runs.
  let metadata: StrapiMetadata | undefined;
  let dialect: StrapiDialect | undefined;
  return new Proxy(cairn, {
    get: (target, key) => {
      if (key === 'documents') return documents;
      if (key === 'store') return store;
      // Strapi's config provider, from register() on (the app's config itself stays `cairn.config`).
      if (key === 'config') return cairn.strapiConfig;
      if (key === 'db') {
        // Inside `strapi.db.transaction` (or a lifecycle hook's write), both run in that transaction.
        const current = () => cairn.documentHooks.transaction ?? cairn.db;
        // The engine asks for the database at each call: one made outside a transaction and used inside it (kept in
        // a variable, as tests do) joins the transaction instead of waiting for it.
        const joining = new Proxy(cairn.db, { get: (_target, name) => bound(current(), Reflect.get(current(), name, current())) });
        const query = (first: string, params?: readonly unknown[]) =>
          params === undefined && MODEL_UID.test(first)
            ? queryEngine(joining, cairn.model, first, cairn.documentHooks, afterWriteOf(first))
            : current().query(first, params);
        // A write to locales or permissions applies at once: the app reads its locales again, the roles' cached actions go.
        const afterWriteOf = (uid: string) =>
          uid === LOCALE_UID ? () => cairn.appLocales.reload(joining) : uid === PERMISSION_UID ? async () => forgetPermissions(cairn.services) : undefined;
        const transaction = (callback: Parameters<typeof strapiTransaction>[2]) => strapiTransaction(cairn.db, cairn.documentHooks, callback);
        const own: Record<string | symbol, unknown> = {
          lifecycles,
          query,
          transaction,
          get metadata() {
            return (metadata ??= strapiMetadata(cairn.model, cairn.db.dialect));
          },
          // Strapi's knex, built on first read (database/knex.ts); its queries never join Cairn's transactions.
          get connection() {
            return cairn.strapiKnex.connection;
          },
          // Strapi 5.54's `db.getConnection(table)`: that knex, on `table` when one is named (its database/index.js).
          getConnection(table?: string) {
            const connection = cairn.strapiKnex.connection;
            return table ? connection(table) : connection;
          },
          // Strapi's dialect object (not Cairn's dialect name): the members database/knex.ts provides; others are errors.
          get dialect() {
            const strapiDialect = cairn.strapiKnex.dialect;
            return (dialect ??= loud({ ...strapiDialect, schemaInspector: loud(strapiDialect.schemaInspector, 'db.dialect.schemaInspector') }, 'db.dialect'));
          },
        };
        db ??= new Proxy(cairn.db, {
          get: (inner, name) => (name in own ? own[name] : bound(inner, Reflect.get(inner, name, inner))),
        });
        return db;
      }
      // Strapi's members the server code registered (`service`, `controller`, `contentTypes`...).
      const server = cairn.serverStrapi;
      if (server && typeof key === 'string' && key in server) return server[key];
      // Cairn's own members (plugin, customFields, log...); any other is an API Cairn does not provide: an error that
      // names it where the app reads it (in register or bootstrap, it stops the start), never undefined.
      if (typeof key === 'symbol' || key in target || QUIET.has(key)) return bound(target, Reflect.get(target, key, target));
      throw notProvided(key);
    },
  }) as unknown as StrapiFace<T>;
}

/** Drops users-permissions' cached role actions (auth/roles.ts), when the feature is on. */
function forgetPermissions(services: Map<string, Record<string, unknown>>): void {
  (services.get('users-permissions')?.permissions as { forget(): void } | undefined)?.forget();
}

/** An object of Strapi's whose other members are APIs Cairn does not provide: reading one throws, naming it. */
function loud<T extends object>(object: T, path: string): T {
  return new Proxy(object, {
    get: (target, key) => {
      if (typeof key === 'symbol' || key in target || QUIET.has(key)) return Reflect.get(target, key, target);
      throw notProvided(`${path}.${key}`);
    },
  });
}

/** `api::post.post`, `plugin::users-permissions.user`, `default.seo`-like uids are never SQL (which has a space). */
const MODEL_UID = /^[a-z][\w-]*(::|\.)[\w.-]+$/i;

/** A method read through the face still runs on the object itself (private fields, `this`). */
function bound(target: object, value: unknown): unknown {
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
