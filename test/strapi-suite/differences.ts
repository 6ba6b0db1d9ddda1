/**
 * Strapi's tests whose expectation Cairn does not meet, and why: either Cairn refuses it on purpose (`kind: 'on
 * purpose'`: `readme` starts a row of the README's table "Where Cairn differs from Strapi (on purpose)"), or the test
 * expects what Strapi 5.54, the version Cairn follows, does not do (`kind: 'not Strapi 5.54'`: `readme` is a phrase
 * of the README that gives the evidence). Each says what its failure must show: the reporter counts such a test as
 * "differs" only when it fails that way (every `failure` string is in its failure's first line or its last request
 * and answer). A listed test that passes, or fails any other way, is a failure: the list cannot hide a regression,
 * and it shrinks when a difference goes. The README text is looked up in README.md at the start.
 */
export interface Difference {
  kind: 'on purpose' | 'not Strapi 5.54';
  /** The test file, relative to the suite's folder (as strapi/strapi lays it out). */
  file: string;
  /**
   * The test's describe blocks and name, joined with ' > ' (as the reporter prints them); `(the file)` for a file that
   * cannot load, or whose tests do not run because a hook of the file fails (each such test then counts by this entry).
   */
  test: string;
  /** On purpose: the start of the first cell of the README's row that explains it; else a phrase of the README. */
  readme: string;
  /** Strings the failure must contain: Cairn's answer, as the README describes it. */
  failure: string[];
  /**
   * When set, the failed assertion's diff (expected against received) may change only lines that contain one of
   * these: e.g. a list that differs by one key of each entry, its order and other keys equal.
   */
  diffOnly?: string[];
  /**
   * Set when the test's outcome depends on values drawn at random (documentIds) on Strapi 5.54 as on Cairn, with why:
   * a pass is then a pass, and a failure the listed way differs.
   */
  random?: string;
}

const FILTERING = 'tests/api/core/strapi/filtering.test.api.js';
const NULL_ROW = '`$null`/`$notNull` take `true`, `t`, `1` or `false`, `f`, `0`, empty';
const nullValues = ["'anything'", "[ 'anything' ]", "{ anything: 'anything' }"];

const SORT = 'tests/api/core/strapi/api/sort/sort.test.api.ts';
const UNKNOWN_PARAMETER_ROW = 'unknown query parameters → 400';

const RELATIONS = 'tests/api/core/strapi/api/relations.test.api.ts';
const MORPH_EVIDENCE = "9 of `relations.test.api.ts`'s morph tests, which Strapi 5 fails too";

const DS_VALIDATION = 'tests/api/core/strapi/document-service/validation/validation.test.api.ts';
const UNKNOWN_LOCALE_ROW = 'unknown locale → 400';
const JOIN_COLUMN_ROW = 'a relation declared with `useJoinTable: false`';
const TRANSACTING_ROW = 'in `strapi.db.transaction(({ trx }) => ...)`, `knex(...).transacting(trx)` throws';
/** The validation file's tests per param, run for each action (its `describe.each` over the service's methods). */
const VALIDATION_NAMES: Record<string, string[]> = {
  sort: [
    'should not throw on existing attribute name',
    'should not throw on private attribute',
    'should not throw on password attribute',
    'should not throw on existing nested (object) key',
    'should not throw on existing nested (dot separated) key',
  ],
  filters: [
    'should not throw on existing attribute equality',
    'should not throw on private attribute',
    'should not throw on password attribute',
    'should not throw on existing nested conditions',
  ],
  fields: [
    'should not throw on existing attribute equality',
    'should not throw on private attribute',
    'should not throw on password attribute',
    'should not throw on valid comma separated keys',
  ],
  populate: [
    'should not throw on populatable attribute',
    'should not throw on private attribute',
    'should not throw on wildcard *',
    'should not throw on dz (boolean)',
    'should not throw on dz - comp (boolean)',
    'should not throw on dz',
    'should not throw on nested wildcard populate',
  ],
};

