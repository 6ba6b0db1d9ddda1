import { access, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ModelError } from '../errors/index.js';
import type { ModelInput } from './build-model.js';
import { checkExtensionPlugin } from './extensions.js';

async function listDirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function readJson(file: string, appDir: string): Promise<object> {
  const shown = relative(appDir, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ModelError(shown, undefined, `cannot read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as object;
  } catch (error) {
    throw new ModelError(shown, undefined, `invalid JSON: ${(error as Error).message}`);
  }
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Reads Strapi's layout: `src/api/<api>/content-types/<name>/schema.json`, `src/components/<category>/<name>.json`
 * and the plugin content types' extensions, `src/extensions/<plugin>/content-types/<name>/schema.json` (a folder of
 * `src/extensions` must name a plugin Strapi has). Strapi's routes/, controllers/ and services/ folders are not read.
 */
export async function readModelFiles(appDir: string): Promise<ModelInput> {
  const input: ModelInput = { contentTypes: [], components: [], extensions: [] };
  const apiDir = join(appDir, 'src', 'api');
  for (const api of await listDirs(apiDir)) {
    const typesDir = join(apiDir, api, 'content-types');
    for (const name of await listDirs(typesDir)) {
      const file = join(typesDir, name, 'schema.json');
      const schema = (await readJson(file, appDir)) as { info?: { singularName?: string } };
      const singular = schema.info?.singularName ?? name;
      input.contentTypes.push({ uid: `api::${api}.${singular}`, api, schema, file: relative(appDir, file) });
    }
  }
  const componentsDir = join(appDir, 'src', 'components');
  for (const category of await listDirs(componentsDir)) {
    const entries = await readdir(join(componentsDir, category));
    for (const entry of entries.filter((e) => e.endsWith('.json')).sort()) {
      const file = join(componentsDir, category, entry);
      input.components!.push({ uid: `${category}.${entry.slice(0, -5)}`, schema: await readJson(file, appDir), file: relative(appDir, file) });
    }
  }
  const extensionsDir = join(appDir, 'src', 'extensions');
  for (const plugin of await listDirs(extensionsDir)) {
    checkExtensionPlugin(plugin, relative(appDir, join(extensionsDir, plugin)));
    const typesDir = join(extensionsDir, plugin, 'content-types');
    for (const name of await listDirs(typesDir)) {
      // Strapi reads schema.json only there (a folder without one extends nothing, as in Strapi).
      const file = join(typesDir, name, 'schema.json');
      if (!(await exists(file))) continue;
      input.extensions!.push({ plugin, name, schema: await readJson(file, appDir), file: relative(appDir, file) });
    }
  }
  return input;
}
