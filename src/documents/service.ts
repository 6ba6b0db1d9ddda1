import type { ContentType } from '../model/types.js';
import type { ReadSpec, Status } from '../query/types.js';
import { parseDocumentParams, specSource } from '../query/index.js';
import type { Database } from '../database/types.js';
import { cloneData, clonePopulate } from './clone-data.js';
import { cloneRow, firstDocumentId, RowStore, separateDraftStamp, uniqueValueTaken, versionRows, type VersionRow } from '../database/store/index.js';
import { ApplicationError, ValidationError } from '../errors/index.js';
import type { DocumentsContext } from './context.js';
import { newDocumentId } from '../database/document-id.js';
import { singleTypeLockKey } from '../database/document-locks.js';
import { PairedListReads } from '../database/strapi-store/index.js';
import { paginationMeta, readOne, readPage, type JsonPage } from './read.js';
import { writeChildren } from './row-writer.js';
import type { StrapiRelationScope } from './strapi-relation-writes.js';
import type { DocumentService, Entry, FindParams, FindResult, WriteParams } from './types.js';
import { discardStrapiDraft, publishStrapiVersion, publishStrapiWrite, unpublishStrapiVersion } from './strapi-versions.js';
import { planRow, type RowPlan } from './write-plan.js';
import { hashPasswords } from './password-values.js';
import { checkPublishable } from './publish-check.js';
import { holdsUnique, uniqueErrors, type TakenLookup } from './unique-rule.js';
import { bodyTree } from './unique-tree.js';
import { sharedAttributes, sharedPopulate, sharedValuesText, withSharedValues } from './shared-values.js';
import { deleteLockSet, lockForWrite, publishLockSet, writeLockSet } from './write-locks.js';
import { strapiSchema, type DocumentHooks, type LifecycleAction, type LifecycleStates } from './hooks.js';
import type { PaginationMeta } from './read.js';
import type { EntryEventName, VersionRef } from './entry-events.js';
import { eventReadSpec, eventModel } from './event-entries.js';

type Params = Record<string, unknown>;

/**
 * Strapi v5's document service for one content-type. Reads compile to one SQL statement; every write runs in
 * one transaction, so a failing part leaves the database as it was.
 */
/** What app code reads (entries of code's writes, lifecycle results): private attributes and passwords too. */
const CODE = { withPrivate: true } as const;

export class Documents implements DocumentService {
  constructor(
    private readonly ctx: DocumentsContext,
    readonly contentType: ContentType,
  ) {}

  /**
   * Runs `work` with this service bound to one transaction (the writes in it join it): a write and the read of its
   * answer then commit together, so an answer that can't be read leaves nothing behind, and a client retrying
   * after the error makes one document, not two. Inside, use only the service given: on SQLite another read would
   * wait for the transaction to end.
   */
  transaction<T>(work: (documents: Documents) => Promise<T>): Promise<T> {
    if (this.ctx.db.inTransaction) return work(this);
    return this.ctx.db.transaction((trx) => work(new Documents({ ...this.ctx, db: trx }, this.contentType)));
  }

  /** Validates Strapi-shaped read parameters into a ReadSpec (same rules as REST). */
  /** `withPrivate`: a read for app code (Strapi's Document Service answers private attributes and passwords). */
  spec(params: FindParams = {}, limits: DocumentsContext['rest'] = this.ctx.rest, options: { withPrivate?: boolean } = {}): ReadSpec {
    return parseDocumentParams(this.ctx.model, this.contentType, params as Record<string, unknown>, {
      defaultLimit: limits.defaultLimit,
      maxLimit: limits.maxLimit,
      withCount: limits.withCount,
      locales: this.ctx.locales.codes,
      defaultLocale: this.ctx.locales.defaultLocale,
      ...(options.withPrivate ? { withPrivate: true } : {}),
    });
  }

  /** List read as JSON texts (the REST fast path: no parse/stringify round trip). */
  findPage(spec: ReadSpec): Promise<JsonPage> {
    if (this.intercepts(spec)) return this.interceptedPage(spec);
    return readPage(this.ctx, this.contentType, spec);
  }

  findOneJson(spec: ReadSpec, documentId: string | undefined): Promise<string | null> {
    if (this.intercepts(spec)) return this.interceptedOne(spec, documentId);
    return readOne(this.ctx, this.contentType, spec, documentId);
  }

  /** `api.rest`'s limits (`defaultLimit`, `maxLimit`, `withCount`). */
  get restLimits(): DocumentsContext['rest'] {
    return this.ctx.rest;
  }

  /** The app's document middlewares and lifecycle hooks. */
  get hooks(): DocumentHooks | undefined {
    return this.ctx.hooks;
  }

  /**
   * Whether reads of this type go through app code (document middlewares, read lifecycles): they then read parsed
   * entries, which that code may change. Without any, reads splice the database's JSON text (the compiled path).
   */
  get intercepted(): boolean {
    return this.ctx.hooks?.intercepts(this.contentType.uid) ?? false;
  }

  /** A read from a transport (its spec knows its params) while app code is around reads. */
  private intercepts(spec: ReadSpec): boolean {
    return this.ctx.hooks !== undefined && this.ctx.hooks.intercepts(this.contentType.uid) && specSource(spec) !== undefined;
  }

  /**
   * Runs a Document Service action through the app's middlewares (Strapi 5's context `{ uid, contentType, action,
   * params }`); `run` gets the params they end with and its answer goes back through them.
   */
  run<T>(action: string, params: Params, run: (params: Params) => Promise<T>): Promise<T> {
    const hooks = this.ctx.hooks;
    if (!hooks?.hasMiddlewares) return run(params);
    return hooks.run({ uid: this.contentType.uid, contentType: strapiSchema(this.contentType), action, params }, run);
  }

  /** This service joined to the transaction of the lifecycle hook running (app code it calls is part of the write). */
  joined(): Documents {
    const trx = this.ctx.hooks?.transaction;
    return trx && trx !== this.ctx.db ? new Documents({ ...this.ctx, db: trx }, this.contentType) : this;
  }

  /** Fires a lifecycle event of this type, if anything listens (in the current transaction, if any). */
  private async fire(action: LifecycleAction, params: Params, result: unknown, states: LifecycleStates): Promise<void> {
    const hooks = this.ctx.hooks;
    if (!hooks?.listens(this.contentType.uid, action)) return;
    await hooks.fire(action, this.contentType, result === undefined ? { params } : { params, result }, states, this.ctx.db.inTransaction ? this.ctx.db : undefined);
  }

