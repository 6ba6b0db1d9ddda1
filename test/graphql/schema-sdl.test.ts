import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { startTestApp } from '../helpers/app.js';

const kit = join(import.meta.dirname, '..', 'fixtures', 'conformance');

/**
 * Golden SDL: the schema Cairn serves for the conformance kit's model in each shape, printed (`printSchema`) and
 * checked in beside this test in `schema-sdl/<shape>.graphql`. A change to the generated schema (a type, field,
 * argument, default, description, deprecation, or their order) shows here as a diff to review; when it is meant,
 * `UPDATE_GOLDENS=1 npx vitest run test/graphql/schema-sdl.test.ts` writes the new files. (strapi-schema.test.ts
 * compares the same schemas with Strapi's own, modulo the differences it lists.)
 */
const GOLDEN_DIR = join(import.meta.dirname, 'schema-sdl');
const update = process.env.UPDATE_GOLDENS === '1';

const SHAPES = [
  ['v5', {}],
  ['v5-compat', { v4CompatibilityMode: true }],
  ['v4', { shape: 'v4' }],
] as const;

describe('golden SDL of each GraphQL shape (the conformance kit model) [sqlite]', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  for (const [shape, graphql] of SHAPES) {
    it(`${shape}: the served schema is the checked-in one`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cairn-sdl-'));
      dirs.push(dir);
      cpSync(join(kit, 'app'), dir, { recursive: true });
      // The kit's config is Strapi's own; the shape's settings go in the layer over it.
      mkdirSync(join(dir, 'config', 'env', 'test'), { recursive: true });
      writeFileSync(join(dir, 'config', 'env', 'test', 'plugins.js'), `module.exports = ${JSON.stringify({ graphql: { config: graphql } })};\n`);
      const app = await startTestApp('sqlite', dir);
      let sdl: string;
      try {
        const res = await app.request('POST', '/graphql', { query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true }) });
        expect(res.body.errors).toBeUndefined();
        sdl = `${printSchema(buildClientSchema(res.body.data))}\n`;
      } finally {
        await app.close();
      }
      const file = join(GOLDEN_DIR, `${shape}.graphql`);
      if (update || !existsSync(file)) {
        mkdirSync(GOLDEN_DIR, { recursive: true });
        writeFileSync(file, sdl);
      }
      expect(sdl).toBe(readFileSync(file, 'utf8'));
    });
  }
});
