import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors/index.js';
import { describeLoadError, loadAppModule } from './config-module.js';

/** Strapi's Query Engine lifecycle names a content type's `lifecycles.js` may export. */
export const MODEL_LIFECYCLES = [
  'beforeCreate', 'afterCreate', 'beforeCreateMany', 'afterCreateMany',
  'beforeUpdate', 'afterUpdate', 'beforeUpdateMany', 'afterUpdateMany',
  'beforeDelete', 'afterDelete', 'beforeDeleteMany', 'afterDeleteMany',
  'beforeCount', 'afterCount', 'beforeFindOne', 'afterFindOne', 'beforeFindMany', 'afterFindMany',
] as const;

type Handler = (event: never) => unknown;
const EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs'];

/**
 * The `lifecycles.(ts|js|mjs|cjs)` beside a content type's `schema.json` (`src/api/<api>/content-types/<name>/`),
 * as Strapi loads it: `module.exports = { beforeCreate(event) {...} }` or `export default {...}`. Undefined when
 * there is none. A file that can't load, an unknown export or one that isn't a function stops the start with the
 * file named (a hook silently skipped would leave data unchecked).
 */
export async function loadModelLifecycles(schemaFile: string, appDir: string): Promise<Partial<Record<string, Handler>> | undefined> {
  const found = EXTENSIONS.map((ext) => join(dirname(schemaFile), `lifecycles${ext}`)).filter((f) => existsSync(f));
  if (found.length > 1) throw new ConfigError(`${found.join(' and ')}: keep one lifecycles file`);
  if (!found.length) return undefined;
  const file = found[0];
  let exported: unknown;
  try {
    exported = await loadAppModule(file, appDir);
  } catch (error) {
    throw new ConfigError(`${file}: ${describeLoadError(error, file)}`);
  }
  if (exported === undefined || exported === null) return undefined;
  return lifecycleHooks(exported, file, 'must export');
}

/**
 * A content type's lifecycles object (`{ beforeCreate(event) {...}, ... }`, from a `lifecycles.js` or a plugin
 * extension's `contentTypes.<name>.lifecycles`), checked: an unknown name or a value that isn't a function stops the
 * start naming `where`.
 */
export function lifecycleHooks(value: unknown, where: string, verb = 'must be'): Partial<Record<string, Handler>> {
  if (typeof value !== 'object' || value === null) throw new ConfigError(`${where} ${verb} an object of lifecycle functions ({ beforeCreate(event) {...}, ... })`);
  const hooks: Partial<Record<string, Handler>> = {};
  for (const [name, hook] of Object.entries(value)) {
    if (!(MODEL_LIFECYCLES as readonly string[]).includes(name)) throw new ConfigError(`${where}: ${name} is not a lifecycle Cairn runs (known: ${MODEL_LIFECYCLES.join(', ')})`);
    if (typeof hook !== 'function') throw new ConfigError(`${where}: ${name} must be a function, not ${typeof hook}`);
    hooks[name] = (hook as Handler).bind(value);
  }
  return hooks;
}
