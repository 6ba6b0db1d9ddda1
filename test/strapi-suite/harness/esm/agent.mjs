// ESM entry for test files that `import` the harness (TypeScript ones): the same CommonJS module `require` loads.
import { createRequire } from 'node:module';
const harness = createRequire(import.meta.url)('../api-tests/agent.js');
export const { createAgent } = harness;
export default harness;
