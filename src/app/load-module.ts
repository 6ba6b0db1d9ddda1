import { createJiti } from 'jiti';

let jiti: ReturnType<typeof createJiti> | undefined;

/**
 * Loads a config or app file written in TypeScript, ESM or CommonJS (Strapi apps use all three). jiti is
 * created lazily: apps with plain .js/.json files never pay for it (it costs some milliseconds at cold start).
 */
export async function loadModule(file: string): Promise<unknown> {
  if (file.endsWith('.json')) {
    const { readFile } = await import('node:fs/promises');
    return JSON.parse(await readFile(file, 'utf8'));
  }
  jiti ??= createJiti(import.meta.url, { moduleCache: false, fsCache: false });
  const mod = (await jiti.import(file)) as { default?: unknown };
  return mod && typeof mod === 'object' && 'default' in mod ? mod.default : mod;
}
