// `@strapi/openapi` for test files that `import` it: Strapi's OpenAPI generator runs on Strapi's in-process objects
// (`generate(strapi, ...)`); a test that calls it is out of scope. The file itself loads, so its tests are reported.
import { createRequire } from 'node:module';
const { OutOfScope } = createRequire(import.meta.url)('../out-of-scope.js');
export function generate() {
  throw new OutOfScope("@strapi/openapi's generate() reads Strapi's in-process objects (a package of Strapi's own process)");
}
