import { resolve } from 'node:path';
import type { Command } from 'commander';
import { reportFatal } from '../errors.js';
import { dirOption } from '../options.js';

export const MATCHES = "the database matches Strapi 5's layout for this model";

/**
 * `cairn db check`: whether the app's database has the tables Strapi 5 makes for the app's model (what Cairn needs
 * to serve it in Strapi's layout), each difference on a line; exit 1 when there is one. The database is opened
 * read-only and only its catalog is read; nothing else runs (no schema sync, no features, no bootstrap).
 */
export function registerDb(program: Command): void {
  const db = program.command('db').description("the app's database");
  dirOption(db.command('check').description("compare the database with Strapi 5's layout for the app's model (reads only)")).action(async (opts: { dir: string }) => {
    try {
      const [{ loadCairn }, { checkStrapiLayout, formatLayoutDifferences }] = await Promise.all([
        import('../../app/cairn.js'),
        import('../../database/strapi-layout/check.js'),
      ]);
      // The app's register() runs as at a start: it may declare the custom fields the model needs.
      const cairn = await loadCairn({ dir: resolve(opts.dir), readOnly: true });
      try {
        const differences = await checkStrapiLayout(cairn.db, cairn.model);
        if (differences.length === 0) {
          process.stdout.write(`${MATCHES}\n`);
        } else {
          const count = differences.length === 1 ? '1 difference' : `${differences.length} differences`;
          process.stdout.write(`the database differs from Strapi 5's layout for this model (${count}):\n${formatLayoutDifferences(differences)}\n`);
          process.exitCode = 1;
        }
      } finally {
        await cairn.db.close();
      }
    } catch (error) {
      reportFatal(error);
    }
  });
}
