import type { Database } from '../database/types.js';
import type { DocumentHooks } from '../documents/hooks.js';

/** What Strapi's `strapi.db.transaction` gives its callback. */
export interface StrapiTransactionHandles {
  trx: Database;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  onCommit(callback: () => unknown): void;
  onRollback(callback: () => unknown): void;
}

/**
 * Strapi's `trx` is a knex transaction; Cairn's is its own (its SQL runs on its own drivers). Knex's
 * `.transacting(trx)` reads `trx.client`: given Cairn's, it would run the query outside the transaction without a
 * word, so reading `client` throws instead, saying why.
 */
function notKnex(trx: Database): Database {
  return new Proxy(trx, {
    get(target, key) {
      if (key === 'client') {
        throw new Error(
          "strapi.db.transaction's trx is Cairn's transaction, not a knex one: strapi.db.connection's queries (.transacting(trx)) cannot join it. " +
            'Use strapi.db.query(uid) or strapi.documents(uid) inside the transaction, or run the knex query outside it (see README: strapi.db.connection)',
        );
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Ends a transaction whose callback called `rollback()`, carrying the callback's value out. */
class RolledBack {
  constructor(readonly value: unknown) {}
}

/**
 * Strapi 5's `strapi.db.transaction(async ({ trx, rollback, commit, onCommit, onRollback }) => ...)`: the Document
 * Service and the Query Engine called inside join the transaction; it commits when the callback returns and rolls
 * back when it throws (rethrown) or called `rollback()` (its value returned). Inside another transaction, the
 * callback joins that one, as in Strapi. Never run twice: a conflict fails as it came.
 */
export async function strapiTransaction<T>(db: Database, hooks: DocumentHooks, callback: (handles: StrapiTransactionHandles) => Promise<T> | T): Promise<T> {
  const onCommit: Array<() => unknown> = [];
  const onRollback: Array<() => unknown> = [];
  let rolledBack = false;
  const handles = (trx: Database): StrapiTransactionHandles => ({
    trx: notKnex(trx),
    // Strapi commits an explicit `commit()` at once; here the transaction commits when the callback returns.
    commit: async () => {},
    rollback: async () => {
      rolledBack = true;
    },
    onCommit: (fn) => void onCommit.push(fn),
    onRollback: (fn) => void onRollback.push(fn),
  });
  const outer = hooks.transaction;
  if (outer) return callback(handles(outer));
  try {
    const value = await db.transaction(
      (trx) =>
        hooks.within(trx, async () => {
          const result = await callback(handles(trx));
          if (rolledBack) throw new RolledBack(result);
          return result;
        }),
      { once: true },
    );
    for (const fn of onCommit) await fn();
    return value;
  } catch (error) {
    for (const fn of onRollback) await fn();
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  }
}
