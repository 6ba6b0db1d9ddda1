import { strapiDocuments, type StrapiDocuments } from '../documents/strapi-service.js';
import type { LifecycleSubscriber } from '../documents/hooks.js';
import type { Database } from '../database/types.js';
import type { Documents } from '../documents/index.js';
import type { DocumentHooks } from '../documents/hooks.js';

/** What the face needs of the app (the `Cairn` object). */
interface FaceHost {
  documents(uid: string): Documents;
  readonly documentHooks: DocumentHooks;
  readonly db: Database;
  /** What the app's server code gets as `strapi` (server-code/strapi-object.ts), once registered: its members come first. */
  readonly serverStrapi?: Record<string, unknown>;
}

/** What app code gets as `strapi`. */
export type StrapiFace<T extends FaceHost> = Omit<T, 'documents' | 'db'> & {
  documents: StrapiDocuments;
  db: Database & { lifecycles: { subscribe(subscriber: LifecycleSubscriber): () => void } };
};

/**
 * The `strapi` object app code receives (in `register`/`bootstrap`/`destroy`, and as the global `strapi` that
 * lifecycle files and services use): a thin face over the app. `strapi.documents` is Strapi 5's Document Service
 * (`strapi.documents(uid).findMany()`, `strapi.documents.use(middleware)`); `strapi.db.lifecycles.subscribe` adds
 * lifecycle subscribers; once the server code is registered, Strapi's members it provides (`service`, `controller`,
 * `config.get`, `contentTypes`...); every other member is the app's own (`plugin`, `customFields`, `log`...).
 */
export function strapiFace<T extends FaceHost>(cairn: T): StrapiFace<T> {
  const documents = strapiDocuments((uid) => cairn.documents(uid), cairn.documentHooks);
  const lifecycles = { subscribe: (subscriber: LifecycleSubscriber) => cairn.documentHooks.subscribe(subscriber) };
  let db: object | undefined;
  return new Proxy(cairn, {
    get: (target, key) => {
      if (key === 'documents') return documents;
      if (key === 'db') {
        db ??= new Proxy(cairn.db, { get: (inner, name) => (name === 'lifecycles' ? lifecycles : bound(inner, Reflect.get(inner, name, inner))) });
        return db;
      }
      // Strapi's members the server code registered (`service`, `controller`, `config.get`, `contentTypes`...).
      const server = cairn.serverStrapi;
      if (server && typeof key === 'string' && key in server) return server[key];
      return bound(target, Reflect.get(target, key, target));
    },
  }) as unknown as StrapiFace<T>;
}

/** A method read through the face still runs on the object itself (private fields, `this`). */
function bound(target: object, value: unknown): unknown {
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
