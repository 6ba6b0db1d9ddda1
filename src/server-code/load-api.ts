import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ConfigError } from '../errors/index.js';
import { describeLoadError, inFile, lineIn, loadAppModule, type ModuleAliases } from '../project/config-module.js';

export { inFile };

const EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs']);

/** One file of an API's server code: where it is and what it exports. */
export interface AppFile {
  file: string;
  /** The file's name without its extension (`article` for controllers/article.js). */
  name: string;
  exported: unknown;
}

/** The server code of one API folder, `src/api/<api>/`. */
export interface ApiCode {
  api: string;
  /** Whether the API has a routes/ folder: then its routes are the ones it declares, as in Strapi. */
  hasRoutes: boolean;
  routes: AppFile[];
  controllers: AppFile[];
  services: AppFile[];
  policies: AppFile[];
  middlewares: AppFile[];
}

const KINDS = ['routes', 'controllers', 'services', 'policies', 'middlewares'] as const;

/** The APIs of the app (`src/api/*`) that hold server code, their files loaded (aliases: `@strapi/*` -> Cairn's). */
export async function loadApiCode(dir: string, aliases: ModuleAliases): Promise<ApiCode[]> {
  const root = join(dir, 'src', 'api');
  if (!existsSync(root)) return [];
  const apis: ApiCode[] = [];
  for (const api of readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const code: ApiCode = { api, hasRoutes: existsSync(join(root, api, 'routes')), routes: [], controllers: [], services: [], policies: [], middlewares: [] };
    for (const kind of KINDS) code[kind] = await loadFolder(join(root, api, kind), dir, aliases);
    if (KINDS.some((kind) => code[kind].length > 0) || code.hasRoutes) apis.push(code);
  }
  return apis;
}

async function loadFolder(folder: string, dir: string, aliases: ModuleAliases): Promise<AppFile[]> {
  if (!existsSync(folder)) return [];
  const files: AppFile[] = [];
  const names = new Set<string>();
  for (const entry of readdirSync(folder).sort()) {
    if (!EXTENSIONS.has(extname(entry)) || entry.endsWith('.d.ts')) continue;
    const file = join(folder, entry);
    const name = entry.slice(0, -extname(entry).length);
    if (names.has(name)) throw new ConfigError(`${file}: another file in ${folder} is also named ${name}`);
    names.add(name);
    try {
      files.push({ file, name, exported: await loadAppModule(file, dir, aliases) });
    } catch (error) {
      const line = lineIn(file, error);
      const message = describeLoadError(error, file);
      throw new ConfigError(`${file}${line && !message.includes('(line ') ? ` (line ${line})` : ''}: ${message}`);
    }
  }
  return files;
}