  private listens(action: LifecycleAction): boolean {
    return this.ctx.hooks?.listens(this.contentType.uid, action) ?? false;
  }

  /**
   * A list read with its lifecycles (`beforeFindMany`, `afterFindMany`): `toSpec` reads the params as the hooks
   * leave them; the entries are parsed (hooks may change them in place).
   */
  async readMany(params: Params, toSpec: (params: Params) => ReadSpec): Promise<{ results: Entry[]; pagination: PaginationMeta; spec: ReadSpec }> {
    const states: LifecycleStates = new Map();
    await this.fire('beforeFindMany', params, undefined, states);
    const spec = toSpec(params);
    const page = await readPage(this.ctx, this.contentType, spec);
    const results = page.rows.map((r) => JSON.parse(r) as Entry);
    await this.fire('afterFindMany', params, results, states);
    return { results, pagination: page.pagination, spec };
  }

  /** One entry's read with its lifecycles (`beforeFindOne`, `afterFindOne`). */
  async readFirst(params: Params, toSpec: (params: Params) => ReadSpec, documentId: string | undefined): Promise<Entry | null> {
    const states: LifecycleStates = new Map();
    await this.fire('beforeFindOne', params, undefined, states);
    const text = await readOne(this.ctx, this.contentType, toSpec(params), documentId);
    const result = text === null ? null : (JSON.parse(text) as Entry);
    await this.fire('afterFindOne', params, result, states);
    return result;
  }

  /** A count with its lifecycles (`beforeCount`, `afterCount`). */
  async readCount(params: Params, toSpec: (params: Params) => ReadSpec, counted?: { key: string; total: number }): Promise<number> {
    const states: LifecycleStates = new Map();
    await this.fire('beforeCount', params, undefined, states);
    let total: number;
    if (counted && counted.key === countKey(params)) total = counted.total;
    else {
      const spec = toSpec(params);
      const page = await readPage(this.ctx, this.contentType, { ...spec, pagination: { mode: 'page', page: 1, pageSize: 1, withCount: true } });
      total = (page.pagination as { total: number }).total;
    }
    await this.fire('afterCount', params, total, states);
    return total;
  }

  /**
   * A transport's list read while app code is around reads: Strapi's core service calls `findMany`, then `count`
   * when the answer shows the total, each through the middlewares, with the query's params (`status` defaulting to
   * `published`, as the core service's).
   */
  private async interceptedPage(spec: ReadSpec): Promise<JsonPage> {
    const source = specSource(spec)!;
    const params = (): Params => ({ status: 'published', ...cloneParams(source.params) });
    let read: ReadSpec = spec;
    let pagination: PaginationMeta | undefined;
    // The list's statement counted already: a count with the same params (as the middlewares and hooks leave them) uses its total.
    let counted: { key: string; total: number } | undefined;
    const results = await this.run('findMany', params(), async (p) => {
      const page = await this.readMany(p, (q) => source.reparse(q));
      read = page.spec;
      pagination = page.pagination;
      const total = (page.pagination as { total?: number }).total;
      if (total !== undefined) counted = { key: countKey(p), total };
      return page.results;
    });
    if (!Array.isArray(results)) throw new TypeError(`a document middleware answered findMany of ${this.contentType.uid} with ${typeof results}, not an array of entries`);
    if (read.pagination.withCount && (this.ctx.hooks!.hasMiddlewares || this.listens('beforeCount') || this.listens('afterCount'))) {
      const total = await this.run('count', params(), (p) => this.readCount(p, (q) => source.reparse(q), counted));
      pagination = { ...pagination!, total } as PaginationMeta;
      if ('pageSize' in pagination) pagination.pageCount = Math.ceil(total / pagination.pageSize);
    }
    return { rows: results.map((r) => JSON.stringify(r)), pagination: pagination ?? paginationMeta(read, undefined) };
  }

  /** A transport's one-entry read while app code is around reads: `findOne` (a document named) or `findFirst`. */
  private async interceptedOne(spec: ReadSpec, documentId: string | undefined): Promise<string | null> {
    const source = specSource(spec)!;
    const params: Params = { status: 'published', ...cloneParams(source.params), ...(documentId === undefined ? {} : { documentId }) };
    const entry = await this.run(documentId === undefined ? 'findFirst' : 'findOne', params, (p) => {
      const { documentId: id, ...rest } = p;
      return this.readFirst(rest, (q) => source.reparse(q), id === undefined ? undefined : String(id));
    });
    return entry === null || entry === undefined ? null : JSON.stringify(entry);
  }

  async findMany(params: FindParams = {}): Promise<FindResult> {
    const page = await this.findPage(this.spec(params));
    return { results: page.rows.map((r) => JSON.parse(r) as Entry), pagination: page.pagination };
  }

  async findOne(params: FindParams & { documentId: string }): Promise<Entry | null> {
    const { documentId, ...rest } = params;
    const text = await this.findOneJson(this.spec(rest), documentId);
    return text === null ? null : (JSON.parse(text) as Entry);
  }

  async findFirst(params: FindParams = {}): Promise<Entry | null> {
    const text = await this.findOneJson(this.spec(params), undefined);
    return text === null ? null : (JSON.parse(text) as Entry);
  }

  async count(params: FindParams = {}): Promise<number> {
    const spec = this.spec({ ...params, pagination: { page: 1, pageSize: 1, withCount: true } });
    const page = await this.findPage(spec);
    return (page.pagination as { total: number }).total;
  }

  /**
   * A single type's one document (undefined before its first write), found as Strapi finds it for `createOrUpdate`,
   * `delete` and GraphQL's mutations (`strapi.db.query(uid).findOne()`): any row, whatever its locale and version. A
   * write in a locale the document lacks then adds that locale to it (updateDocument), not a second document.
   */
  singleDocumentId(): Promise<string | undefined> {
    return firstDocumentId(this.ctx.db, this.contentType);
  }

