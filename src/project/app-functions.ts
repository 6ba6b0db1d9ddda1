import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ConfigError } from '../errors/index.js';
import { appModuleAliases, describeLoadError, loadAppModule, type ModuleAliases } from './config-module.js';

const EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs']);

/**
 * The app's named functions of one kind, `src/policies/<name>.(ts|js)` or `src/middlewares/<name>.(ts|js)`, keyed
 * by `global::<name>` (Strapi's name for them) and by the plain `<name>`. Each file exports a function, or an
 * object with a `handler` function (how Strapi's policy files may be written). A file that can't load or exports
 * something else stops start-up naming the file. `@strapi/utils` and `@strapi/strapi` resolve to Cairn's own modules
 * (`aliases`, by default the ones the composition root set: see useAppModuleAliases).
 */
export async function loadAppFunctions(
  dir: string,
  kind: 'policies' | 'middlewares',
  aliases: ModuleAliases | undefined = appModuleAliases(),
): Promise<Map<string, (...args: never[]) => unknown>> {
  const folder = join(dir, 'src', kind);
  const found = new Map<string, (...args: never[]) => unknown>();
  if (!existsSync(folder)) return found;
  for (const entry of readdirSync(folder).sort()) {
    if (!EXTENSIONS.has(extname(entry)) || entry.endsWith('.d.ts')) continue;
    const file = join(folder, entry);
    const name = entry.slice(0, -extname(entry).length);
    if (found.has(name)) throw new ConfigError(`${file}: another file in src/${kind} is also named ${name}`);
    let exported: unknown;
    try {
      exported = await loadAppModule(file, dir, aliases);
    } catch (error) {
      throw new ConfigError(`${file}: ${describeLoadError(error, file)}`);
    }
    const fn = typeof exported === 'function' ? exported : (exported as { handler?: unknown } | null)?.handler;
    if (typeof fn !== 'function') throw new ConfigError(`${file} must export a function`);
    found.set(name, fn as (...args: never[]) => unknown);
    found.set(`global::${name}`, fn as (...args: never[]) => unknown);
  }
  return found;
}
