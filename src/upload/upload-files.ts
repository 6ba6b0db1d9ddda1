import type { AttachTarget } from './attach.js';
import { attachToEntry } from './attach.js';
import type { UploadHost } from './host.js';
import { FILE_UID, type IncomingFile, type UploadFolder, type UploadService } from './upload-service.js';

export type MediaEvent = 'media.create' | 'media.update' | 'media.delete';

/** Emits a media event with its entry, when anything listens: before the answer goes out, as entry events are. */
export async function emitMedia(host: Pick<UploadHost, 'entryEvents'>, event: MediaEvent, entry: Record<string, unknown>): Promise<void> {
  if (host.entryEvents.listens(event)) await host.entryEvents.emit(event, async () => ({ media: entry }));
}

/**
 * An upload, whoever asks for it (the Content API's route, app code's upload service): the files stored (into
 * `folder`), their entries read back, attached to `target` when there is one (files whose attachment fails are
 * removed again: all or nothing), then a media.create per file. Answers the entries.
 */
export async function uploadFiles(
  host: Pick<UploadHost, 'db' | 'documents' | 'entryEvents' | 'log'>,
  service: UploadService,
  incoming: IncomingFile[],
  target: AttachTarget | undefined,
  folder: UploadFolder,
): Promise<Record<string, unknown>[]> {
  const ids = await service.upload(incoming, folder);
  const files = host.documents(FILE_UID).quiet();
  const stored: Record<string, unknown>[] = [];
  for (const documentId of ids) stored.push((await files.findOne({ documentId }))!);
  if (target) {
    try {
      await attachToEntry(host.db, target, stored.map((e) => e.id as number));
    } catch (error) {
      for (const entry of stored) await service.remove(entry as never).catch((cleanup: unknown) => host.log.error({ err: cleanup, file: entry.hash }, 'could not remove an upload whose attachment failed'));
      throw error;
    }
  }
  for (const entry of stored) await emitMedia(host, 'media.create', entry);
  return stored;
}
