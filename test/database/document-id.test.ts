import { describe, expect, it } from 'vitest';
import { newDocumentId } from '../../src/database/document-id.js';

describe('newDocumentId', () => {
  it('is shaped like Strapi\'s cuid2 ids: 24 lowercase alphanumerics, a letter first; random, never repeated', () => {
    const ids = Array.from({ length: 5000 }, newDocumentId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every letter can come first, and every character after it (no part of the alphabet is unreachable).
    expect(new Set(ids.map((id) => id[0])).size).toBe(26);
    expect(new Set(ids.flatMap((id) => [...id.slice(1)])).size).toBe(36);
  });
});
