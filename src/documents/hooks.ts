import { AsyncLocalStorage } from 'node:async_hooks';
import type { ContentType } from '../model/types.js';
import type { Database } from '../database/types.js';

/** Strapi 5's Document Service middleware context: `{ uid, contentType, action, params }`. */
export interface DocumentMiddlewareContext {
  uid: string;
  /** The content type's schema as Strapi gives it (`kind`, `info`, `options`, `attributes` by name with their `type`...). */
  contentType: StrapiSchema;
  action: string;
  params: Record<string, unknown>;
}

/** `strapi.documents.use((context, next) => ...)`: may change `context.params`, answer itself, or change what `next()` answers. */
export type DocumentMiddleware = (context: DocumentMiddlewareContext, next: () => Promise<unknown>) => unknown;

/** The Query Engine's lifecycle events, as Strapi 5 names them. */
export const LIFECYCLE_ACTIONS = [
  'beforeCreate', 'afterCreate', 'beforeCreateMany', 'afterCreateMany',
  'beforeUpdate', 'afterUpdate', 'beforeUpdateMany', 'afterUpdateMany',
  'beforeDelete', 'afterDelete', 'beforeDeleteMany', 'afterDeleteMany',
  'beforeCount', 'afterCount', 'beforeFindOne', 'afterFindOne', 'beforeFindMany', 'afterFindMany',
] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];
const READ_ACTIONS: readonly LifecycleAction[] = ['beforeCount', 'afterCount', 'beforeFindOne', 'afterFindOne', 'beforeFindMany', 'afterFindMany'];

/** Strapi's lifecycle event: `{ action, model, params, result, state }` (`state` is shared by a subscriber's before and after). */
export interface LifecycleEvent {
  action: LifecycleAction;
  model: LifecycleModel;
  params: Record<string, unknown>;
  result?: unknown;
  state: Record<string, unknown>;
}

/** A content type as Strapi's `strapi.contentType(uid)` gives it: the members app code reads. */
export interface StrapiSchema {
  uid: string;
  modelType: 'contentType';
  modelName: string;
  kind: string;
  collectionName: string;
  info: ContentType['info'];
  options: { draftAndPublish: boolean };
  pluginOptions: Readonly<Record<string, unknown>>;
  /** By name, each with Strapi's `type` (`string`, `relation`, `media`, `component`, `dynamiczone`...). */
  attributes: Record<string, Record<string, unknown>>;
}

/** What `event.model` holds (Strapi's model metadata, the members apps use). */
export interface LifecycleModel {
  uid: string;
  singularName: string;
  pluralName: string;
  tableName: string;
  kind: string;
  attributes: Record<string, Record<string, unknown>>;
}

type Handler = (event: LifecycleEvent) => unknown;
/** `strapi.db.lifecycles.subscribe(...)`: a function called for every event, or `{ models?, beforeCreate(event) {...}, ... }`. */
export type LifecycleSubscriber = Handler | ({ models?: string[] } & Partial<Record<LifecycleAction, Handler>>);

/** The states of one query's subscribers, carried from its before event to its after event. */
export type LifecycleStates = Map<unknown, Record<string, unknown>>;

/**
 * App code around the Document Service: `strapi.documents.use` middlewares and the Query Engine's lifecycles (a
 * content type's `lifecycles.js`, `strapi.db.lifecycles.subscribe`). One per app, shared by every content type's
 * service. When there is none, a call costs one check (`intercepts`) and reads keep their compiled JSON path.
 */
export class DocumentHooks {
  private readonly middlewares: DocumentMiddleware[] = [];
  private readonly subscribers: LifecycleSubscriber[] = [];
  private readonly modelLifecycles = new Map<string, Partial<Record<LifecycleAction, Handler>>>();
  /** The transaction a lifecycle hook runs in: app code it calls (`strapi.documents(...)`) joins it. */
  private readonly current = new AsyncLocalStorage<Database>();

  /** `strapi.documents.use(middleware)`; returns the function that removes it (as Strapi's). */
  use(middleware: DocumentMiddleware): () => void {
    if (typeof middleware !== 'function') throw new TypeError(`strapi.documents.use expects a function (context, next), not ${typeof middleware}`);
    this.middlewares.push(middleware);
    return () => {
      const at = this.middlewares.indexOf(middleware);
      if (at !== -1) this.middlewares.splice(at, 1);
    };
  }

  /** `strapi.db.lifecycles.subscribe(subscriber)`; returns the function that removes it. */
  subscribe(subscriber: LifecycleSubscriber): () => void {
    if (typeof subscriber !== 'function' && (typeof subscriber !== 'object' || subscriber === null)) {
      throw new TypeError('Invalid subscriber. Expected function or object');
    }
    if (typeof subscriber === 'object') {
      for (const [key, value] of Object.entries(subscriber)) {
        if (key === 'models') {
          if (!Array.isArray(value) || value.some((m) => typeof m !== 'string')) throw new TypeError('strapi.db.lifecycles.subscribe: models must be an array of uids');
          continue;
        }
        if (!(LIFECYCLE_ACTIONS as readonly string[]).includes(key)) throw new TypeError(`strapi.db.lifecycles.subscribe: unknown lifecycle ${key} (known: ${LIFECYCLE_ACTIONS.join(', ')})`);
        if (typeof value !== 'function') throw new TypeError(`strapi.db.lifecycles.subscribe: ${key} must be a function`);
      }
    }
    this.subscribers.push(subscriber);
    return () => {
      const at = this.subscribers.indexOf(subscriber);
      if (at !== -1) this.subscribers.splice(at, 1);
    };
  }

