import { constants } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { listBody } from '../../src/rest/responses.js';
import { ApplicationError } from '../../src/errors/index.js';

const pagination = { page: 1, pageSize: 25, pageCount: 1, total: 2 };

describe('list bodies', () => {
  it('splice the entries as given into the envelope', () => {
    expect(JSON.parse(listBody(['{"id":1}', '{"id":2}'], pagination))).toEqual({ data: [{ id: 1 }, { id: 2 }], meta: { pagination } });
  });

  it('a page whose entries together pass the longest string V8 holds is a 400 ApplicationError, not a RangeError', () => {
    // One 1 MiB entry, shared by every row: the rows add up past the limit without using that much memory.
    const entry = `"${'x'.repeat(1 << 20)}"`;
    const rows = Array<string>(Math.ceil(constants.MAX_STRING_LENGTH / entry.length) + 1).fill(entry);
    let thrown: unknown;
    try {
      listBody(rows, pagination);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApplicationError);
    expect((thrown as ApplicationError).toResponse().error).toMatchObject({ status: 400, name: 'ApplicationError', message: expect.stringMatching(/^The answer is too large to build/) });
  });
});
