export { RowStore, rowExists, type ComponentLink } from './rows.js';
export { copyLinks, deleteLinksTo, hasLinks } from './links.js';
export { LinkList, type LinkAnchor, type LinkKey, type StoredStatus, type WindowMember } from './link-list.js';
export { copyFileRows, deleteFileRows, fileDocumentIds, fileMimeTypes, hasFileRows, linkFileRows, linkFiles, rowFileDocumentIds } from './media-links.js';
export {
  documentIdOfRow,
  documentIdsByRowId,
  documentRowIds,
  existingVersions,
  otherLocaleRows,
  siblingRowIds,
  versionRows,
  versionsInSync,
  separateDraftStamp,
  type ExistingVersion,
  type VersionRow,
} from './version-rows.js';
export { publishedClash, uniqueValueTaken } from './unique-values.js';
export { readEntries, readEntry } from './entries.js';
