import bcrypt from 'bcryptjs';
import type { ContentType } from '../model/types.js';
import type { RowPlan } from './write-plan.js';

const DEFAULT_ROUNDS = 10;

/**
 * Hashes the `password` attributes a write gives a content type's row, as Strapi 5.54's Document Service does before
 * it stores them (its attributes/transforms.js: bcrypt, the attribute's `encryption.rounds` or 10): a password is
 * never stored as sent, and a user made by app code logs in as one made by `/api/auth/local/register`. A
 * component's are written as given, as Strapi writes them (its transforms run on the content type's own attributes).
 * Changes `plan` in place; runs before the write's transaction, so no lock waits on bcrypt.
 */
export async function hashPasswords(contentType: ContentType, plan: RowPlan): Promise<RowPlan> {
  for (const attribute of contentType.attributes.values()) {
    if (attribute.kind !== 'scalar' || attribute.type !== 'password') continue;
    const value = plan.columns[attribute.column];
    if (typeof value !== 'string') continue;
    plan.columns[attribute.column] = await bcrypt.hash(value, roundsOf(attribute.raw));
  }
  return plan;
}

/** The attribute's `encryption.rounds` when it is a whole number bcrypt takes (4-31), else Strapi's default. */
function roundsOf(raw: Readonly<Record<string, unknown>>): number {
  const encryption = raw.encryption;
  const rounds = encryption && typeof encryption === 'object' ? Number((encryption as Record<string, unknown>).rounds) : NaN;
  return Number.isInteger(rounds) && rounds >= 4 && rounds <= 31 ? rounds : DEFAULT_ROUNDS;
}
