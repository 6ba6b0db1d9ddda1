import type { Database } from '../database/types.js';
import { hubListens, type EventHub } from './event-hub.js';

/** The events Strapi 5.54's Document Service emits on `strapi.eventHub` (its document-service/repository.js). */
export type EntryEventName = 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish' | 'entry.draft-discard';

/** A version of a document, to be read once the write that made it has committed. */
export interface VersionRef {
  documentId: string;
  status: 'draft' | 'published';
  locale: string | undefined;
}

/** A content type as the event's payload names it: `{ model: modelName, uid }`. */
export interface EventModel {
  uid: string;
  modelName: string;
}

/** Reads a version for its event: deep populated, without private attributes and passwords (Strapi's payload). */
export type EventEntryReader = (uid: string, version: VersionRef) => Promise<unknown>;

/** What failed is logged here: a listener that throws never fails the write it is told about. */
export interface EventLog {
  error(details: object, message: string): void;
}

/**
 * The Document Service's side of `strapi.eventHub`: a write queues its events in its transaction and they are
 * emitted once it commits (none for one that rolls back), as Strapi emits them from `onCommit`. The entry is read
 * then (Strapi reads it after the commit too), with every relation, media, component and dynamic zone populated,
 * as `{ model, uid, entry }`. A write whose event nothing listens to queues and reads nothing.
 *
 * The write's call (the request) resolves once its events were emitted, one after the other, in the order it
 * made them: when app code's `await strapi.documents(uid).update(...)` returns, its listeners have run (Strapi
 * starts them at the commit without waiting for them). A subscriber or listener that throws is logged (Strapi
 * leaves the rejection unhandled) and fails neither the write nor its other events.
 */
export class EntryEvents {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    readonly hub: EventHub,
    private readonly read: EventEntryReader,
    private readonly log: EventLog,
  ) {}

  /** Whether app code listens to `eventName` (else the write reads nothing for it). */
  listens(eventName: string): boolean {
    return hubListens(this.hub, eventName);
  }

  /** Emits `eventName` for `version` (read after the commit) or an entry read before it (a deleted one) once `trx` commits. */
  afterCommit(trx: Database, eventName: EntryEventName, model: EventModel, entry: VersionRef | { entry: unknown }): void {
    trx.onCommit(() =>
      this.emit(eventName, async () => ({
        model: model.modelName,
        uid: model.uid,
        entry: 'entry' in entry ? entry.entry : await this.read(model.uid, entry),
      })),
    );
  }

  /** Emits `eventName` with what `payload` makes; resolves when its listeners are done. Failures are logged, never thrown. */
  emit(eventName: string, payload: () => Promise<unknown>): Promise<void> {
    const emitted = (async () => {
      try {
        await this.hub.emit(eventName, await payload());
      } catch (error) {
        this.log.error({ err: error, event: eventName }, `strapi.eventHub: emitting ${eventName} failed (a subscriber or listener threw; the write stands)`);
      }
    })();
    this.pending.add(emitted);
    return emitted.finally(() => this.pending.delete(emitted));
  }

  /**
   * Resolves once the events being emitted are (at shutdown, before the database closes), or after `patienceMs`:
   * a listener that never settles does not hold the shutdown.
   */
  async idle(patienceMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, patienceMs)));
    await Promise.race([Promise.all(this.pending), waited]);
    clearTimeout(timer);
  }
}
