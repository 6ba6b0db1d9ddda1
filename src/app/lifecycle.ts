import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadModule } from './load-module.js';

export interface AppHooks {
  register?(context: Record<string, unknown>): unknown;
  bootstrap?(context: Record<string, unknown>): unknown;
  destroy?(context: Record<string, unknown>): unknown;
}

/** The app's optional `src/index.(ts|js|mjs|cjs)` with `register`, `bootstrap` and `destroy`. */
export async function loadAppHooks(dir: string): Promise<AppHooks> {
  for (const ext of ['.ts', '.js', '.mjs', '.cjs']) {
    const file = join(dir, 'src', `index${ext}`);
    if (existsSync(file)) return ((await loadModule(file)) ?? {}) as AppHooks;
  }
  return {};
}
