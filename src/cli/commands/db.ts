import { resolve } from 'node:path';
import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { dirOption } from '../options.js';

export const MATCHES = "the database matches Strapi 5's layout for this model";
/** Headings of `db check` on a database that Cairn made (cairn-mark.ts). */
export const ADDS = 'Cairn made this database: a start adds';
export const REFUSES = 'a start refuses (Cairn drops and changes nothing)';

/**
 * `cairn db check`: whether the app's database has the tables Strapi 5 makes for the app's model (what Cairn needs
 * to serve it in Strapi's layout), each difference on a line; exit 1 when there is one. On a database that Cairn made,
 * the differences are split into what a start adds (the model added it) and what it refuses. The database is opened
 * read-only and only its catalog is read; nothing else runs (no table check or creation, no features, no bootstrap).
 */
export function registerDb(program: Command): void {
  const db = program.command('db').description("the app's database");
  dirOption(db.command('check').description("compare the database with Strapi 5's layout for the app's model (reads only)")).action(async (opts: { dir: string }) => {
    try {
      const [{ loadCairn }, { inspectStrapiLayout, formatLayoutDifferences }] = await Promise.all([
        import('../../app/cairn.js'),
        import('../../database/strapi-layout/check.js'),
      ]);
      // The app's register() runs as at a start: it may declare the custom fields the model needs.
      const cairn = await loadCairn({ dir: resolve(opts.dir), readOnly: true });
      try {
        const { differences, changes } = await inspectStrapiLayout(cairn.db, cairn.model);
        const all = changes ? [...changes.added, ...changes.refused] : differences;
        if (all.length === 0) {
          process.stdout.write(`${MATCHES}\n`);
        } else {
          const count = all.length === 1 ? '1 difference' : `${all.length} differences`;
          let text = `the database differs from Strapi 5's layout for this model (${count}):\n`;
          if (!changes) text += `${formatLayoutDifferences(all)}\n`;
          else {
            // Cairn made it: a start adds what the model added, and refuses the rest.
            if (changes.added.length) text += `${ADDS}:\n${formatLayoutDifferences(changes.added)}\n`;
            if (changes.refused.length) text += `${REFUSES}:\n${formatLayoutDifferences(changes.refused)}\n`;
          }
          process.stdout.write(text);
          process.exitCode = 1;
        }
      } finally {
        await cairn.db.close();
      }
    } catch (error) {
      reportFatal(error);
    }
  });
  dirOption(db.command('create').description("create Strapi 5's tables and first rows for the app's model in an empty database")).action(async (opts: { dir: string }) => {
    try {
      await createCommand(resolve(opts.dir));
    } catch (error) {
      reportFatal(error);
    }
  });
}

/**
 * `cairn db create`: an empty database becomes the one Strapi 5 makes for the app's model (strapi-layout/new-database.ts),
 * which Strapi and Cairn then open as Strapi's. The database is first opened read-only: one that holds any table is
 * refused (exit 1) before anything is written, not even SQLite's journal mode. No tables created, no features or bootstrap.
 */
async function createCommand(dir: string): Promise<void> {
  const [{ loadCairn }, { createStrapiDatabase, tablesIn, DatabaseNotEmptyError }] = await Promise.all([
    import('../../app/cairn.js'),
    import('../../database/strapi-layout/new-database.js'),
  ]);
  let readOnly: Awaited<ReturnType<typeof loadCairn>> | undefined;
  try {
    readOnly = await loadCairn({ dir, readOnly: true });
  } catch (error) {
    // A SQLite file that does not exist yet is an empty database: opened for writing below, it is made.
    if ((error as { code?: unknown }).code !== 'SQLITE_CANTOPEN') throw error;
  }
  if (readOnly) {
    try {
      const tables = await tablesIn(readOnly.db);
      if (tables.length) throw new DatabaseNotEmptyError(tables);
    } finally {
      await readOnly.db.close();
    }
  }
  const cairn = await loadCairn({ dir });
  try {
    const created = await createStrapiDatabase(cairn.db, cairn.model, { locales: cairn.locales });
    process.stdout.write(
      `created Strapi 5's layout for this model: ${created.tables.length} tables, ${plural(created.rows.i18n_locale ?? 0, 'locale')} and ${created.rows.up_roles ?? 0} roles with their default permissions ` +
        `(Strapi adds its admin's tables and settings when it first starts on it)\n`,
    );
  } finally {
    await cairn.db.close();
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
