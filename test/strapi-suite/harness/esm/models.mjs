// ESM entry for test files that `import` the harness (TypeScript ones): the same CommonJS module `require` loads.
import { createRequire } from 'node:module';
const harness = createRequire(import.meta.url)('../api-tests/models.js');
export const {
  toContentTypeUID, createContentType, createContentTypes, deleteContentType, deleteContentTypes, cleanupModel,
  cleanupModels, createComponent, createComponents, deleteComponent, deleteComponents, createFixtures,
  createFixturesFor, deleteFixturesFor, modifyContentType, modifyComponent, getContentTypeSchema,
} = harness;
export default harness;
