import Module, { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors/index.js';

const nodeRequire = createRequire(import.meta.url);
type Jiti = { import(id: string): Promise<unknown>; evalModule(source: string, options: { filename: string; ext: string; async: true }): Promise<unknown> };
let jiti: Jiti | undefined;
/** jiti instances with module aliases (app server code: `@strapi/strapi` -> Cairn's own module), by alias set. */
const aliasedJitis = new Map<string, Jiti>();

/** Specifier -> absolute file: what an app's `require('@strapi/strapi')` loads instead of the package. */
export type ModuleAliases = Readonly<Record<string, string>>;
let defaultAliases: ModuleAliases | undefined;

/** The modules app code's `require('@strapi/…')` loads (the composition root sets Cairn's own, once). */
export function useAppModuleAliases(aliases: ModuleAliases | undefined): void {
  defaultAliases = aliases;
}

export function appModuleAliases(): ModuleAliases | undefined {
  return defaultAliases;
}

/**
 * Loads one app file (config/*, src/index) written as JSON, CommonJS, ESM or TypeScript, and returns what it
 * exports (`module.exports`, or the default export, or the named exports when there is no default). A TypeScript
 * file of the app in `appDir` sees the `__dirname` and `__filename` Strapi gives it (see compiledLocation).
 *
 * JavaScript goes through Node's own `require` (which also loads ESM on Node >= 20.19): it costs nothing at cold
 * start, whereas importing jiti alone costs ~60 ms. jiti is imported only for TypeScript, and as a fallback for
 * what `require` can't take (ESM syntax on older Node, CommonJS syntax in a `"type": "module"` package).
 */
export async function loadAppModule(file: string, appDir?: string, aliases?: ModuleAliases): Promise<unknown> {
  const ext = extname(file);
  if (ext === '.json') return JSON.parse(await readFile(file, 'utf8'));
  // CommonJS `require` of an aliased specifier is redirected (redirectRequires); ESM's resolver is not: an ES module
  // that may import an aliased one goes through jiti, which takes the aliases.
  if (aliases) redirectRequires(appDir ?? dirname(file), aliases);
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return exported(await viaJiti(file, appDir, aliases));
  if (aliases && ext === '.mjs') return exported(await viaJiti(file, undefined, aliases));
  // CommonJS in a `"type": "module"` package: Node's `require` would take it for ESM, fail, and (Node 20.19) keep an
  // empty namespace for it in its cache, which every later load gets. jiti reads it as CommonJS.
  if (inModulePackage(file) && looksCommonJs(readFileSync(file, 'utf8'))) return exported(await viaJiti(file, undefined, aliases));
  let loaded: unknown;
  try {
    // A fresh read each time: loading a changed file again in the same process must see the change.
    delete nodeRequire.cache[nodeRequire.resolve(file)];
    loaded = nodeRequire(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Top-level await (or a Node without require(esm)): the asynchronous loader takes it.
    if (code === 'ERR_REQUIRE_ASYNC_MODULE' || code === 'ERR_REQUIRE_ESM') {
      return exported(aliases ? await viaJiti(file, undefined, aliases) : await import(pathToFileURL(file).href));
    }
    if (isModuleKindMismatch(error)) return exported(await viaJiti(file, undefined, aliases));
    throw withLocation(error, file);
  }
  // CommonJS syntax in a `"type": "module"` package evaluates to an empty namespace: jiti reads it correctly.
  if (isEmptyNamespace(loaded)) return exported(await viaJiti(file, undefined, aliases));
  return exported(loaded);
}

/** App folders (with a trailing separator) whose files' `require(specifier)` loads an alias instead. */
const redirected = new Map<string, ModuleAliases>();

/**
 * Makes Node's `require` of an aliased specifier (`@strapi/strapi`), from a file inside `appDir`, load the alias:
 * CommonJS app code then loads natively (no transform), nested requires included. Files elsewhere resolve as ever.
 */
function redirectRequires(appDir: string, aliases: ModuleAliases): void {
  if (!redirected.size) {
    const loader = Module as unknown as { _resolveFilename: (request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]) => string };
    const resolveFilename = loader._resolveFilename;
    loader._resolveFilename = function (request, parent, ...rest) {
      const from = parent?.filename;
      if (from && Object.hasOwn(SPECIFIERS, request.split('/').slice(0, 2).join('/'))) {
        for (const [root, found] of redirected) if (from.startsWith(root) && found[request]) return found[request];
      }
      return resolveFilename.call(this, request, parent, ...rest);
    };
  }
  redirected.set(resolve(appDir) + sep, aliases);
}

/** Scopes whose specifiers may be aliased: a quick test before the app folders are looked at. */
const SPECIFIERS = { '@strapi/strapi': true, '@strapi/utils': true };

async function jitiFor(aliases?: ModuleAliases): Promise<Jiti> {
  const { createJiti } = await import('jiti');
  if (!aliases) return (jiti ??= createJiti(import.meta.url, { moduleCache: false, fsCache: false }) as unknown as Jiti);
  const key = JSON.stringify(aliases);
  let found = aliasedJitis.get(key);
  if (!found) {
    found = createJiti(import.meta.url, { moduleCache: false, fsCache: false, alias: { ...aliases } }) as unknown as Jiti;
    aliasedJitis.set(key, found);
  }
  return found;
}

async function viaJiti(file: string, appDir?: string, aliases?: ModuleAliases): Promise<unknown> {
  const loader = await jitiFor(aliases);
  try {
    // Evaluated from its source, not through jiti.import: after Node's `require` took a CommonJS file for ESM (a
    // `"type": "module"` package), Node's module cache holds an empty namespace for it, which jiti.import returns.
    const source = await readFile(file, 'utf8');
    // Only __dirname and __filename change: imports still resolve from the file's real folder, where they are.
    const location = appDir ? compiledLocation(appDir, file) : undefined;
    const declaresOwn = /\b(?:var|let|const|function|class)\s+__(?:dirname|filename)\b/.test(source);
    // On the first line, so that line numbers in errors stay the file's own.
    const prelude = !location || declaresOwn ? '' : `var __dirname = ${JSON.stringify(location.dir)}, __filename = ${JSON.stringify(location.filename)}; `;
    return await loader.evalModule(prelude + source, { filename: file, ext: extname(file), async: true });
  } catch (error) {
    throw withLocation(error, file);
  }
}

/**
 * Where Strapi runs a TypeScript file from: it compiles the project to the `outDir` of its tsconfig.json (`dist` in
 * Strapi's template) and loads `dist/config/database.js`, so that file's `__dirname` is `<app>/dist/config`, and
 * its template writes `path.join(__dirname, '..', '..', '.tmp/data.db')` to reach `<app>/.tmp/data.db`.
 */
export function compiledLocation(appDir: string, file: string): { dir: string; filename: string } {
  const dir = join(resolve(appDir, tsOutDir(appDir)), relative(appDir, dirname(file)));
  return { dir, filename: join(dir, `${basename(file, extname(file))}.js`) };
}

/** `compilerOptions.outDir` of the app's tsconfig.json (comments and trailing commas allowed), else `dist`. */
function tsOutDir(appDir: string): string {
  let text: string;
  try {
    text = readFileSync(join(appDir, 'tsconfig.json'), 'utf8');
  } catch {
    return 'dist';
  }
  try {
    const outDir = (JSON.parse(stripJsonComments(text)) as { compilerOptions?: { outDir?: unknown } }).compilerOptions?.outDir;
    return typeof outDir === 'string' && outDir !== '' ? outDir : 'dist';
  } catch {
    return 'dist';
  }
}

/** tsconfig.json is JSON with comments and trailing commas: drop both, leaving strings alone. */
function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = /"(?:[^"\\]|\\.)*"/y;
      end.lastIndex = i;
      const match = end.exec(text);
      const literal = match ? match[0] : text.slice(i);
      out += literal;
      i += literal.length - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 1;
    } else if (c === '}' || c === ']') {
      out = out.replace(/,\s*$/, '') + c; // a trailing comma
    } else out += c;
  }
  return out;
}