  /** A content type's `lifecycles.js` (run before the subscribers, as Strapi's models-lifecycles subscriber is first). */
  setModelLifecycles(uid: string, lifecycles: Partial<Record<LifecycleAction, Handler>>): void {
    this.modelLifecycles.set(uid, lifecycles);
  }

  /** Whether any middleware is registered (every action of every type goes through them). */
  get hasMiddlewares(): boolean {
    return this.middlewares.length > 0;
  }

  /** Whether some lifecycle hook may see `action` on `uid`. */
  listens(uid: string, action: LifecycleAction): boolean {
    if (this.modelLifecycles.get(uid)?.[action]) return true;
    return this.subscribers.some((s) => typeof s === 'function' || ((!s.models || s.models.includes(uid)) && typeof s[action] === 'function'));
  }

  /**
   * Whether reads of `uid` must go through app code (middlewares, read lifecycles): they then parse their entries
   * (a middleware or a hook may read and change them) instead of splicing the database's JSON text.
   */
  intercepts(uid: string): boolean {
    // An app without any: three checks on every read of the compiled path.
    if (this.middlewares.length === 0 && this.subscribers.length === 0 && this.modelLifecycles.size === 0) return false;
    return this.middlewares.length > 0 || READ_ACTIONS.some((a) => this.listens(uid, a));
  }

  /** Runs an action through the middlewares, in the order they were added; `run` gets the params they end with. */
  async run<T>(context: DocumentMiddlewareContext, run: (params: Record<string, unknown>) => Promise<T>): Promise<T> {
    const chain = this.middlewares.slice();
    let index = 0;
    const next = async (): Promise<unknown> => {
      if (index < chain.length) return chain[index++](context, next);
      return run(context.params);
    };
    return (await next()) as T;
  }

  /**
   * Fires a lifecycle event on `contentType`: its `lifecycles.js` first, then the subscribers in order. `states`
   * carries each subscriber's `event.state` from a before event to the after event of the same query.
   */
  async fire(action: LifecycleAction, contentType: ContentType, properties: { params: Record<string, unknown>; result?: unknown }, states: LifecycleStates, trx?: Database): Promise<void> {
    const handlers: Array<[unknown, Handler]> = [];
    // A state per subscriber (a content type's lifecycles are one), shared by the before and after events.
    const lifecycles = this.modelLifecycles.get(contentType.uid);
    if (lifecycles?.[action]) handlers.push([lifecycles, lifecycles[action]]);
    for (const s of this.subscribers) {
      if (typeof s === 'function') handlers.push([s, s]);
      else if ((!s.models || s.models.includes(contentType.uid)) && typeof s[action] === 'function') handlers.push([s, s[action]!.bind(s)]);
    }
    for (const [key, handler] of handlers) {
      const event: LifecycleEvent = { action, model: lifecycleModel(contentType), state: states.get(key) ?? {}, ...properties };
      await (trx ? this.current.run(trx, () => handler(event)) : handler(event));
      states.set(key, event.state ?? {});
    }
  }

  /** The transaction the running lifecycle hook (or `strapi.db.transaction` callback) is in, if any: app code it calls joins it. */
  get transaction(): Database | undefined {
    return this.current.getStore();
  }

  /** Runs `fn` with `trx` as the transaction app code joins (`strapi.db.transaction`). */
  within<T>(trx: Database, fn: () => Promise<T>): Promise<T> {
    return this.current.run(trx, fn);
  }
}

const models = new WeakMap<ContentType, LifecycleModel>();
const schemas = new WeakMap<ContentType, StrapiSchema>();

/** Attributes by name with Strapi's `type` (Cairn's normalized ones name their kind). */
function strapiAttributes(ct: ContentType): Record<string, Record<string, unknown>> {
  return Object.fromEntries([...ct.attributes.entries()].map(([name, a]) => [name, { ...a, type: a.kind === 'scalar' ? a.type : a.kind }]));
}

function lifecycleModel(ct: ContentType): LifecycleModel {
  let model = models.get(ct);
  if (!model) {
    model = { uid: ct.uid, singularName: ct.info.singularName, pluralName: ct.info.pluralName, tableName: ct.collectionName ?? ct.table, kind: ct.kind, attributes: strapiAttributes(ct) };
    models.set(ct, model);
  }
  return model;
}

/** The schema a document middleware's `context.contentType` is. */
export function strapiSchema(ct: ContentType): StrapiSchema {
  let schema = schemas.get(ct);
  if (!schema) {
    schema = {
      uid: ct.uid,
      modelType: 'contentType',
      modelName: ct.info.singularName,
      kind: ct.kind,
      collectionName: ct.collectionName ?? ct.table,
      info: ct.info,
      options: { draftAndPublish: ct.draftAndPublish },
      pluginOptions: ct.pluginOptions,
      attributes: strapiAttributes(ct),
    };
    schemas.set(ct, schema);
  }
  return schema;
}