  /** The locale a write applies to: the request's, the body's, or the default (localized types only). */
  writeLocale(params: { locale?: string; data?: Record<string, unknown> }): string | undefined {
    if (!this.contentType.localized) return undefined;
    const locale = params.locale ?? params.data?.locale ?? this.ctx.locales.defaultLocale;
    if (typeof locale !== 'string' || !this.ctx.locales.codes.includes(locale)) {
      throw new ValidationError(`Invalid locale ${String(locale)}`, { key: 'locale', source: 'query', param: 'locale' });
    }
    return locale;
  }

  /**
   * Creates a document; app code may name its documentId (Strapi's Document Service keeps a given one): a document
   * may then get a locale version this way, but a second draft of one locale is refused in Strapi's words.
   */
  create(params: WriteParams, documentId?: string): Promise<Entry> {
    return this.transaction(async (documents) => {
      const id = await documents.createDocument(params, documentId, documentId !== undefined);
      return documents.writtenEntry(params, id);
    });
  }

  /**
   * Creates a document and answers with the version written (`writtenSpec`) as JSON text, shaped by `answer` (its
   * fields, populate...), read in the write's transaction: if it can't be read, nothing was written.
   */
  createAndRead(params: WriteParams, answer: ReadSpec): Promise<string> {
    if (this.ctx.hooks?.hasMiddlewares) return this.interceptedWrite('create', params, answer, undefined) as Promise<string>;
    const spec = this.writtenSpec(params, answer);
    return this.transaction(async (documents) => (await documents.findOneJson(spec, await documents.createDocument(params)))!);
  }

  /**
   * A transport's write while document middlewares are registered: they get Strapi's params (`status` defaulting to
   * `published`, the query's `fields`/`populate`), and the entry they answer with (parsed) is the answer.
   */
  private async interceptedWrite(action: 'create' | 'update', params: WriteParams & { documentId?: string }, answer: ReadSpec, documentId: string | undefined): Promise<string | null> {
    const source = specSource(answer);
    const given: Params = { ...(source ? cloneParams(source.params) : {}), ...definedOnly(params), status: params.status ?? 'published', ...(documentId === undefined ? {} : { documentId }) };
    const entry = await this.run(action, given, (p) => {
      const write = p as unknown as WriteParams & { documentId: string };
      const shape = source ? source.reparse({ fields: p.fields, populate: p.populate }) : answer;
      const spec = this.writtenSpec(write, shape);
      return this.transaction(async (documents) => {
        if (action === 'create') return parsed(await documents.findOneJson(spec, await documents.createDocument(write)));
        return (await documents.updateDocument(write)) ? parsed(await documents.findOneJson(spec, write.documentId)) : null;
      });
    });
    return entry === null || entry === undefined ? null : JSON.stringify(entry);
  }

  /** A given documentId has no draft yet in this locale (no row, for a type without Draft & Publish). */
  private async checkNewVersion(trx: Database, documentId: string, locale: string | undefined): Promise<void> {
    const ct = this.contentType;
    const rows = await versionRows(trx, ct, documentId, locale);
    if (!rows.some((r) => !ct.draftAndPublish || !r.published)) return;
    const state = ct.draftAndPublish ? 'draft' : '';
    const inLocale = ct.localized && locale ? ` and locale "${locale}"` : '';
    throw new ApplicationError(`A ${state} entry with documentId "${documentId}"${inLocale} already exists for UID "${ct.uid}". This combination must be unique.`);
  }

  /** Creates the document and returns its documentId (no answer read: see createAndRead). */
  async createDocument(params: WriteParams, existingId?: string, given = false): Promise<string> {
    const documentId = existingId ?? newDocumentId();
    const locale = this.writeLocale(params);
    let plan = await this.planned(params.data, 'create', params);
    return this.ctx.db.transaction(async (trx) => {
      // A single type has one document: a create that finds one (a first write that raced another's, each having
      // read that there was none) updates it, as the later of two createOrUpdate calls in a row would.
      if (this.contentType.kind === 'singleType') {
        await trx.lock([singleTypeLockKey(this.contentType.uid)]);
        const existing = await firstDocumentId(trx, this.contentType);
        if (existing !== undefined) {
          await this.on(trx).updateDocument({ ...params, documentId: existing });
          return existing;
        }
      }
      // Lifecycles run in the write's transaction: a hook that throws leaves nothing written.
      const states: LifecycleStates = new Map();
      const event = this.writeEvent(params, locale);
      if (this.listens('beforeCreate')) {
        await this.on(trx).fire('beforeCreate', event, undefined, states);
        // What the hooks changed in `data` is written (checked again, as a body is).
        plan = await this.planned(event.data, 'create', params);
      }
      // A document made here has no rows yet, so no row links to it: its publish has no links of others to mirror,
      // and the documents that link to it need not be looked for (nor locked).
      const publishLocks = this.publishes(params) && existingId !== undefined;
      await lockForWrite(trx, () => writeLockSet(trx, this.ctx.model, this.contentType, documentId, plan, publishLocks));
      if (given) await this.checkNewVersion(trx, documentId, locale);
      // The draft's afterCreate comes before the publish's events, as Strapi's create then publish fire them.
      const created = async () => {
        if (this.listens('afterCreate')) await this.on(trx).fire('afterCreate', event, await this.on(trx).versionEntry(documentId, 'draft', locale, params), states);
      };
      await this.insertVersion(trx, plan, documentId, locale, params.status, created);
      return documentId;
    });
  }

  /** This service on `trx`. */
  private on(trx: Database): Documents {
    return trx === this.ctx.db ? this : new Documents({ ...this.ctx, db: trx }, this.contentType);
  }

  /**
   * This service without `strapi.eventHub`'s entry events: for Strapi's plugins' own writes that go through its
   * Query Engine, not its Document Service (the media library's files, a user's deletion), which emit none.
   */
  quiet(): Documents {
    if (!this.ctx.events) return this;
    return (this.quietCopy ??= new Documents({ ...this.ctx, events: undefined }, this.contentType));
  }

  private quietCopy?: Documents;

  /** Whether app code listens to `eventName` on `strapi.eventHub`: when not, a write reads nothing for it. */
  private announces(eventName: EntryEventName): boolean {
    return this.ctx.events?.listens(eventName) ?? false;
  }

  /** Emits `eventName` for a version of a document once `trx` commits (the entry read then, as Strapi reads it). */
  private announce(trx: Database, eventName: EntryEventName, documentId: string, version: Status, locale: string | undefined): void {
    if (!this.announces(eventName)) return;
    const status = this.contentType.draftAndPublish ? version : 'published';
    this.ctx.events!.afterCommit(trx, eventName, eventModel(this.contentType), { documentId, status, locale });
  }

