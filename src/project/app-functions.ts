import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ConfigError } from '../errors/index.js';
import { describeLoadError, loadAppModule, type ModuleAliases } from './config-module.js';

const EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs']);

/**
 * The app's named functions of one kind, `src/policies/<name>.(ts|js)` or `src/middlewares/<name>.(ts|js)`, keyed
 * by `global::<name>` (Strapi's name for them) and by the plain `<name>`. Each file exports a function, or an
 * object with a `handler` function (how Strapi's policy files may be written). A file that can't load or exports
 * something else stops start-up naming the file.
 */
export async function loadAppFunctions(dir: string, kind: 'policies' | 'middlewares', aliases?: ModuleAliases): Promise<Map<string, (...args: never[]) => unknown>> {
  return loadFunctionsIn(join(dir, 'src', kind), dir, kind, (name) => [name, `global::${name}`], aliases);
}

/**
 * The functions of one folder (`src/policies`, or an API's `src/api/<api>/policies`), each under the names `names`
 * gives its file's name; `aliases` redirect the modules app code imports (`@strapi/utils`).
 */
export async function loadFunctionsIn(
  folder: string,
  dir: string,
  kind: string,
  names: (name: string) => string[],
  aliases?: ModuleAliases,
): Promise<Map<string, (...args: never[]) => unknown>> {
  const found = new Map<string, (...args: never[]) => unknown>();
  if (!existsSync(folder)) return found;
  for (const entry of readdirSync(folder).sort()) {
    if (!EXTENSIONS.has(extname(entry)) || entry.endsWith('.d.ts')) continue;
    const file = join(folder, entry);
    const name = entry.slice(0, -extname(entry).length);
    if (found.has(names(name)[0])) throw new ConfigError(`${file}: another file in ${kind} is also named ${name}`);
    let exported: unknown;
    try {
      exported = await loadAppModule(file, dir, aliases);
    } catch (error) {
      throw new ConfigError(`${file}: ${describeLoadError(error, file)}`);
    }
    const fn = typeof exported === 'function' ? exported : (exported as { handler?: unknown } | null)?.handler;
    if (typeof fn !== 'function') throw new ConfigError(`${file} must export a function`);
    for (const key of names(name)) found.set(key, fn as (...args: never[]) => unknown);
  }
  return found;
}