export const DIFFERENCES: Difference[] = [
  // App code's strapi.contentAPI.sanitize.query with `populate: ['relation']`, no attribute of the type: Strapi drops it.
  {
    kind: 'on purpose',
    file: 'tests/api/core/strapi/api/sanitize/sanitize-input.test.api.js',
    test: 'Core API - Sanitize Input > strictParams option > Query - top-level unrecognized fields > With strictParams: true > should keep only allowed query param keys',
    readme: '`strapi.contentAPI.sanitize.query` given a filter',
    failure: ['Invalid key relation'],
  },
  // `filters[price][$null]=anything`: Strapi reads any value but false's spellings as true; a typo turns the filter around.
  ...nullValues.map((value) => ({
    kind: 'on purpose' as const,
    file: FILTERING,
    test: `Filtering API > Basic filters > Filter null > Should return only matching items ({ 'undefined': ${value} })`,
    readme: NULL_ROW,
    failure: ['→ 400', '$null at price takes true or false'],
  })),
  ...nullValues.map((value) => ({
    kind: 'on purpose' as const,
    file: FILTERING,
    test: `Filtering API > Basic filters > Filter null > Should return three matches ({ 'undefined': ${value} })`,
    readme: NULL_ROW,
    failure: ['→ 400', '$notNull at price takes true or false'],
  })),
  // `?filter[title]=...` (a typo of `filters`) on a PUT and a DELETE: Strapi ignores it.
  ...['Update + Deep sort (1st level) should ignore the sort', 'Delete + Deep sort (1st level) should ignore the sort'].map((name) => ({
    kind: 'on purpose' as const,
    file: SORT,
    test: `Sort > ${name}`,
    readme: UNKNOWN_PARAMETER_ROW,
    failure: ['→ 400', 'Invalid key filter'],
  })),
  // Query parameters no route knows (`customFilter`, `unknownKey`, `where`): Strapi ignores them (the test checks the
  // answer is the same as without them); Cairn refuses them. (In the copy of validate-query.test.api.js in the
  // issue's wider set of Strapi's files: tests/api/core/strapi/api/validate/.)
  ...['authenticated', 'unauthenticated'].flatMap((who) =>
    ['nested object param', 'plain param', 'where on a private relation field'].map((param) => ({
      kind: 'on purpose' as const,
      file: 'tests/api/core/strapi/api/validate/validate-query.test.api.js',
      test: `Core API - Validate > Filters > object notation > Admin User Relations - Content API > Unrecognized top-level query params > do not affect the response (${who}) - ${param}`,
      readme: UNKNOWN_PARAMETER_ROW,
      failure: ['→ 400', 'Invalid key'],
    })),
  ),
  // `_q=Private` finds the documents by their private `name_private`: Strapi searches private attributes, Cairn does not.
  {
    kind: 'on purpose',
    file: 'tests/api/core/strapi/api/validate/validate-query.test.api.js',
    test: 'Core API - Validate > Search > string notation > Scalar > Private modifier > Successfully applies search on private attributes: Private',
    readme: '`_q` does not search private attributes',
    failure: ['expected [] to have a length of 3', '_q=Private → 200'],
  },
  // Users CRUD through GraphQL (`updateUsersPermissionsUser`, `deleteUsersPermissionsUser`): Cairn's schema has
  // register, login and me only; users are REST's (users-permissions/users-graphql.test.api.js).
  ...[
    ['Update a user', 'UsersPermissionsUserInput'],
    ['Delete a user', 'deleteUsersPermissionsUser'],
    ['Update a user role by documentId', 'UsersPermissionsUserInput'],
  ].map(([name, answer]) => ({
    kind: 'on purpose' as const,
    file: 'tests/api/plugins/users-permissions/users-graphql.test.api.js',
    test: `Simple Test GraphQL Users API End to End > Test register and login > ${name}`,
    readme: "GraphQL (Strapi 5's schemas): no queries or mutations for users, roles",
    failure: ['→ 400', answer],
  })),
  // The same through users-permissions/graphql.test.api.js (as of Strapi 5.22; strapi/strapi's code index does not
  // hold it): create/update/deleteUsersPermissionsUser are not in Cairn's schema, so every call is a 400 before any
  // permission check. (Its "for admins" tests send Strapi's admin JWT, which the adapter's createAuthRequest replaces
  // with the suite's full-access API token.)
  ...(['create', 'update', 'delete'] as const).flatMap((verb) =>
    (verb === 'delete' ? ['forbidden to public', 'authorized for admins'] : ['forbidden to public', 'forbidden for admins']).map((name) => ({
      kind: 'on purpose' as const,
      file: 'tests/api/plugins/users-permissions/graphql.test.api.js',
      test: `Test Graphql user service > ${
        verb === 'create'
          ? 'Check createUser authorizations'
          : verb === 'update'
            ? 'Check updateUser authorizations'
            : 'Check updateUser authorizations > Check deleteUser authorizations'
      } > ${verb}User is ${name}`,
      readme: "GraphQL (Strapi 5's schemas): no queries or mutations for users, roles",
      failure: ['→ 400', `${verb}UsersPermissionsUser`],
    })),
  ),
  // GraphQL uploads (`uploadFile`, `multipleUploadFile`): gone from Strapi 5's upload plugin; the other tests of the
  // file read the folder the first upload would have made.
  ...['uploadFile', 'multipleUploadFile'].flatMap((mutation) => [
    { name: 'Uploaded file goes into a specific folder', failure: ['expected 415 to be 200', 'POST /graphql → 415'] },
    { name: 'Uploads folder is recreated if deleted', failure: ["Cannot read properties of undefined (reading 'id')"] },
    { name: 'Uploads folder is recreated if deleted (handle duplicates)', failure: ["Cannot read properties of undefined (reading 'id')"] },
  ].map(({ name, failure }) => ({
    kind: 'not Strapi 5.54' as const,
    file: 'tests/api/core/upload/content-api/graphql-upload-automatic-folder.test.api.js',
    test: `Uploads folder (GraphQL) > ${mutation} > ${name}`,
    readme: 'mutations Strapi 5.54\'s upload plugin no longer',
    failure,
  }))),
  // A browser at /graphql: Strapi serves Apollo's landing page, loaded from a CDN; Cairn serves GraphiQL offline.
  {
    kind: 'on purpose',
    file: 'tests/api/plugins/graphql/utils.test.api.js',
    test: 'Test Graphql Utils > Load Graphql playground',
    readme: 'GraphQL: a browser opening the endpoint gets GraphiQL',
    failure: ["to contain '<title>Apollo Server</title>'"],
  },
  // Morph items sent without any id (the test maps `rel.id` of `{ documentId }` objects): Strapi's Query Engine throws
  // (a 500), Cairn answers 400; either way the answer has no data.
  ...['Adding id3 & removing id1', 'Adding id3 & removing id1, id3 (should still add id3)', 'Change relation order from id1, id2, id3 to id3, id2, id1', 'Change relation order by putting id2, id1 at the end'].map((name) => ({
    kind: 'not Strapi 5.54' as const,
    file: RELATIONS,
    test: `Relations > Update an entity relations > ids being directly in the array ([3]) > ${name}`,
    readme: MORPH_EVIDENCE,
    failure: ['expected null to match object', '→ 400', 'products_morphtomany.connect.0 needs a documentId'],
  })),
  // `products_morphtomany: [{ id: <documentId> }]`: Strapi 5 answers each item's row id (the alphas' answer).
  ...['Adding id3 & removing id1', 'Adding id3 & removing id1, id3 (should still add id3)', 'Change relation order from id1, id2, id3 to id3, id2, id1'].map((name) => ({
    kind: 'not Strapi 5.54' as const,
    file: RELATIONS,
    test: `Relations > Update an entity relations > ids being an object in the array ([{ id: 3 }]) > ${name}`,
    readme: MORPH_EVIDENCE,
    failure: ['to match object', '→ 200'],
  })),
  // `updatedShop.data.attributes.products_morphtomany`: a v5 answer has no `attributes`.
  ...['ids being directly in the array ([1, 2, 3])', 'ids being an object in the array ([{ id: 1 }, { id: 2 }, { id: 3 }])'].map((mode) => ({
    kind: 'not Strapi 5.54' as const,
    file: RELATIONS,
    test: `Relations > Disconnect entity relations > ${mode} > Remove all relations id1, id2, id3`,
    readme: MORPH_EVIDENCE,
    failure: ["Cannot read properties of undefined (reading 'products_morphtomany')", '→ 200'],
  })),
  // `locale: 'en'` expected back on types without i18n: Strapi 5.54 makes `locale` private there (strapi/strapi#21495).
  ...[
    'Regular sort',
    'Deep Sort (1st level)',
    'Deep Sort (2nd level)',
    'Deep sort (2nd level) + Regular sort',
    '2 Deep Sort (2nd level + 1st level)',
    'Deep sort (2st level) + Pagination (start/limit)',
    'Deep sort (1st level) + Pagination (page/pageSize)',
    'Deep sort (1st level) + Filters',
  ].map((name) => ({
    kind: 'not Strapi 5.54' as const,
    file: SORT,
    test: `Sort > ${name}`,
    readme: "8 of the sort file's tests, which expect `locale: 'en'` back on types without i18n",
    failure: ['to match object', '→ 200'],
    diffOnly: ['"locale": "en",'],
  })),
  // The copy predates strapi/strapi#26489: it expects private attributes left out of `<Type>Input` (#21934's rule);
  // Strapi 5.54's recorded schemas keep them (UsersPermissionsUserInput has resetPasswordToken), as Cairn does.
  {
    kind: 'not Strapi 5.54',
    file: 'tests/api/plugins/graphql/relations.test.api.js',
    test: "Test Graphql Relations API End to End > Test relations features > Can't edit a private relation ",
    readme: 'the rule strapi/strapi#21934 brought and #26489 took back',
    failure: ['expected 200 to be 400', '"updatePerson"'],
  },
  // `api.documents.strictParams: true` and a root param Strapi does not know (`where`, `foo`): Strapi 5.54 drops it
  // and runs the call, as its validation.test.api.ts of that release expects; Cairn refuses it (a later version of
  // that file expects the refusal too).
  ...[
    'should strip unrecognized root-level keys and succeed (content API may pass known-but-unused params)',
    'should strip multiple unrecognized root-level keys and succeed',
    'should accept allowed params including hasPublishedVersion and strip extra unrecognized keys',
  ].map((name) => ({
    kind: 'on purpose' as const,
    file: 'tests/api/core/strapi/document-service/validation/validation.test.api.ts',
    test: `Document Service Validations > Unrecognized root-level params (api.documents.strictParams) > strictParams: true > ${name}`,
    readme: 'with `api.documents.strictParams: true`, a root param',
    failure: ['Unrecognized parameter(s) at root level'],
  })),
  // Strict params accept any well-formed locale code (`en-US`) of Strapi's; Cairn refuses one the app does not have.
  {
    kind: 'on purpose',
    file: 'tests/api/core/strapi/document-service/validation/validation.test.api.ts',
    test: 'Document Service Validations > strictParams: true (validate) > Locale > should accept valid BCP 47 locale and wildcard',
    readme: 'unknown locale → 400',
    failure: ['Invalid locale "en-US": expected one of en, nl, it, es, *'],
  },
  // Strapi's document-service tests (tests/api/core/strapi/document-service/, not among the 39 files CI runs): its
  // validation file calls every action naming one document without a documentId, to see its other params accepted.
  ...['findOne', 'update', 'delete', 'clone', 'publish', 'unpublish', 'discardDraft'].flatMap((method) =>
    Object.entries(VALIDATION_NAMES).flatMap(([group, names]) =>
      names.map((name) => ({
        kind: 'on purpose' as const,
        file: DS_VALIDATION,
        test: `Document Service Validations > ${method} method > ${group} > ${name}`,
        readme: '`strapi.documents(uid).findOne`, `update`, `delete`, `clone`, `publish`, `unpublish`, `discardDraft` without a `documentId`',
        failure: ['documentId is required'],
      })),
    ),
  ),
  // Locales the test app does not have (it registers nl, it and es): Strapi reads and writes any well-formed code.
  ...[
    ['should accept valid BCP 47 locale formats', 'Invalid locale "en-US"'],
    ['should accept locale with any case for language part (BCP 47 is case-insensitive)', 'Invalid locale "EN"'],
    ['should pass through non-string locale in default mode', 'Invalid locale 123'],
  ].map(([name, failure]) => ({
    kind: 'on purpose' as const,
    file: DS_VALIDATION,
    test: `Document Service Validations > Locale validation > findMany method > ${name}`,
    readme: UNKNOWN_LOCALE_ROW,
    failure: [failure],
  })),
  ...['TextShort', 'TextLong', 'NumberInteger', 'NumberDecimal', 'NumberBigInteger', 'NumberFloat', 'Email', 'DateDate', 'DateDateTime', 'DateTime'].flatMap((type) =>
    ['identifiers', 'repeatableIdentifiers', 'identifiersDz'].map((field) => ({
      kind: 'on purpose' as const,
      file: 'tests/api/core/strapi/document-service/uniqueness.test.api.ts',
      test: `Document Service > Component unique fields > cannot create multiple entities with the same unique Component${type} value in the same ${field}, locale and publication state`,
      readme: UNKNOWN_LOCALE_ROW,
      failure: ['Invalid locale fr'],
    })),
  ),
  {
    kind: 'on purpose',
    file: 'tests/api/core/strapi/document-service/document-id-uniqueness.test.api.ts',
    test: 'Document Service - Document ID Uniqueness > allows creating documents with the same documentId but different locales ',
    readme: UNKNOWN_LOCALE_ROW,
    failure: ['Invalid locale fr'],
  },
  // Files of the wider set at paths strapi/strapi's code index holds only in versions written before Strapi 5 (their
  // Strapi 5 versions live at other paths): 200 on create, an `id` in a body accepted.
  ...[
    ['tests/api/core/strapi/api/sort/sort.test.api.js', 'Sort > targeting an attribute in a relation', ['to match object', 'GET /api/articles?sort=categories.id&populate=categories → 200']],
    ['tests/api/core/strapi/api/validate-body.test.api.js', 'Validate Body > Create > Cannot specify the ID during entity creation', ['expected 400 to be 200', 'Invalid key id']],
    ['tests/api/core/strapi/api/validate-body.test.api.js', 'Validate Body > Update > ID cannot be updated, but allowed fields can', ['expected 400 to be 200', 'Invalid key id']],
  ].map(([file, test, failure]) => ({
    kind: 'not Strapi 5.54' as const,
    file: file as string,
    test: test as string,
    readme: 'are held only in versions written before Strapi 5',
    failure: failure as string[],
  })),
  // A component's `componentKey` (strapi/strapi#27077): not in Strapi 5.54's GraphQL schema.
  ...[
    ['query returns componentKey on nested components', ['expected 400 to be 200', 'componentKey', 'GRAPHQL_VALIDATION_FAILED']],
    ['mutation update accepts componentKey on component input', ["Cannot read properties of undefined (reading 'gqlKeyArticle')", 'GRAPHQL_VALIDATION_FAILED']],
  ].map(([name, failure]) => ({
    kind: 'not Strapi 5.54' as const,
    file: 'tests/api/plugins/graphql/component-key.test.api.js',
    test: `GraphQL — componentKey > ${name as string}`,
    readme: 'asks for `componentKey`, which Strapi 5.54',
    failure: failure as string[],
  })),
  // A draft-only article read through `article(documentId)` without `status`: Strapi 5.54 answers null, as Cairn does.
  ...['returns manyToMany relations in connect order with pagination', 'returns manyToMany relations in connect order via _connection with pagination'].map((name) => ({
    kind: 'not Strapi 5.54' as const,
    file: 'tests/api/plugins/graphql/collection-relation-order.test.api.js',
    test: `GraphQL collection relation order (issue #26577) > ${name}`,
    readme: "which Strapi 5.54's resolver answers null",
    failure: ["Cannot read properties of null (reading 'data')", '{"data":{"article":null}}'],
  })),
  // Files that write a local plugin or an extension into the app Strapi's own harness generates (`test-apps/api`).
  ...[
    ['tests/api/core/strapi/loaders/local-plugin-resolve.test.api.js', 'Local plugin registered via relative resolve path loads and serves a route > GET /api/local-fixture/ping returns 200 with expected body', ['The "path" argument must be of type string. Received undefined']],
    ['tests/api/core/strapi/loaders/local-ts-plugin.test.api.js', 'Local plugin loading (simulates compiled TS-only plugin) > GET /api/ts-fixture/ping returns 200 with expected body', ['The "path" argument must be of type string. Received undefined']],
    ['tests/api/core/strapi/plugin-controllers-extension-bc.test.api.ts', 'Plugin controller extension backward compatibility > serves an action added by an extension', ['expected 404 to be 200', 'GET /api/users-ping → 404']],
    ['tests/api/core/strapi/plugin-controllers-extension-bc.test.api.ts', 'Plugin controller extension backward compatibility > serves an action replaced by an extension', ['expected 404 to be 200', 'GET /api/users-find → 404']],
    ['tests/api/core/strapi/plugin-controllers-extension-bc.test.api.ts', 'Plugin controller extension backward compatibility > serves an extension that wraps the stock action', ['to match object', 'GET /api/users/me → 200']],
  ].map(([file, test, failure]) => ({
    kind: 'not Strapi 5.54' as const,
    file: file as string,
    test: test as string,
    readme: "into the app Strapi's own harness generates",
    failure: failure as string[],
  })),
  // A key `PUT /api/users/:id` does not know: Strapi 5.54 drops it (its Document Service writes the known ones), Cairn
  // refuses it as the Content API does.
  ...[
    ['PUT silently ignores an unrecognized field (200, no-op)', 'Invalid key thisFieldDoesNotExist'],
    ['PUT silently ignores an unknown relation-looking attribute (200, no-op)', 'Invalid key notARealRelation'],
  ].map(([name, answer]) => ({
    kind: 'on purpose' as const,
    file: 'tests/api/plugins/users-permissions/content-api/user-update-relations.test.api.js',
    test: `U&P users REST relation handling (issue 26606) > existing behavior (regression safety net) > ${name}`,
    readme: 'unknown keys in the body of `POST /api/users` and `PUT /api/users/:id`',
    failure: ['expected 400 to be 200', answer],
  })),
  // `componentKey` on components (a later Strapi's durable component key): not in Strapi 5.54's Document Service.
  ...[
    ['assigns componentKey on create and preserves it across publish', 'expected undefined to deeply equal Any<String>'],
    ['updates draft by componentKey from published response', 'Invalid key componentKey'],
    ['omit-id full replace still works (non-breaking)', 'expected false to be true'],
  ].map(([name, failure]) => ({
    kind: 'not Strapi 5.54' as const,
    file: 'tests/api/core/strapi/document-service/component-key.test.api.ts',
    test: `Document Service — componentKey > ${name}`,
    readme: "give components a `componentKey`, which Strapi 5.54's Document Service does not have",
    failure: [failure],
  })),
  // Its migration of component keys (`5.0.0-08-component-key-twinning`) is none of Strapi 5.54's @strapi/database.
  {
    kind: 'not Strapi 5.54',
    file: 'tests/api/core/strapi/document-service/component-key-twinning.test.api.ts',
    test: '(the file)',
    readme: "give components a `componentKey`, which Strapi 5.54's Document Service does not have",
    failure: ['Cannot find module', '5.0.0-08-component-key-twinning'],
  },
  {
    kind: 'not Strapi 5.54',
    file: 'tests/api/core/strapi/document-service/relations/dz-dp-component-relation.test.api.ts',
    test: 'DZ component → D&P target inside D&P parent > Publishing target after parent links the published DZ component',
    readme: 'does not propagate links of components inside a Draft & Publish entry',
    failure: ['expected [] to have a length of 1 but got +0'],
  },
  {
    kind: 'not Strapi 5.54',
    file: 'tests/api/core/strapi/document-service/relations/unidirectional-relations.test.api.ts',
    test: 'Document Service unidirectional relations > Publishing the relation target after parent publish links the nested published component',
    readme: 'does not propagate links of components inside a Draft & Publish entry',
    failure: ['expected [] to have a length of 1 but got +0'],
  },
  // The same rule, for a component (not a dynamic zone's): and the test after it counts the join table's rows, which
  // this one leaves behind when it fails (it deletes its product at its end), as it fails on Strapi 5.54.
  {
    kind: 'not Strapi 5.54',
    file: 'tests/api/core/strapi/document-service/relations/unidirectional-relations.test.api.ts',
    test: 'Document Service unidirectional relations > Publishing the relation target after parent publish links the published component',
    readme: 'does not propagate links of components inside a Draft & Publish entry',
    failure: ['expected [] to have a length of 1 but got +0'],
  },
  {
    kind: 'not Strapi 5.54',
    file: 'tests/api/core/strapi/document-service/relations/unidirectional-relations.test.api.ts',
    test: 'Document Service unidirectional relations > Should not create orphaned relations for a draft and publish content-type when updating from the relation side',
    readme: 'counts the rows of the join table, with those the test before it leaves',
    failure: ['expected 3 to be 2'],
  },
  // Strapi 5.54's search reads `documentId` as one more string attribute: a digit finds every entry whose random
  // documentId holds it, besides the one whose id is that number.
  ...[
    ['Search query > Without filters > search for "id"', '/api/beds?_q=3'],
    ['Search query > Without filters > search that target column %p peopleNumber', '/api/beds?_q=6'],
  ].map(([test, request]) => ({
    kind: 'not Strapi 5.54' as const,
    file: 'tests/api/core/strapi/search.test.api.js',
    test,
    readme: 'pass or fail by the documentIds drawn, on Strapi 5.54 as on Cairn',
    failure: ['to be 1 // Object.is equality', request],
    random: 'a bed whose documentId holds the digit is found too',
  })),
  // Strapi's Document Service runs its SQL on its knex, whose `query` event hears it: Cairn's runs on its own drivers.
  {
    kind: 'on purpose',
    file: 'tests/api/core/strapi/document-service/relations/shared-component-relations.test.api.ts',
    test: 'Document Service relations held by a component shared across content types > runs the same number of ownership lookups regardless of how many instances there are',
    readme: "`strapi.db.connection.on('query')` hears the statements sent through knex",
    failure: ['expected 0 to be greater than 0'],
  },
  // The clone files read a `useJoinTable: false` relation's column, or join knex to the Document Service's
  // transaction with `.transacting(trx)`: both Cairn refuses on purpose (README rows).
  ...[
    ['tests/api/core/strapi/document-service/relations/clone-nested-relation-operations.test.api.ts', 'clone applies duplicate-form selected target for a useJoinTable:false relation inside a component', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-nested-relation-operations.test.api.ts', 'clone applies duplicate-form selected target for a morphToOne relation inside a component', TRANSACTING_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-nested-relation-operations.test.api.ts', 'clone does not copy a morph onto another row when a dynamic zone block changes component', TRANSACTING_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone does not copy an inverse useJoinTable:false joinColumn as an FK', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone honors connect status:published for an inline D&P target', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone clears an inline FK when documentId disconnect matches the other publication row', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone keeps an inline FK when disconnect names only the other publication status', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone accepts a single object connect for an inline relation', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone accepts a single object set and a single object disconnect', JOIN_COLUMN_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone clears a morphToOne when documentId disconnect matches the other publication row', TRANSACTING_ROW],
    ['tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts', 'clone accepts a single object connect for a morphToOne', TRANSACTING_ROW],
  ].map(([file, name, row]) => ({
    kind: 'on purpose' as const,
    file,
    test: `Document Service clone ${file.includes('nested') ? 'nested ' : ''}relation operation payloads > ${name}`,
    readme: row,
    failure: [row === JOIN_COLUMN_ROW ? 'has no joinColumn in Cairn' : "strapi.db.transaction's trx is Cairn's transaction, not a knex one"],
  })),
  {
    kind: 'on purpose',
    file: 'tests/api/core/strapi/document-service/relations/clone-relation-operations.test.api.ts',
    test: 'Document Service clone relation operation payloads > clone uses the default locale for an inline relation from a non-localized source',
    readme: UNKNOWN_LOCALE_ROW,
    failure: ['Invalid locale es'],
  },
  ...[
    ['tests/api/core/strapi/document-service/delete.test.api.ts', 'Document Service > Delete > Can delete a document with a component'],
    ['tests/api/core/strapi/document-service/delete-morph-join-order.test.api.ts', 'Document Service - Delete morph join order > Removes morphToMany join rows when a manyToMany field is ordered before morphToMany (#25857)'],
  ].map(([file, test]) => ({ kind: 'on purpose' as const, file, test, readme: TRANSACTING_ROW, failure: ["strapi.db.transaction's trx is Cairn's transaction, not a knex one"] })),
  {
    // A newer Strapi's `readDraft` action (and a draft default for lists); Strapi 5.54 has neither (grep of its install).
    kind: 'not Strapi 5.54',
    file: 'tests/api/plugins/users-permissions/content-api/read-draft-permission.test.api.js',
    test: 'Content API readDraft permission (users-permissions) > with find but without readDraft, draft default list returns 403',
    readme: 'Strapi 5.54 has no `readDraft` action',
    failure: ['expected 200 to be 403'],
  },
  // Strapi 5.54's Koa cookies (the `cookies` package, 0.9) write `maxAge` as Expires only: these newer tests expect Max-Age.
  ...['should include Max-Age on Set-Cookie when sessions.cookie.maxAge is configured', 'should include Max-Age on refresh rotation when sessions.cookie.maxAge is configured'].map(
    (name) => ({
      kind: 'not Strapi 5.54' as const,
      file: 'tests/api/plugins/users-permissions/content-api/auth-cookie-security.test.api.js',
      test: `Users-Permissions Cookie Security > sessions.cookie.maxAge > ${name}`,
      readme: 'as the cookies library of Strapi 5.54 writes it: it sends no `Max-Age` attribute',
      failure: ['to match /max-age=120/'],
    }),
  ),
  {
    // Its models declare `api::user.user` beside users-permissions' user: both would answer /api/users, and Cairn
    // refuses to start (the README's row), so the file's beforeAll fails and none of its tests runs.
    kind: 'on purpose',
    file: 'tests/api/core/strapi/migrations/migration-discard-drafts.test.api.js',
    test: '(the file)',
    readme: "a content type whose singular or plural name a plugin's type has",
    failure: ['API name "user"', 'is already used by plugin::users-permissions.user'],
  },
  // GET /users-permissions/permissions marking the caller's own actions enabled: a later Strapi's (strapi/strapi#15378);
  // 5.54's controller answers getActions() with every action disabled.
  ...["Returns the authenticated caller's own permissions", 'Returns the public role permissions for an anonymous caller'].map((name) => ({
    kind: 'not Strapi 5.54' as const,
    file: 'tests/api/plugins/users-permissions/content-api/permissions.test.api.js',
    test: `Permissions API > ${name}`,
    readme: "each `enabled: false`, as Strapi 5.54's `getActions()` answers whoever calls",
    failure: ['to deeply equal { enabled: true', 'GET /api/users-permissions/permissions → 200'],
  })),
  {
    // It expects Strapi's bootstrap to run its join-table repair and record it in the core store.
    kind: 'on purpose',
    file: 'tests/api/core/strapi/repairs/publication-state-join-table-repair.test.api.ts',
    test: 'publication-state join-table repair > runs the production repair during the next bootstrap and records its completion',
    readme: "Strapi's one-time data repairs at start",
    failure: ['expected [', 'to deeply equal ['],
  },
  {
    // Cairn's published source links the target's published row (the README's row); the test reads Strapi's link
    // to the row it was given.
    kind: 'on purpose',
    file: 'tests/api/core/strapi/document-service/relations/polymorphic.test.api.ts',
    test: 'Document Service polymorphic relations > unpublish > can unpublish documents that contain polymorphic relations',
    readme: 'a `morphToOne`, on a content type or in a component, takes what a `morphToMany` takes',
    failure: ['expected { id: 5, …(1) } to deeply equal { id: 6, …(1) }'],
  },
];

/** Whether the README explains `difference`: a row of the table of differences, or the phrase it names. */
export function explained(readme: string, difference: Difference): boolean {
  if (difference.kind === 'on purpose') return differenceRows(readme).some((row) => row.startsWith(difference.readme));
  return readme.replace(/\s+/g, ' ').includes(difference.readme);
}

/** The README's rows of differences: the first cell of each table row under the differences heading. */
export function differenceRows(readme: string): string[] {
  const start = readme.indexOf('## Where Cairn differs from Strapi (on purpose)');
  if (start === -1) return [];
  const section = readme.slice(start).split(/\n## /)[0];
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
    .map((line) => line.slice(2).split(' | ')[0]);
}