  /**
   * Emits `eventName` for a version the write removes (Strapi's entry.delete, entry.unpublish): read now, before it
   * goes, as the row it is (no populate), and emitted once `trx` commits.
   */
  private async announceRemoved(trx: Database, eventName: EntryEventName, documentId: string, version: Status, locale: string | undefined): Promise<void> {
    if (!this.announces(eventName)) return;
    const status: Status = this.contentType.draftAndPublish ? version : 'published';
    const spec = { ...eventReadSpec(this.ctx.model, this.contentType, 'row', (p) => this.spec(p)), status, locale };
    const entry = parsed(await readOne({ ...this.ctx, db: trx }, this.contentType, spec, documentId));
    this.ctx.events!.afterCommit(trx, eventName, eventModel(this.contentType), { entry });
  }

  /**
   * A version as `strapi.eventHub`'s events show it (read after the write committed): every relation, media,
   * component and dynamic zone populated, private attributes and passwords left out (Strapi's deep populate and
   * `defaultSanitizeOutput`).
   */
  async eventEntry(version: VersionRef): Promise<Entry | null> {
    const spec = { ...eventReadSpec(this.ctx.model, this.contentType, 'deep', (p) => this.spec(p)), status: version.status, locale: version.locale };
    return parsed(await readOne(this.ctx, this.contentType, spec, version.documentId));
  }

  /** A write's lifecycle params: `data` (a copy hooks may change), and the write's `locale` and `status`. */
  private writeEvent(params: WriteParams, locale: string | undefined): Params {
    return { data: { ...params.data }, ...(locale === undefined ? {} : { locale }), ...(params.status === undefined ? {} : { status: params.status }) };
  }

  /** A version of a document as an entry (its draft for `draft` on a Draft & Publish type), for a lifecycle's `result`. */
  private async versionEntry(documentId: string, version: Status, locale: string | undefined, shape: { fields?: unknown; populate?: unknown } = {}): Promise<Entry | null> {
    const status: Status = this.contentType.draftAndPublish ? version : 'published';
    const spec = { ...this.spec({ fields: shape.fields, populate: shape.populate }, this.ctx.rest, CODE), status, locale };
    return parsed(await readOne(this.ctx, this.contentType, spec, documentId));
  }

  private async insertVersion(trx: Database, plan: RowPlan, documentId: string, locale: string | undefined, status?: Status, created?: () => Promise<void>) {
    const ct = this.contentType;
    const store = new RowStore(trx, this.ctx.model);
    await this.checkUnique(trx, plan, documentId, locale);
    const before = await this.sharedSnapshot(trx, documentId, true);
    const now = new Date().toISOString();
    const columns: Record<string, unknown> = { ...plan.columns, document_id: documentId, created_at: now, updated_at: now };
    if (ct.localized) columns.locale = locale;
    columns.published_at = ct.draftAndPublish ? null : now;
    const rowId = await store.insert(ct, columns);
    await writeChildren(store, ct, rowId, plan, this.relationScope(locale, true));
    await created?.();
    // Strapi's create (and an update making a new locale) emits entry.create for the draft, before the publish's.
    this.announce(trx, 'entry.create', documentId, 'draft', locale);
    const publishing = ct.draftAndPublish && status !== 'draft';
    if (publishing) await this.publishChecked(store, documentId, await versionRows(trx, ct, documentId, locale), now, locale);
    await this.syncSharedValues(store, documentId, locale, publishing || !ct.draftAndPublish, before);
  }

  update(params: WriteParams & { documentId: string }): Promise<Entry | null> {
    return this.transaction(async (documents) => {
      if (!(await documents.updateDocument(params))) return null;
      return documents.writtenEntry(params, params.documentId);
    });
  }

  /** `createAndRead` for an update; null when there is no such document. */
  updateAndRead(params: WriteParams & { documentId: string }, answer: ReadSpec): Promise<string | null> {
    if (this.ctx.hooks?.hasMiddlewares) return this.interceptedWrite('update', params, answer, params.documentId);
    const spec = this.writtenSpec(params, answer);
    return this.transaction(async (documents) => ((await documents.updateDocument(params)) ? documents.findOneJson(spec, params.documentId) : null));
  }

