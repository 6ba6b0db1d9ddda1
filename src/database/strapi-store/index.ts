export { StrapiLinkList, type LinkEntry, type LinkPosition } from './link-list.js';
export { copyLinksMapped, type CopyLinks, type MemberVersion, type OtherOrder } from './copy-links.js';
export { LinkListError, type LinkListErrorCode } from './link-errors.js';
export { listSide, type ListSide } from './list-side.js';
export { StrapiLinkRows } from './link-rows.js';
