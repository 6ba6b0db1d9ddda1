export { RowStore, rowExists, type ComponentLink } from './rows.js';
export { cloneRow } from './clone-row.js';
export { hasLinks } from './has-links.js';
export type { LinkKey, StoredStatus, WindowMember } from './link-types.js';
export { copyFileRows, deleteFileRows, fileDocumentIds, fileMimeTypes, hasFileRows, linkFileRows, rowFileDocumentIds } from './media-links.js';
export {
  documentIdsByRowId,
  documentsRows,
  firstDocumentId,
  siblingRowIds,
  versionRows,
  separateDraftStamp,
  type VersionRow,
} from './version-rows.js';
export { uniqueValueTaken, type ComponentStep, type SoughtValue } from './unique-values.js';
export { readEntries, readEntry } from './entries.js';
export {
  readMorphList,
  replaceMorphList,
  readMorphOwners,
  replaceMorphOwners,
  readMorphToOne,
  writeMorphToOne,
  readMorphToOneOwners,
  type MorphLink,
} from './morph-links.js';
