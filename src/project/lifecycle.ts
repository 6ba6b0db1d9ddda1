import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, NotProvidedError } from '../errors/index.js';
import { describeLoadError, inFile, loadAppModule } from './config-module.js';

type Hook = (context: Record<string, unknown>) => unknown;

/** The app's own code, run around start-up (Strapi's `register`, `bootstrap` and `destroy`). */
export interface AppHooks {
  register?: Hook;
  bootstrap?: Hook;
  destroy?: Hook;
}

const HOOKS = ['register', 'bootstrap', 'destroy'] as const;
const EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs'];

/**
 * Reads the optional `src/index.(ts|js|mjs|cjs)`: `module.exports = { bootstrap() {} }`, `export default {...}`
 * or named `export function bootstrap()`. A file that can't load, or a hook that isn't a function, stops start-up
 * with a ConfigError naming the file (a silently skipped bootstrap would leave the app half set up).
 */
export async function loadAppHooks(dir: string): Promise<AppHooks> {
  const found = EXTENSIONS.map((ext) => join(dir, 'src', `index${ext}`)).filter((f) => existsSync(f));
  if (found.length > 1) throw new ConfigError(`${found.join(' and ')}: keep one app entry file`);
  if (!found.length) return {};
  const file = found[0];
  let exported: unknown;
  try {
    exported = await loadAppModule(file, dir);
  } catch (error) {
    throw new ConfigError(`${file}: ${describeLoadError(error, file)}`);
  }
  if (exported === undefined || exported === null) return {};
  if (typeof exported !== 'object') throw new ConfigError(`${file} must export an object of { register, bootstrap, destroy }`);
  const hooks: AppHooks = {};
  for (const name of HOOKS) {
    const hook = (exported as Record<string, unknown>)[name];
    if (hook === undefined) continue;
    if (typeof hook !== 'function') throw new ConfigError(`${file}: ${name} must be a function, not ${typeof hook}`);
    // An API Cairn does not provide stops the start naming this file and the line that used it. (A hook that
    // answers at once still does: the wrapper awaits nothing itself.)
    const named = (error: unknown): never => {
      throw error instanceof NotProvidedError ? inFile(file, error) : error;
    };
    hooks[name] = ((...args: unknown[]) => {
      try {
        const result = (hook as (...a: unknown[]) => unknown).apply(exported, args);
        return result instanceof Promise ? result.catch(named) : result;
      } catch (error) {
        return named(error);
      }
    }) as Hook;
  }
  return hooks;
}
