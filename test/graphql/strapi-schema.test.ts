import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

type Maybe<T> = T | null | undefined;
import { startTestApp } from '../helpers/app.js';

const kit = join(import.meta.dirname, '..', 'fixtures', 'conformance');

/**
 * Where Cairn's schema for the conformance kit's model differs from the one Strapi 5.54 served for it, each with its
 * reason; every other type, field, argument, default and deprecation is the same. A rule that matches nothing
 * fails too, so the list stays the list of differences.
 */
const DIFFERENCES: Array<[RegExp, string]> = [
  [
    /^only in reference: (I18NLocale|ReviewWorkflows|UsersPermissions(Permission|Role|User)|UsersPermissions(Password|CreateRole|UpdateRole|DeleteRole)Payload)/,
    "Strapi's own plugins' content-types (locales, review workflows, users, roles, permissions): Cairn serves register, login and me, not their CRUD",
  ],
  [/^Query: ref has {2}(i18NLocale|reviewWorkflows|usersPermissions)/, 'the same'],
  [/^Mutation: ref has {2}(\w*ReviewWorkflows|\w*UsersPermissions|forgotPassword|resetPassword|changePassword|emailConfirmation)/, 'the same'],
  [/^Mutation: ref has {2}(updateUploadFile|deleteUploadFile)\(/, "the upload plugin's file mutations: files are managed over REST (/api/upload)"],
  [/^only in reference: FileInfoInput$/, 'the same'],
  [/^(only in reference: GenericMorph|UploadFile: ref has {2}related: \[GenericMorph\])$/, 'morph relations are not in the schema'],
  [/^\w+FilterInput: cairn has (startsWithi|endsWithi): \w+$/, 'every REST operator is a filter operator'],
  [/^Component\w+FiltersInput: cairn has id: IDFilterInput$/, "a component is filtered by its id, as REST's filters[address][id] does"],
  [/^RestaurantFiltersInput: ref has {2}localizations: RestaurantFiltersInput$/, 'REST has no filter through localizations either'],
  [
    /^(UploadFile|Restaurant): (ref has {2}\w+: (String|Float)!|cairn has \w+: (String|Float))$/,
    "required attributes may be null in answers: Strapi 5's drafts may lack them (checked when published), and an answer listing one must not fail",
  ],
  [
    /^\w+: (ref has {2}\w+\(.*\): \[\w+\]!|cairn has \w+\(.*\): \[\w+!\]!|ref has {2}\w+: \[\w+DynamicZone\]|cairn has \w+: \[\w+DynamicZone!\])$/,
    "list items are never null: Strapi's since strapi/strapi#27721 (5.54 still had [Category]!)",
  ],
];

/** The differences of two schemas, one line each (`<Type>: ref has <field>`, `only in reference: <Type>`...). */
function differences(cairn: GraphQLSchema, reference: GraphQLSchema): string[] {
  const describe = (type: GraphQLNamedType): string[] => {
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      return Object.values(type.getFields()).map((f: { name: string; type: unknown; args?: readonly GraphQLArgument[]; deprecationReason?: Maybe<string>; defaultValue?: unknown }) => {
        const args = f.args?.length ? `(${f.args.map((a) => `${a.name}: ${String(a.type)}${a.defaultValue === undefined ? '' : ` = ${JSON.stringify(a.defaultValue)}`}`).join(', ')})` : '';
        const deprecated = f.deprecationReason ? ` @deprecated(${f.deprecationReason})` : '';
        const value = f.defaultValue !== undefined ? ` = ${JSON.stringify(f.defaultValue)}` : '';
        return `${f.name}${args}: ${String(f.type)}${value}${deprecated}`;
      });
    }
    if (isEnumType(type)) return type.getValues().map((v) => v.name);
    if (isUnionType(type)) return type.getTypes().map((t) => t.name);
    return [];
  };
  const ours = cairn.getTypeMap();
  const theirs = reference.getTypeMap();
  const lines: string[] = [];
  for (const [name, type] of Object.entries(theirs)) {
    if (name.startsWith('__')) continue;
    if (!ours[name]) {
      lines.push(`only in reference: ${name}`);
      continue;
    }
    const mine = new Set(describe(ours[name]));
    const other = new Set(describe(type));
    for (const line of other) if (!mine.has(line)) lines.push(`${name}: ref has  ${line}`);
    for (const line of mine) if (!other.has(line)) lines.push(`${name}: cairn has ${line}`);
  }
  for (const name of Object.keys(ours)) if (!name.startsWith('__') && !theirs[name]) lines.push(`only in cairn: ${name}`);
  return lines;
}

describe("Cairn's GraphQL schema is Strapi 5's (the conformance kit's model) [sqlite]", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** The schema Cairn serves the kit's app with this graphql config, read by introspection. */
  const served = async (graphql: Record<string, unknown>): Promise<GraphQLSchema> => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-schema-'));
    dirs.push(dir);
    cpSync(join(kit, 'app'), dir, { recursive: true });
    // The kit's config is Strapi's own; the test's settings go in the layer over it.
    mkdirSync(join(dir, 'config', 'env', 'test'), { recursive: true });
    writeFileSync(join(dir, 'config', 'env', 'test', 'plugins.js'), `module.exports = ${JSON.stringify({ graphql: { config: graphql } })};\n`);
    const app = await startTestApp('sqlite', dir);
    try {
      const res = await app.request('POST', '/graphql', { query: getIntrospectionQuery({ inputValueDeprecation: true }) });
      expect(res.body.errors).toBeUndefined();
      return buildClientSchema(res.body.data);
    } finally {
      await app.close();
    }
  };

  for (const [title, graphql, file] of [
    ['v4CompatibilityMode: true (the hybrid)', { v4CompatibilityMode: true }, 'graphql-schema-v5-compat.graphql'],
    ['no v4CompatibilityMode (flat)', {}, 'graphql-schema-v5.graphql'],
  ] as const) {
    it(`${title}: every type, field and argument as recorded, but for the differences listed`, async () => {
      const reference = buildSchema(readFileSync(join(kit, file), 'utf8'));
      const lines = differences(await served(graphql), reference);
      const unexplained = lines.filter((line) => !DIFFERENCES.some(([rule]) => rule.test(line)));
      expect(unexplained).toEqual([]);
      const unused = DIFFERENCES.filter(([rule]) => !lines.some((line) => rule.test(line))).map(([rule]) => String(rule));
      expect(unused).toEqual([]);
    });
  }
});
