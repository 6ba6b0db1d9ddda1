import { createRequire } from 'node:module';

type Compiler = (externalSchemas: unknown, options: unknown) => unknown;

/**
 * Fastify's JSON-schema compilers, built on first use instead of with the instance. Fastify requires them (ajv,
 * ajv-formats, fast-json-stringify: about 35 ms, a sixth of a start) when an instance is created; Cairn's routes
 * declare no schemas (it validates input itself), so a route with one (a plugin's, an app's) is what loads them.
 * They are the very compilers Fastify would use, required from Fastify's own location. The one difference:
 * Fastify treats factories given here as custom and compiles a `headers` schema as written, without lower-casing
 * its keys (a headers schema must then name them in lower case, as Node reports them).
 */
export function lazySchemaCompilers(): { buildValidator: Compiler; buildSerializer: Compiler } {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  let validator: Compiler | undefined;
  let serializer: Compiler | undefined;
  return {
    buildValidator: (externalSchemas, options) => (validator ??= (fromFastify('@fastify/ajv-compiler') as () => Compiler)())(externalSchemas, options),
    buildSerializer: (externalSchemas, options) =>
      (serializer ??= (fromFastify('@fastify/fast-json-stringify-compiler') as () => Compiler)())(externalSchemas, options),
  };
}
