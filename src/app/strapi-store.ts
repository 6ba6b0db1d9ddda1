import type { Database } from '../database/types.js';
import { deleteStoreValue, readStoreValue, writeStoreValue, type StoreKey } from '../database/core-store.js';

type StoreParams = Partial<StoreKey> & { value?: unknown };

/** One scope of the store (`strapi.store({ type: 'plugin', name: 'users-permissions' })`): its params merged into each call's. */
export interface ScopedStore {
  get(params?: StoreParams): Promise<unknown>;
  set(params?: StoreParams): Promise<void>;
  delete(params?: StoreParams): Promise<void>;
}

/** `strapi.store`: a function making scoped stores, with `get`, `set` and `delete` of its own. */
export type StrapiStore = ((defaults: StoreParams) => ScopedStore) & ScopedStore;

function keyOf(params: StoreParams, call: string): StoreKey {
  if (typeof params.key !== 'string' || params.key === '') throw new TypeError(`strapi.store.${call}: a key is required ({ key: '...' })`);
  return params as StoreKey;
}

/**
 * Strapi 5.54's core store for app code (`strapi.store`), on the rows Strapi's admin edits (database/core-store.ts):
 * `strapi.store({ type: 'plugin', name: 'users-permissions', key: 'advanced' }).get()`, or
 * `strapi.store.get({ type, name, key })`; `set({ key, value })` stores any JSON value, `delete({ key })` removes it.
 */
export function strapiStore(db: () => Database): StrapiStore {
  const get = (params: StoreParams = {}) => readStoreValue(db(), keyOf(params, 'get'));
  const set = (params: StoreParams = {}) => writeStoreValue(db(), keyOf(params, 'set'), params.value);
  const remove = (params: StoreParams = {}) => deleteStoreValue(db(), keyOf(params, 'delete'));
  const scoped = (defaults: StoreParams): ScopedStore => ({
    get: (params = {}) => get({ ...defaults, ...params }),
    set: (params = {}) => set({ ...defaults, ...params }),
    delete: (params = {}) => remove({ ...defaults, ...params }),
  });
  return Object.assign(scoped, { get, set, delete: remove });
}
