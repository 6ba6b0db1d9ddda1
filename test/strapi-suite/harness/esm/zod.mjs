// `zod` (and `zod/v4`) for test files that `import` it (TypeScript ones): the same stand-in `require` gets
// (harness/zod.js), Strapi's own dependency, which its files use only to build route schemas for Strapi's in-process
// validation; a test that reaches it is out of scope.
import { createRequire } from 'node:module';
const z = createRequire(import.meta.url)('../zod.js');
export { z };
export default z;
