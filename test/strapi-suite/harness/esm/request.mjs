// ESM entry for test files that `import` the harness (TypeScript ones): the same CommonJS module `require` loads.
import { createRequire } from 'node:module';
const harness = createRequire(import.meta.url)('../api-tests/request.js');
export const { createAgent, createRequest, createContentAPIRequest, createAuthRequest, transformToRESTResource } = harness;
export default harness;
