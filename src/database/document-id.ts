import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new documentId: 24 lowercase alphanumerics starting with a letter, the shape of Strapi's cuid2 ids (random, not
 * time-ordered). The document service gives them to entries; auth gives them to the rows it writes in Strapi's tables.
 */
export function newDocumentId(): string {
  let id = '';
  while (id.length < 24) {
    for (const byte of randomBytes(32)) {
      // The first character is a letter (26 of the alphabet): 234 = 9 * 26. Then any of 36: 252 = 7 * 36.
      // Rejecting the bytes past those keeps every character equally likely.
      const letters = id.length === 0 ? 26 : 36;
      if (byte < 256 - (256 % letters)) id += ALPHABET[byte % letters];
      if (id.length === 24) break;
    }
  }
  return id;
}