/** `module.exports`, or an ES module's default export, or its named exports when it has no default. */
function exported(mod: unknown): unknown {
  if (mod && typeof mod === 'object' && 'default' in mod) return (mod as { default: unknown }).default;
  return mod;
}

/** The nearest package.json above `file` says `"type": "module"`. */
function inModulePackage(file: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: unknown }).type === 'module';
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') return false;
    }
    if (dirname(dir) === dir) return false;
  }
}

/** `module.exports` / `exports.x =` and no `import` or `export` statement. */
function looksCommonJs(source: string): boolean {
  return /\bmodule\.exports\b|\bexports\.\w+\s*=/.test(source) && !/^\s*(import|export)\b/m.test(source);
}

function isEmptyNamespace(mod: unknown): boolean {
  return (
    typeof mod === 'object' && mod !== null && Object.prototype.toString.call(mod) === '[object Module]' && Object.keys(mod).length === 0
  );
}

function isModuleKindMismatch(error: unknown): boolean {
  const message = (error as Error)?.message ?? '';
  return (
    /Cannot use import statement outside a module|Unexpected token 'export'|import\.meta|Cannot use 'import\.meta' outside a module/.test(message) ||
    // Node 20.19 says "module is not defined", later versions add "in ES module scope".
    /^(module|exports|require) is not defined( in ES module scope|$)/.test(message)
  );
}

