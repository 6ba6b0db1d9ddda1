import tseslint from 'typescript-eslint';

// Layers (ARCHITECTURE.md): which folder of src/ may import which. Each entry names the folders a layer must not
// import; type-only imports count too (a type is still a dependency). Import cycles are caught by madge in `npm run lint`.
const FEATURES = ['rest', 'graphql', 'auth', 'upload'];
const ALL = ['app', 'cli', 'project', ...FEATURES, 'server-code', 'documents', 'database', 'query', 'model', 'errors'];
const only = (...allowed) => ALL.filter((folder) => !allowed.includes(folder));
const LAYERS = {
  errors: only(),
  model: only('errors'),
  query: only('errors', 'model'),
  database: only('errors', 'model', 'query'),
  documents: only('errors', 'model', 'query', 'database'),
  project: only('errors', 'database'),
  // Features use the core layers and auth (its access contract, and its service for GraphQL), never one another or app/.
  rest: only('errors', 'model', 'query', 'database', 'documents', 'project', 'auth'),
  graphql: only('errors', 'model', 'query', 'database', 'documents', 'project', 'auth'),
  upload: only('errors', 'model', 'query', 'database', 'documents', 'project', 'auth'),
  auth: only('errors', 'model', 'query', 'database', 'documents', 'project'),
  // The app's server code (src/api/*) runs over the Content API: it builds on rest/ (its compiled core routes), and
  // nothing below it knows it.
  'server-code': only('errors', 'model', 'query', 'database', 'documents', 'project', 'auth', 'rest'),
  app: only('errors', 'model', 'query', 'database', 'documents', 'project', ...FEATURES, 'server-code'),
};

/** The transports' packages: the layers below the features serve every transport, so they import none. */
const TRANSPORTS = ['fastify', '@fastify/*', 'graphql', 'graphql-jit'];
const BELOW_FEATURES = new Set(['errors', 'model', 'query', 'database', 'documents']);

/** The import rule of one layer: none of the folders it must not import, from anywhere inside it. */
function layerRule(folder, forbidden) {
  const patterns = forbidden.map((other) => ({
    group: [`../${other}/*`, `../../${other}/*`, `../${other}`, `../../${other}`],
    message: `src/${folder}/ does not import src/${other}/ (ARCHITECTURE.md: layers)`,
  }));
  if (BELOW_FEATURES.has(folder)) patterns.push({ group: TRANSPORTS, message: `src/${folder}/ knows no transport (ARCHITECTURE.md: layers)` });
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  };
}

// SQL text belongs in src/database/: a statement anywhere else is refused (identifiers and dialect branches too are
// the database layer's, but no pattern finds them reliably; the grep in ARCHITECTURE.md does).
const SQL = '/\\b(SELECT|INSERT INTO|DELETE FROM|CREATE TABLE|ALTER TABLE|DROP TABLE)\\b|\\bUPDATE\\s+(\\S+\\s+SET\\b|$)/';
const sqlOutsideDatabase = {
  files: ['src/**/*.ts'],
  ignores: ['src/database/**'],
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: `Literal[value=${SQL}]`, message: 'SQL belongs in src/database/ (a function with a domain name)' },
      { selector: `TemplateElement[value.raw=${SQL}]`, message: 'SQL belongs in src/database/ (a function with a domain name)' },
    ],
  },
};

export default tseslint.config(
  // test/fixtures/conformance is a verbatim copy of the shared conformance kit (Strapi's own files): kept as it is, not linted.
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/conformance/**', 'examples/**/.tmp/**', 'examples/**/public/**'] },
  ...tseslint.configs.recommended,
  {
    // The Strapi suite's harness is CommonJS: Strapi's test files `require` it, and Node's require loads it as is.
    files: ['test/strapi-suite/harness/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { describe: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The interop tests' Strapi app (test/interop/README.md): a Strapi project's config/ and src/ are CommonJS, required by Strapi.
    files: ['test/interop/strapi-app/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...Object.entries(LAYERS).map(([folder, forbidden]) => layerRule(folder, forbidden)),
  sqlOutsideDatabase,
);