  /**
   * Updates a document's version in a locale (creating the locale version if the document exists in another).
   * `lifecycles: false`: a write that is part of another action's events (a clone's create) fires no update events.
   */
  async updateDocument(params: WriteParams & { documentId: string }, options: { lifecycles?: boolean } = {}): Promise<boolean> {
    const listens = (action: LifecycleAction) => options.lifecycles !== false && this.listens(action);
    const ct = this.contentType;
    const locale = this.writeLocale(params);
    // Checked before anything is read or locked: a body that is wrong is answered without waiting for a lock.
    let updatePlan = await this.planned(params.data, 'update', params);
    return this.ctx.db.transaction(async (trx) => {
      const publishing = this.publishes(params);
      await lockForWrite(trx, () => writeLockSet(trx, this.ctx.model, ct, params.documentId, updatePlan, publishing));
      // A type whose locales share values reads every locale's rows at once: the sync compares with the first of them.
      // A publishing write reads whether its published row is the draft's copy with them (VersionRow.sameStamp).
      const stamps = { stamps: publishing && ct.draftAndPublish };
      const everyLocale = sharedAttributes(ct).length ? await versionRows(trx, ct, params.documentId, '*', stamps) : undefined;
      const rows = everyLocale ? everyLocale.filter((r) => r.locale === locale) : await versionRows(trx, ct, params.documentId, locale, stamps);
      if (!rows.length) {
        const elsewhere = everyLocale ?? (ct.localized ? await versionRows(trx, ct, params.documentId, '*') : []);
        if (!elsewhere.length) return false;
        // A new locale of the document: a create, as Strapi's update makes it (with its lifecycles), its
        // non-localized values taken from an existing version (the published one first) where data leaves them out.
        const source = elsewhere.find((r) => r.published) ?? elsewhere[0];
        const existing = await this.on(trx).versionEntry(params.documentId, source.published ? 'published' : 'draft', source.locale ?? undefined, { populate: sharedPopulate(this.ctx.model, ct) });
        if (existing) params = { ...params, data: withSharedValues(this.ctx.model, ct, params.data, existing) };
        if (listens('beforeCreate') || listens('afterCreate')) {
          await this.on(trx).createDocument(params, params.documentId);
          return true;
        }
        const plan = await this.planned(params.data, 'create', params);
        await this.insertVersion(trx, plan, params.documentId, locale, params.status);
        return true;
      }
      const states: LifecycleStates = new Map();
      const target0 = ct.draftAndPublish ? rows.find((r) => !r.published) ?? rows[0] : rows[0];
      const event: Params = { ...this.writeEvent(params, locale), where: { id: target0.id } };
      if (listens('beforeUpdate')) {
        await this.on(trx).fire('beforeUpdate', event, undefined, states);
        updatePlan = await this.planned(event.data, 'update', params);
        await lockForWrite(trx, () => writeLockSet(trx, this.ctx.model, ct, params.documentId, updatePlan, publishing));
      }
      const plan = updatePlan;
      await this.checkUnique(trx, plan, params.documentId, locale);
      const before = await this.sharedSnapshot(trx, params.documentId, false, everyLocale);
      const store = new RowStore(trx, this.ctx.model);
      const now = new Date().toISOString();
      const target = ct.draftAndPublish ? rows.find((r) => !r.published) ?? rows[0] : rows[0];
      const published = ct.draftAndPublish ? rows.find((r) => r.published) : undefined;
      // Read before the draft changes: whether the published row is the draft's copy, to which the same write applies
      // (read again after a beforeUpdate hook, app code that may have written the document).
      const stamped = listens('beforeUpdate') && publishing ? (await versionRows(trx, ct, params.documentId, locale, stamps)).find((r) => r.id === target.id) : target;
      const inSync = publishing && published !== undefined && target !== published && stamped?.sameStamp === true;
      // Strapi sets published_at again on every update of a type without Draft & Publish (docs/strapi-5-writes.md, 2).
      const republished = !ct.draftAndPublish ? { published_at: now } : {};
      await store.update(ct, [target.id], { ...plan.columns, updated_at: now, ...republished });
      const scope = this.relationScope(locale, false);
      // The draft's relation writes and the in-sync publish's apply the same lists: their target rows are read once,
      // unless lifecycle hooks (app code, which may write) run in between.
      const hooked = (['beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete'] as const).some(listens);
      if (!hooked) scope.targetsRead = new Map();
      // And the published row's lists are read with the draft's (nothing writes them before the publish applies the
      // same connects to them: strapi-versions.ts publishStrapiWrite).
      if (!hooked && inSync) scope.paired = new PairedListReads(ct.table, target.id, published!.id);
      await writeChildren(store, ct, target.id, plan, scope);
      // Strapi's update emits entry.update for the draft, before the publish's (a clone's own write emits none).
      if (options.lifecycles !== false) this.announce(trx, 'entry.update', params.documentId, 'draft', locale);
      // The draft's afterUpdate comes before the publish's events, as Strapi's update then publish fire them.
      const updated = async () => {
        if (listens('afterUpdate')) await this.on(trx).fire('afterUpdate', event, await this.on(trx).versionEntry(params.documentId, 'draft', locale, params), states);
      };
      if (inSync || publishing) await updated();
      if (inSync) await this.publishInSync(store, params.documentId, rows, target.id, published!.id, plan, now, { ...scope, version: 'published' });
      else if (publishing) await this.publishChecked(store, params.documentId, await versionRows(trx, ct, params.documentId, locale), now, locale);
      else {
        if (published) await separateDraftStamp(trx, ct, target.id, published.id);
        await updated();
      }
      await this.syncSharedValues(store, params.documentId, locale, publishing || !ct.draftAndPublish, before);
      return true;
    });
  }

  /**
   * Deletes a document's versions in a locale. With document middlewares registered, the call goes through them
   * (action `delete`, Strapi's answer `{ documentId, entries }` from `next()`).
   */
  async delete(params: { documentId: string; locale?: string }): Promise<{ documentId: string; deleted: number }> {
    if (!this.ctx.hooks?.hasMiddlewares) return this.deleteDocument(params);
    return this.run('delete', definedOnly(params), (p) => this.deleteWithEntries(p as { documentId: string; locale?: string })) as Promise<{ documentId: string; deleted: number }>;
  }

  /** `delete` answering as Strapi's does: the entries deleted (read first, in the same transaction). */
  deleteWithEntries(params: { documentId: string; locale?: string }): Promise<{ documentId: string; entries: Entry[]; deleted: number }> {
    return this.transaction(async (documents) => {
      const locale = params.locale;
      const entries = [...(this.contentType.draftAndPublish ? await documents.versionEntries(params.documentId, 'draft', locale) : []), ...(await documents.versionEntries(params.documentId, 'published', locale))];
      const { deleted } = await documents.deleteDocument(params);
      return { documentId: params.documentId, entries, deleted };
    });
  }

  /**
   * A document's versions of one kind (drafts or published) in `locale` (default locale; `*`: every one), as entries
   * shaped by `selection` (`fields`, `populate`).
   */
  async versionEntries(documentId: string, status: Status, locale: string | undefined, selection: Params = {}): Promise<Entry[]> {
    const unlimited = { defaultLimit: 2 ** 31 - 1, maxLimit: 2 ** 31 - 1, withCount: false };
    const spec = { ...this.spec({ ...selection, status, locale, filters: { documentId: { $eq: documentId } } }, unlimited, CODE) };
    return (await readPage(this.ctx, this.contentType, spec)).rows.map((r) => JSON.parse(r) as Entry);
  }

