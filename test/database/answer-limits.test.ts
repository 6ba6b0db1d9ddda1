import { expect, it } from 'vitest';
import { describeEachDialect, useFreshDatabase } from '../helpers/databases.js';
import { ApplicationError } from '../../src/errors/index.js';

/**
 * An answer that outgrows what the database builds (a populate that fans out) is the request's doing: the
 * database's refusal becomes a 400 ApplicationError saying so, not a 500. Each query here makes its database
 * refuse at once, without building anything that large.
 */
describeEachDialect('answers over the database limits', (dialect) => {
  const database = useFreshDatabase(dialect);

  const TOO_LARGE: Partial<Record<typeof dialect, string>> = {
    // Over SQLite's 1 GB string limit: refused before any allocation.
    sqlite: 'SELECT zeroblob(2000000000) AS doc',
    // Over PostgreSQL's 1 GB value limit: refused before any allocation.
    postgres: "SELECT repeat('xx', 600000000) AS doc",
    // MariaDB raises no error (it cuts a JSON aggregate at max_allowed_packet, with a warning): see the README.
  };
  const tooLarge = TOO_LARGE[dialect];

  if (tooLarge) {
    it('is a 400 ApplicationError, not a database error', async () => {
      const error = await database().query(tooLarge).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApplicationError);
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining('too large') });
    });
  }

  it('other database errors pass through as they are', async () => {
    const error = await database().query('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApplicationError);
    expect(String((error as Error).message)).toMatch(/no_such_table/);
  });
});
