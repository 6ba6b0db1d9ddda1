import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../src/model/types.js';
import { CONFORMANCE, conformanceModel, errorOf, read } from './model.js';

/**
 * Every GET of the conformance kit on a content-type, through the query parser alone (no server, no database):
 * the recorded 400s must be the same errors (status, name, and message/details where the reference gives them),
 * every other recorded read must parse. Deviations (deviations.json) replace the reference's answer.
 */
interface Query {
  name: string;
  method: string;
  path: string;
}
interface Golden {
  status: number;
  body: { error?: { status: number; name: string; message: string; details: Record<string, unknown> } };
}
interface Deviation {
  status?: number;
  name?: string;
  either?: Array<{ status: number }>;
}

const queries: Query[] = JSON.parse(readFileSync(join(CONFORMANCE, 'queries.json'), 'utf8'));
const deviations: Record<string, Deviation> = JSON.parse(readFileSync(join(CONFORMANCE, 'deviations.json'), 'utf8'));
const golden = (name: string): Golden => JSON.parse(readFileSync(join(CONFORMANCE, 'goldens', `${name}.json`), 'utf8'));

/** `/api/<plural>[/<id>]?<query>` for the app's own content-types (not upload, i18n, users). */
const PATH = /^\/api\/(articles|authors|categories|chefs|dishes|restaurants)(?:\/[^?]*)?(?:\?(.*))?$/;
const reads = queries.filter((q) => q.method === 'GET' && PATH.test(q.path));

describe('the recorded REST reads, through the query parser', () => {
  let model: Model;
  beforeAll(async () => {
    model = await conformanceModel();
  });

  it('covers the recorded error queries', () => {
    expect(reads.filter((q) => q.name.startsWith('err-')).length).toBeGreaterThanOrEqual(20);
  });

  for (const query of reads) {
    const recorded = golden(query.name);
    const deviation = deviations[query.name];
    const expected = deviation?.either?.[0].status ?? deviation?.status ?? recorded.status;
    // 401/403/404 come from authentication and lookups, not from the query string: the query itself must parse.
    const shouldFail = expected === 400;
    it(`${query.name}: ${expected}`, () => {
      const [, plural, text = ''] = PATH.exec(query.path)!;
      // Placeholders are documentIds: any value parses the same.
      const qs = text.replace(/\{\{[^}]+\}\}/g, 'x0000000000000000000000x');
      const contentType = model.byPluralName.get(plural)!;
      if (!shouldFail) {
        expect(() => read(model, contentType, qs)).not.toThrow();
        return;
      }
      const error = errorOf(() => read(model, contentType, qs));
      expect(error.status).toBe(400);
      const name = deviation?.name ?? (deviation ? undefined : recorded.body.error?.name);
      if (name) expect(error.name).toBe(name);
      if (!deviation && recorded.body.error) {
        expect(error.message).toBe(recorded.body.error.message);
        expect(error.details).toMatchObject(recorded.body.error.details);
      }
    });
  }

  it('limit=-1 is maxLimit (deviation rest-pagination-limit-minus1)', () => {
    expect(read(model, 'api::category.category', 'pagination[limit]=-1&fields[0]=name').pagination).toEqual({
      mode: 'offset',
      start: 0,
      limit: 100,
      withCount: true,
    });
  });
});
