// `@strapi/utils` for Strapi's test files (`import { errors } from '@strapi/utils'`): the error classes of the Cairn
// running the tests, as an app's code gets them (src/server-code/app-modules.ts registers them when Cairn starts).
// Looked up at use, not at import: the test file is loaded before its Cairn starts, and by another module loader
// (vitest's) than Cairn's, whose classes the thrown errors are instances of.
const REGISTRY = Symbol.for('cairn.server-code.modules');

function registered() {
  const modules = globalThis[REGISTRY];
  if (!modules) throw new Error('@strapi/utils: no Cairn has started yet (its errors are the running Cairn\'s)');
  return modules['@strapi/utils'].errors;
}

export const errors = new Proxy(
  {},
  {
    get: (_target, key) => registered()[key],
    has: (_target, key) => key in registered(),
  },
);