/** Syntax errors carry `file:line` only in their stack: put the line into the message, which is what we print. */
function withLocation(error: unknown, file: string): unknown {
  if (!(error instanceof Error)) return error;
  const first = error.stack?.split('\n', 1)[0] ?? '';
  const line = first.startsWith(`${file}:`) ? /^:(\d+)/.exec(first.slice(file.length))?.[1] : undefined;
  if (line && !error.message.includes(`line ${line}`)) error.message = `${error.message} (line ${line})`;
  return error;
}

/**
 * One line for the CLI to print after the file's path: jiti's parse errors span lines and repeat the path
 * (`Unexpected token\n /app/config/server.ts:1:28`), which becomes `Unexpected token (line 1, column 28)`.
 */
export function describeLoadError(error: unknown, file: string): string {
  const missing = describeMissingPackage(error);
  if (missing) return missing;
  const message = error instanceof Error ? error.message : String(error);
  return message
    .split(`${file}:`)
    .join('\0')
    .replace(/\0(\d+):(\d+)/g, '(line $1, column $2)')
    .replace(/\0(\d+)/g, '(line $1)')
    .replace(/\0/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/**
 * What to do when app code requires a package nobody installed (at load, or later: a seed required by `bootstrap`),
 * or undefined for any other error.
 */
export function describeMissingPackage(error: unknown): string | undefined {
  const missing = missingPackage(error);
  return missing && `the package "${missing.name}" is not installed (required by ${missing.from}): install it in the app folder (npm install ${missing.name})`;
}

/** A package (not a file of the app: `./helper`) that app code requires and nobody installed, and who requires it. */
function missingPackage(error: unknown): { name: string; from: string } | undefined {
  if ((error as { code?: unknown })?.code !== 'MODULE_NOT_FOUND' || !(error instanceof Error)) return undefined;
  const specifier = /Cannot find module '([^']+)'/.exec(error.message)?.[1];
  if (!specifier || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  // `@scope/name/sub/path` or `name/sub/path`: the package is the first one or two segments.
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const requireStack = (error as { requireStack?: unknown }).requireStack;
  const from = Array.isArray(requireStack) && typeof requireStack[0] === 'string' ? requireStack[0] : 'the app';
  return { name, from };
}

/** A ConfigError naming the file (and keeping the line a stack gives for it): what stops start-up. */
export function inFile(file: string, error: unknown): ConfigError {
  if (error instanceof ConfigError && error.message.startsWith(file)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const line = lineIn(file, error);
  return new ConfigError(`${file}${line ? ` (line ${line})` : ''}: ${message}`);
}

/** The line of `file` an error's stack passes through (the app's line that called what failed). */
export function lineIn(file: string, error: unknown): string | undefined {
  return error instanceof Error ? new RegExp(`${escape(file)}:(\\d+)`).exec(error.stack ?? '')?.[1] : undefined;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
