import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new documentId: 24 lowercase alphanumerics, like Strapi's (random, not time-ordered). */
export function newDocumentId(): string {
  const bytes = randomBytes(24);
  let id = '';
  // 252 = 7 * 36: rejecting bytes >= 252 keeps every character equally likely.
  for (let i = 0; id.length < 24; i++) {
    const byte = i < bytes.length ? bytes[i] : randomBytes(1)[0];
    if (byte < 252) id += ALPHABET[byte % 36];
  }
  return id;
}
