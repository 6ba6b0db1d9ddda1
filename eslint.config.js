import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/fixtures/conformance is a verbatim copy of the shared conformance kit (Strapi's own files): kept as it is, not linted.
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/conformance/**', 'examples/**/.tmp/**', 'examples/**/public/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