  /**
   * Strapi's `clone`: a new document made of copies of this one's drafts (its rows, for a type without Draft &
   * Publish) in `locales`, each a draft of the new document with the same values, components, media and links, then
   * `data` merged over it as Strapi 5.54's clone merges it (clone-data.ts: deeply, lists index by index, relation
   * operations replacing the source's links). One transaction. Answers the new documentId (undefined when there was
   * nothing to clone) and the locales cloned.
   *
   * Lifecycles see what Strapi's clone fires: a create per cloned entry (its `entries.create`), `beforeCreate` with
   * the source's values and `data` merged over them as `params.data` (what hooks change there is written),
   * `afterCreate` with the clone; no update events.
   */
  async cloneDocument(documentId: string, locales: ReadonlyArray<string | undefined>, data: Params | undefined): Promise<{ documentId?: string; locales: Array<string | undefined> }> {
    const ct = this.contentType;
    const newId = newDocumentId();
    return this.ctx.db.transaction(async (trx) => {
      await lockForWrite(trx, () => publishLockSet(trx, this.ctx.model, ct, documentId));
      const on = this.on(trx);
      const cloned: Array<string | undefined> = [];
      for (const locale of locales) {
        const rowLocale = ct.localized ? this.writeLocale({ locale }) : undefined;
        const rows = await versionRows(trx, ct, documentId, rowLocale);
        const source = ct.draftAndPublish ? rows.find((r) => !r.published) : rows[0];
        if (!source) continue;
        const merged = await on.cloneMerge(documentId, rowLocale, data ?? {});
        const states: LifecycleStates = new Map();
        const { event, written } = await on.cloneEvent(documentId, newId, rowLocale, merged.written, states);
        const now = new Date().toISOString();
        await cloneRow(trx, this.ctx.model, ct, source.id, { document_id: newId, created_at: now, updated_at: now }, merged.fresh);
        if (Object.keys(written).length) {
          const params = { documentId: newId, locale, data: written, status: ct.draftAndPublish ? 'draft' : undefined } as WriteParams & { documentId: string };
          await on.updateDocument(params, { lifecycles: false });
        }
        if (event && this.listens('afterCreate')) await on.fire('afterCreate', event, await on.versionEntry(newId, 'draft', rowLocale), states);
        // Strapi's clone creates each copy: entry.create.
        this.announce(trx, 'entry.create', newId, 'draft', rowLocale);
        cloned.push(locale);
      }
      return cloned.length ? { documentId: newId, locales: cloned } : { locales: [] };
    });
  }

  /**
   * `data` merged over a source version as Strapi 5.54's clone merges it (clone-data.ts): what to write over the copy,
   * and the relations written afresh. The source is read (every attribute populated, private ones too) only when
   * `data` names a value that merges with the source's.
   */
  private async cloneMerge(documentId: string, locale: string | undefined, data: Params): Promise<{ written: Params; fresh: Set<string> }> {
    const ct = this.contentType;
    const merges = Object.keys(data).some((key) => {
      const attribute = ct.attributes.get(key);
      return attribute !== undefined && (attribute.kind !== 'scalar' || attribute.type === 'json' || attribute.type === 'blocks');
    });
    let source: Params = {};
    if (merges) {
      const status: Status = ct.draftAndPublish ? 'draft' : 'published';
      const spec = { ...this.spec({ populate: clonePopulate(this.ctx.model, ct) }, this.ctx.rest, CODE), status, locale };
      source = (parsed(await readOne(this.ctx, ct, spec, documentId)) ?? {}) as Params;
    }
    return cloneData(this.ctx.model, ct, source, data);
  }

