export { StrapiLinkList, type LinkEntry, type LinkPosition } from './link-list.js';
export { copyLinksMapped, replaceLinksMapped, type CopyLinks, type MemberVersion, type OtherOrder } from './copy-links.js';
export { LinkListError, type LinkListErrorCode } from './link-errors.js';
export { listSide, type ListSide } from './list-side.js';
export { incomingJoins, owningJoins, type OwningJoin } from './relations-of.js';
export { PairedListReads, StrapiLinkRows } from './link-rows.js';
