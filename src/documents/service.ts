import type { ContentType } from '../model/types.js';
import type { ReadSpec, Status } from '../query/types.js';
import { parseDocumentParams } from '../query/index.js';
import type { Database } from '../database/types.js';
import { otherLocaleRows, RowStore, separateDraftStamp, uniqueValueTaken, versionRows, versionsInSync, type VersionRow } from '../database/store/index.js';
import { ValidationError, type FieldError } from '../errors/index.js';
import type { DocumentsContext } from './context.js';
import { newDocumentId } from '../database/document-id.js';
import { readOne, readPage, type JsonPage } from './read.js';
import { writeChildren } from './row-writer.js';
import type { StrapiRelationScope } from './strapi-relation-writes.js';
import type { DocumentService, Entry, FindParams, FindResult, WriteParams } from './types.js';
import { discardStrapiDraft, publishStrapiVersion, publishStrapiWrite, unpublishStrapiVersion } from './strapi-versions.js';
import { planRow, type RowPlan } from './write-plan.js';
import { checkPublishable } from './publish-check.js';
import { deleteLockSet, lockForWrite, writeLockSet } from './write-locks.js';
import { documentLockKey } from '../database/document-locks.js';

/**
 * Strapi v5's document service for one content-type. Reads compile to one SQL statement; every write runs in
 * one transaction, so a failing part leaves the database as it was.
 */
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
  spec(params: FindParams = {}): ReadSpec {
    return parseDocumentParams(this.ctx.model, this.contentType, params as Record<string, unknown>, {
      defaultLimit: this.ctx.rest.defaultLimit,
      maxLimit: this.ctx.rest.maxLimit,
      withCount: this.ctx.rest.withCount,
      locales: this.ctx.locales.codes,
      defaultLocale: this.ctx.locales.defaultLocale,
    });
  }

  /** List read as JSON texts (the REST fast path: no parse/stringify round trip). */
  findPage(spec: ReadSpec): Promise<JsonPage> {
    return readPage(this.ctx, this.contentType, spec);
  }

  findOneJson(spec: ReadSpec, documentId: string | undefined): Promise<string | null> {
    return readOne(this.ctx, this.contentType, spec, documentId);
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

  /** The locale a write applies to: the request's, the body's, or the default (localized types only). */
  writeLocale(params: { locale?: string; data?: Record<string, unknown> }): string | undefined {
    if (!this.contentType.localized) return undefined;
    const locale = params.locale ?? params.data?.locale ?? this.ctx.locales.defaultLocale;
    if (typeof locale !== 'string' || !this.ctx.locales.codes.includes(locale)) {
      throw new ValidationError(`Invalid locale ${String(locale)}`, { key: 'locale', source: 'query', param: 'locale' });
    }
    return locale;
  }

  create(params: WriteParams): Promise<Entry> {
    return this.transaction(async (documents) => {
      const documentId = await documents.createDocument(params);
      return documents.writtenEntry(params, documentId);
    });
  }

  /**
   * Creates a document and answers with the version written (`writtenSpec`) as JSON text, shaped by `answer` (its
   * fields, populate...), read in the write's transaction: if it can't be read, nothing was written.
   */
  createAndRead(params: WriteParams, answer: ReadSpec): Promise<string> {
    const spec = this.writtenSpec(params, answer);
    return this.transaction(async (documents) => (await documents.findOneJson(spec, await documents.createDocument(params)))!);
  }

  /** Creates the document and returns its documentId (no answer read: see createAndRead). */
  async createDocument(params: WriteParams, documentId = newDocumentId()): Promise<string> {
    const locale = this.writeLocale(params);
    const plan = planRow(this.ctx.model, this.contentType, params.data, 'create', this.planOptions(params));
    await this.ctx.db.transaction(async (trx) => {
      await lockForWrite(trx, () => writeLockSet(trx, this.ctx.model, this.contentType, documentId, plan));
      await this.insertVersion(trx, plan, documentId, locale, params.status);
    });
    return documentId;
  }

  private async insertVersion(trx: Database, plan: RowPlan, documentId: string, locale: string | undefined, status?: Status) {
    const ct = this.contentType;
    const store = new RowStore(trx, this.ctx.model);
    await this.checkUnique(trx, plan, documentId, locale);
    const now = new Date().toISOString();
    const columns: Record<string, unknown> = { ...plan.columns, document_id: documentId, created_at: now, updated_at: now };
    if (ct.localized) columns.locale = locale;
    columns.published_at = ct.draftAndPublish ? null : now;
    const rowId = await store.insert(ct, columns);
    await writeChildren(store, ct, rowId, plan, this.relationScope(locale, true));
    await this.shareColumns(trx, plan, documentId, locale);
    if (ct.draftAndPublish && status !== 'draft') {
      await this.publishChecked(store, await versionRows(trx, ct, documentId, locale), now, locale);
    }
  }

  update(params: WriteParams & { documentId: string }): Promise<Entry | null> {
    return this.transaction(async (documents) => {
      if (!(await documents.updateDocument(params))) return null;
      return documents.writtenEntry(params, params.documentId);
    });
  }

  /** `createAndRead` for an update; null when there is no such document. */
  updateAndRead(params: WriteParams & { documentId: string }, answer: ReadSpec): Promise<string | null> {
    const spec = this.writtenSpec(params, answer);
    return this.transaction(async (documents) => ((await documents.updateDocument(params)) ? documents.findOneJson(spec, params.documentId) : null));
  }

  /** Updates a document's version in a locale (creating the locale version if the document exists in another). */
  async updateDocument(params: WriteParams & { documentId: string }): Promise<boolean> {
    const ct = this.contentType;
    const locale = this.writeLocale(params);
    // Checked before anything is read or locked: a body that is wrong is answered without waiting for a lock.
    const updatePlan = planRow(this.ctx.model, ct, params.data, 'update', this.planOptions(params));
    return this.ctx.db.transaction(async (trx) => {
      await lockForWrite(trx, () => writeLockSet(trx, this.ctx.model, ct, params.documentId, updatePlan));
      const rows = await versionRows(trx, ct, params.documentId, locale);
      if (!rows.length) {
        const elsewhere = ct.localized ? await versionRows(trx, ct, params.documentId, '*') : [];
        if (!elsewhere.length) return false;
        const plan = planRow(this.ctx.model, ct, params.data, 'create', this.planOptions(params));
        await this.insertVersion(trx, plan, params.documentId, locale, params.status);
        return true;
      }
      const plan = updatePlan;
      await this.checkUnique(trx, plan, params.documentId, locale);
      const store = new RowStore(trx, this.ctx.model);
      const now = new Date().toISOString();
      const target = ct.draftAndPublish ? rows.find((r) => !r.published) ?? rows[0] : rows[0];
      const published = ct.draftAndPublish ? rows.find((r) => r.published) : undefined;
      const publishing = ct.draftAndPublish && params.status !== 'draft';
      // Read before the draft changes: whether the published row is the draft's copy, to which the same write applies.
      const inSync = publishing && published !== undefined && target !== published && (await versionsInSync(trx, ct, target.id, published.id));
      // Strapi sets published_at again on every update of a type without Draft & Publish (docs/strapi-5-writes.md, 2).
      const republished = !ct.draftAndPublish ? { published_at: now } : {};
      await store.update(ct, [target.id], { ...plan.columns, updated_at: now, ...republished });
      await writeChildren(store, ct, target.id, plan, this.relationScope(locale, false));
      await this.shareColumns(trx, plan, params.documentId, locale);
      if (inSync) await this.publishInSync(store, target.id, published!.id, plan, now, locale);
      else if (publishing) await this.publishChecked(store, await versionRows(trx, ct, params.documentId, locale), now, locale);
      else if (published) await separateDraftStamp(trx, ct, target.id, published.id);
      return true;
    });
  }

  async delete(params: { documentId: string; locale?: string }): Promise<{ documentId: string; deleted: number }> {
    const ct = this.contentType;
    const locale = params.locale === '*' ? '*' : this.writeLocale(params);
    const deleted = await this.ctx.db.transaction(async (trx) => {
      await lockForWrite(trx, () => deleteLockSet(trx, this.ctx.model, ct, params.documentId));
      const rows = await versionRows(trx, ct, params.documentId, locale);
      await new RowStore(trx, this.ctx.model).deleteRows(ct, rows.map((r) => r.id));
      // Links join rows, and a row's links (both ways) go with it (RowStore.deleteRows).
      return rows.length;
    });
    return { documentId: params.documentId, deleted };
  }

  async publish(params: { documentId: string; locale?: string }): Promise<boolean> {
    const locale = this.contentType.localized ? this.writeLocale(params) : undefined;
    return this.changeVersions(params, (store, rows) => this.publishChecked(store, rows, new Date().toISOString(), locale));
  }

  /**
   * Publishes the draft once it passes what Strapi 5 checks on publish and not on a draft (required values,
   * `minLength`, a list's `min`/`max`...): the stored draft is checked whole, so a draft written incomplete
   * earlier is refused here with Strapi's messages, and the transaction leaves everything as it was.
   */
  private async publishChecked(store: RowStore, rows: VersionRow[], now: string, locale: string | undefined) {
    const draft = rows.find((r) => !r.published);
    if (draft) await checkPublishable(store, this.contentType, draft.id, locale);
    await publishStrapiVersion(store, this.contentType, rows, now);
  }

  /** Publishes a write whose published row was the draft's copy before it (Strapi's layout: strapi-versions.ts). */
  private async publishInSync(store: RowStore, draftId: number, publishedId: number, plan: RowPlan, now: string, locale: string | undefined) {
    await checkPublishable(store, this.contentType, draftId, locale);
    await publishStrapiWrite(store, this.contentType, { draftId, publishedId }, plan, now, { ...this.relationScope(locale, false), version: 'published' });
  }

  async unpublish(params: { documentId: string; locale?: string }): Promise<boolean> {
    return this.changeVersions(params, (store, rows) => unpublishStrapiVersion(store, this.contentType, rows));
  }

  async discardDraft(params: { documentId: string; locale?: string }): Promise<boolean> {
    return this.changeVersions(params, (store, rows) => discardStrapiDraft(store, this.contentType, rows));
  }

  private async changeVersions(
    params: { documentId: string; locale?: string },
    change: (store: RowStore, rows: VersionRow[]) => Promise<void>,
  ): Promise<boolean> {
    if (!this.contentType.draftAndPublish) throw new ValidationError(`${this.contentType.uid} does not use Draft & Publish`);
    const locale = this.writeLocale(params);
    return this.ctx.db.transaction(async (trx) => {
      await trx.lock([documentLockKey(this.contentType.uid, params.documentId)]);
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
    const status: Status = this.contentType.draftAndPublish && params.status === 'draft' ? 'draft' : 'published';
    return { ...answer, status, locale: this.writeLocale(params) };
  }

  /** The answer of a write from code (`create`, `update`): the version written, shaped by the write's fields and populate. */
  private async writtenEntry(params: WriteParams, documentId: string): Promise<Entry> {
    const spec = this.writtenSpec(params, this.spec({ fields: params.fields, populate: params.populate }));
    return JSON.parse((await this.findOneJson(spec, documentId))!) as Entry;
  }

  /** Every write to a Draft & Publish document writes its draft: the body is checked as one (publishing checks the rest). */
  private planOptions(params: WriteParams) {
    return { draft: this.contentType.draftAndPublish && !params.wholeDraft };
  }

  /** Where a write's relations go: every write goes to the draft of a Draft & Publish document (publishing copies it). */
  private relationScope(locale: string | undefined, created: boolean): StrapiRelationScope {
    const versioned = this.contentType.draftAndPublish;
    return { locale, defaultLocale: this.ctx.locales.defaultLocale, versioned, version: versioned ? 'draft' : 'single', created };
  }

  /** Unique attributes are unique among other documents' versions of the same kind (drafts, or the rows). */
  private async checkUnique(trx: Database, plan: RowPlan, documentId: string, locale: string | undefined) {
    const ct = this.contentType;
    const errors: FieldError[] = [];
    for (const attribute of ct.attributes.values()) {
      if (attribute.kind !== 'scalar' || !attribute.unique) continue;
      const value = plan.columns[attribute.column];
      if (value === null || value === undefined) continue;
      if (await uniqueValueTaken(trx, ct, attribute, value, documentId, locale)) {
        errors.push({ path: [attribute.name], message: 'This attribute must be unique', name: 'ValidationError', value });
      }
    }
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
  }

  /** Attributes not localized (`i18n.localized: false`) hold one value for every locale of the document. */
  private async shareColumns(trx: Database, plan: RowPlan, documentId: string, locale: string | undefined) {
    if (!plan.sharedColumns.size || !locale) return;
    const shared = Object.fromEntries([...plan.sharedColumns].map((c) => [c, plan.columns[c]]));
    const others = await otherLocaleRows(trx, this.contentType, documentId, locale);
    await new RowStore(trx, this.ctx.model).update(this.contentType, others, shared);
  }
}