  /**
   * A clone's `beforeCreate` (when listened to): its `params.data` is the source version's values with `data` (merged,
   * `cloneMerge`) over them. Returns the event and what to write over the copy: `data`, and whatever the hooks changed.
   */
  private async cloneEvent(sourceId: string, newId: string, locale: string | undefined, data: Params, states: LifecycleStates): Promise<{ event?: Params; written: Params }> {
    if (!this.listens('beforeCreate') && !this.listens('afterCreate')) return { written: data };
    const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...copied } = ((await this.versionEntry(sourceId, 'draft', locale)) ?? {}) as Params;
    const start: Params = { ...copied, ...data, documentId: newId };
    const event: Params = { data: { ...start }, ...(locale === undefined ? {} : { locale }), ...(this.contentType.draftAndPublish ? { status: 'draft' } : {}) };
    await this.fire('beforeCreate', event, undefined, states);
    const written: Params = {};
    for (const [key, value] of Object.entries(event.data as Params)) {
      if (key === 'documentId') continue;
      if (key in data || JSON.stringify(value) !== JSON.stringify(start[key])) written[key] = value;
    }
    return { event, written };
  }

  /** The locales a document has a version in, in the order its rows were made (types without locales: none). */
  async documentLocales(documentId: string): Promise<string[]> {
    if (!this.contentType.localized) return [];
    const rows = await versionRows(this.ctx.db, this.contentType, documentId, '*');
    return [...new Set(rows.flatMap((r) => (r.locale === null ? [] : [r.locale])))];
  }

  /** Deletes a document's versions in a locale (no middlewares: see delete). */
  async deleteDocument(params: { documentId: string; locale?: string }): Promise<{ documentId: string; deleted: number }> {
    const ct = this.contentType;
    const locale = params.locale === '*' ? '*' : this.writeLocale(params);
    const deleted = await this.ctx.db.transaction(async (trx) => {
      await lockForWrite(trx, () => deleteLockSet(trx, this.ctx.model, ct, params.documentId));
      const rows = await versionRows(trx, ct, params.documentId, locale);
      // Strapi's delete emits entry.delete for each version it deletes, as it was.
      for (const row of rows) await this.announceRemoved(trx, 'entry.delete', params.documentId, row.published ? 'published' : 'draft', row.locale ?? undefined);
      if (this.listens('beforeDelete') || this.listens('afterDelete')) {
        // Strapi deletes a document's rows one by one: each fires its events, with the row as it was for `afterDelete`.
        const on = this.on(trx);
        for (const row of rows) {
          const states: LifecycleStates = new Map();
          const event: Params = { where: { id: row.id } };
          await on.fire('beforeDelete', event, undefined, states);
          const entry = this.listens('afterDelete') ? await on.versionEntry(params.documentId, row.published ? 'published' : 'draft', row.locale ?? undefined) : null;
          await new RowStore(trx, this.ctx.model).deleteRows(ct, [row.id]);
          await on.fire('afterDelete', event, entry, states);
        }
        return rows.length;
      }
      await new RowStore(trx, this.ctx.model).deleteRows(ct, rows.map((r) => r.id));
      // Links join rows, and a row's links (both ways) go with it (RowStore.deleteRows).
      return rows.length;
    });
    return { documentId: params.documentId, deleted };
  }

  async publish(params: { documentId: string; locale?: string }): Promise<boolean> {
    const locale = this.contentType.localized ? this.writeLocale(params) : undefined;
    return this.changeVersions(params, async (store, rows) => {
      const before = await this.sharedSnapshot(store.db, params.documentId, false);
      await this.publishChecked(store, params.documentId, rows, new Date().toISOString(), locale);
      await this.syncSharedValues(store, params.documentId, firstLocale(rows.filter((r) => !r.published)), true, before);
    });
  }

  /**
   * Publishes the draft once it passes what Strapi 5 checks on publish and not on a draft (required values,
   * `minLength`, a list's `min`/`max`...): the stored draft is checked whole, so a draft written incomplete
   * earlier is refused here with Strapi's messages, and the transaction leaves everything as it was.
   */
  private async publishChecked(store: RowStore, documentId: string, rows: VersionRow[], now: string, locale: string | undefined) {
    const draft = rows.find((r) => !r.published);
    if (draft) await checkPublishable(store, this.contentType, documentId, draft.id, locale);
    const change = { replaces: 'published' as const, makes: draft ? ('published' as const) : undefined, from: 'draft' as const };
    await this.versionEvents(store, documentId, locale, rows, change, () => publishStrapiVersion(store, this.contentType, rows, now));
    // Strapi publishes drafts: without one, no entry.publish.
    if (draft) this.announce(store.db, 'entry.publish', documentId, 'published', locale);
  }

  /** Publishes a write whose published row was the draft's copy before it (Strapi's layout: strapi-versions.ts). */
  private async publishInSync(store: RowStore, documentId: string, rows: VersionRow[], draftId: number, publishedId: number, plan: RowPlan, now: string, scope: StrapiRelationScope) {
    const locale = scope.locale;
    await checkPublishable(store, this.contentType, documentId, draftId, locale);
    await this.versionEvents(store, documentId, locale, rows, { replaces: 'published', makes: 'published', from: 'draft' }, () =>
      publishStrapiWrite(store, this.contentType, { draftId, publishedId }, plan, now, scope),
    );
    this.announce(store.db, 'entry.publish', documentId, 'published', locale);
  }

  async unpublish(params: { documentId: string; locale?: string }): Promise<boolean> {
    const locale = this.contentType.localized ? this.writeLocale(params) : undefined;
    return this.changeVersions(params, async (store, rows) => {
      // Strapi's unpublish deletes the published version: entry.unpublish shows it as it was (none without one).
      if (rows.some((r) => r.published)) await this.announceRemoved(store.db, 'entry.unpublish', params.documentId, 'published', locale);
      await this.versionEvents(store, params.documentId, locale, rows, { replaces: 'published' }, () => unpublishStrapiVersion(store, this.contentType, rows));
    });
  }

  async discardDraft(params: { documentId: string; locale?: string }): Promise<boolean> {
    const locale = this.contentType.localized ? this.writeLocale(params) : undefined;
    return this.changeVersions(params, async (store, rows) => {
      const published = rows.some((r) => r.published);
      const before = await this.sharedSnapshot(store.db, params.documentId, false);
      await this.versionEvents(store, params.documentId, locale, rows, { replaces: 'draft', makes: published ? 'draft' : undefined, from: 'published' }, () => discardStrapiDraft(store, this.contentType, rows));
      // Strapi makes drafts from published versions only: without one, no entry.draft-discard.
      if (published) this.announce(store.db, 'entry.draft-discard', params.documentId, 'draft', locale);
      await this.syncSharedValues(store, params.documentId, firstLocale(rows.filter((r) => r.published)), false, before);
    });
  }

  /**
   * The lifecycle events of Strapi's row changes around a change of versions Cairn makes in place: Strapi's
   * publish deletes the published row and creates one from the draft, discarding a draft deletes the draft and
   * creates one from the published row, unpublishing deletes the published row. Each fires `beforeDelete`,
   * `afterDelete` (the row replaced), then `beforeCreate`, `afterCreate` (the row made; what hooks change in its
   * `params.data` is not written: the new version is the other one's copy).
   */
  private async versionEvents(
    store: RowStore,
    documentId: string,
    locale: string | undefined,
    rows: VersionRow[],
    change: { replaces: Status; makes?: Status; from?: Status },
    work: () => Promise<void>,
  ): Promise<void> {
    if (!(['beforeDelete', 'afterDelete', 'beforeCreate', 'afterCreate'] as const).some((e) => this.listens(e))) return work();
    const on = this.on(store.db);
    const old = rows.find((r) => r.published === (change.replaces === 'published'));
    if (old) {
      const states: LifecycleStates = new Map();
      const params: Params = { where: { id: old.id } };
      await on.fire('beforeDelete', params, undefined, states);
      await on.fire('afterDelete', params, this.listens('afterDelete') ? await on.versionEntry(documentId, change.replaces, locale) : null, states);
    }
    if (!change.makes) return work();
    const states: LifecycleStates = new Map();
    const source = this.listens('beforeCreate') || this.listens('afterCreate') ? await on.versionEntry(documentId, change.from!, locale) : null;
    const { id: _id, ...data } = source ?? ({} as Params);
    const params: Params = { data };
    await on.fire('beforeCreate', params, undefined, states);
    await work();
    await on.fire('afterCreate', params, this.listens('afterCreate') ? await on.versionEntry(documentId, change.makes, locale) : null, states);
  }

  private async changeVersions(
    params: { documentId: string; locale?: string },
    change: (store: RowStore, rows: VersionRow[]) => Promise<void>,
  ): Promise<boolean> {
    if (!this.contentType.draftAndPublish) throw new ValidationError(`${this.contentType.uid} does not use Draft & Publish`);
    const locale = this.writeLocale(params);
    return this.ctx.db.transaction(async (trx) => {
      await lockForWrite(trx, () => publishLockSet(trx, this.ctx.model, this.contentType, params.documentId));
      const rows = await versionRows(trx, this.contentType, params.documentId, locale);
      if (!rows.length) return false;
      await change(new RowStore(trx, this.ctx.model), rows);
      return true;
    });
  }

  /**
   * What a write answers with: the version it wrote (its draft for `status: 'draft'`, else the published one) in
   * the locale it wrote, shaped by `answer` (fields, populate...).
   */
  private writtenSpec(params: WriteParams, answer: ReadSpec): ReadSpec {
    // A type without Draft & Publish has one row, whatever the status: the status only chooses the version of the
    // Draft & Publish targets its answer populates (Strapi's selection query keeps the write's status).
    const status: Status = params.status === 'draft' ? 'draft' : 'published';
    return { ...answer, status, locale: this.writeLocale(params) };
  }

  /**
   * The answer of a write from code (`create`, `update`): the version written, shaped by the write's fields and
   * populate. Given no status, a type without Draft & Publish answers every version its relations link (a target's
   * draft and its published row both), as Strapi's Document Service does: its `setStatusToDraft` leaves such a
   * type's params without a status, and its populate without one filters no version (probed on Strapi 5.54).
   */
  private async writtenEntry(params: WriteParams, documentId: string): Promise<Entry> {
    const spec = this.writtenSpec(params, this.spec({ fields: params.fields, populate: params.populate }, this.ctx.rest, CODE));
    const everyLinkedVersion = !this.contentType.draftAndPublish && params.status === undefined;
    return JSON.parse((await this.findOneJson(everyLinkedVersion ? { ...spec, everyLinkedVersion } : spec, documentId))!) as Entry;
  }

  /** Whether a write publishes its document (a Draft & Publish type's write without `status: 'draft'`). */
  private publishes(params: WriteParams): boolean {
    return this.contentType.draftAndPublish && params.status !== 'draft';
  }

  /**
   * A write's `data` checked and turned into its row plan, passwords hashed (password-values.ts). Every write to a
   * Draft & Publish document writes its draft: the body is checked as one (publishing checks the rest).
   */
  private planned(data: unknown, mode: 'create' | 'update', params: WriteParams): Promise<RowPlan> {
    const plan = planRow(this.ctx.model, this.contentType, data, mode, { draft: this.contentType.draftAndPublish && !params.wholeDraft });
    return hashPasswords(this.contentType, plan);
  }

  /** Where a write's relations go: every write goes to the draft of a Draft & Publish document (publishing copies it). */
  private relationScope(locale: string | undefined, created: boolean): StrapiRelationScope {
    const versioned = this.contentType.draftAndPublish;
    return { locale, defaultLocale: this.ctx.locales.defaultLocale, versioned, version: versioned ? 'draft' : 'single', created };
  }

  /**
   * Unique values (of the entry and of its components) of a type without Draft & Publish are checked on every
   * write, among the other documents' rows (in the locale), as Strapi 5 does (unique-rule.ts). Under Draft & Publish
   * a draft is not checked (a draft is work in progress): publishing checks the published versions
   * (publish-check.ts). Null and an empty string are never duplicates.
   */
  private async checkUnique(trx: Database, plan: RowPlan, documentId: string, locale: string | undefined) {
    const ct = this.contentType;
    if (ct.draftAndPublish || !holdsUnique(this.ctx.model, ct)) return;
    const taken: TakenLookup = (steps, attribute, sought) => uniqueValueTaken(trx, ct, steps, attribute, sought, documentId, locale);
    const errors = await uniqueErrors(this.ctx.model, ct, bodyTree(this.ctx.model, ct, plan), taken);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
  }

  /**
   * Strapi 5.54's i18n sync after a write (its document middleware on create, update, publish and discardDraft): the
   * shared values (non-localized scalars, components, dynamic zones, media) of the version the write answers with, the
   * document's `published` row in `locale` or its draft there, become those of the document's other locales in the
   * same status, when they differ from `before` (sharedSnapshot, read before the write; null: nothing to sync). So a
   * draft-only write reaches the other drafts, a publishing one the other published versions.
   */
  private async syncSharedValues(store: RowStore, documentId: string, locale: string | null | undefined, published: boolean, before: string | null): Promise<void> {
    if (before === null || !locale) return;
    const rows = (await versionRows(store.db, this.contentType, documentId, '*')).filter((r) => r.published === published);
    const source = rows.find((r) => r.locale === locale);
    const others = rows.filter((r) => r.locale !== locale).map((r) => r.id);
    if (!source || !others.length || before === (await this.sharedSnapshotOf(store.db, documentId, source))) return;
    const members = !this.contentType.draftAndPublish ? 'same' : published ? 'published' : 'draft';
    await store.copyFields(this.contentType, source.id, others, sharedAttributes(this.contentType), members);
  }

  /**
   * What Strapi 5.54's i18n sync compares a write's result with: the shared values of the document's first row (the
   * lowest id, any locale and status: Strapi reads `findOne({ where: { documentId } })`), as text without row ids.
   * Null when there will be nothing to sync: the type shares nothing, or the document will have one locale only (it
   * has none yet, or one and the write is not `adding` a locale). `everyLocale`: the document's rows, when read already.
   */
  private async sharedSnapshot(db: Database, documentId: string, adding: boolean, everyLocale?: VersionRow[]): Promise<string | null> {
    if (!sharedAttributes(this.contentType).length) return null;
    const rows = everyLocale ?? (await versionRows(db, this.contentType, documentId, '*'));
    const first = [...rows].sort((a, b) => a.id - b.id)[0];
    if (!first || (!adding && rows.every((r) => r.locale === first.locale))) return null;
    return this.sharedSnapshotOf(db, documentId, first);
  }

  private async sharedSnapshotOf(db: Database, documentId: string, row: VersionRow): Promise<string> {
    const fields = sharedAttributes(this.contentType).filter((a) => a.kind === 'scalar').map((a) => a.name);
    const entry = await this.on(db).versionEntry(documentId, row.published ? 'published' : 'draft', row.locale ?? undefined, { fields, populate: sharedPopulate(this.ctx.model, this.contentType) });
    return sharedValuesText(this.contentType, entry);
  }
}

/** The locale of the first of some version rows (by id): the one whose values Strapi's i18n sync spreads. */
function firstLocale(rows: readonly VersionRow[]): string | null | undefined {
  return [...rows].sort((a, b) => a.id - b.id)[0]?.locale;
}

/** An entry's JSON text parsed (null stays null). */
function parsed(text: string | null): Entry | null {
  return text === null ? null : (JSON.parse(text) as Entry);
}

/** A copy of params app code may change without changing a cached spec's. */
function cloneParams(params: Readonly<Params>): Params {
  return structuredClone({ ...params }) as Params;
}

/** Params without the keys a transport left undefined (they would hide a default). */
function definedOnly(params: object): Params {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

const PAGING = new Set(['pagination', 'page', 'pageSize', 'start', 'limit']);

/** What a count of `params` depends on: the params but their pagination, as text. */
function countKey(params: Params): string {
  return JSON.stringify(Object.entries(params).filter(([k]) => !PAGING.has(k)));
}
