import tseslint from 'typescript-eslint';

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
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
