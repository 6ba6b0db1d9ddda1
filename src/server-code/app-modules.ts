import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ModuleAliases } from '../project/config-module.js';
import { factories } from './factories.js';
import * as z from 'zod/v4';
import { errors } from './strapi-errors.js';

const REGISTRY = Symbol.for('cairn.server-code.modules');

/** Members of module namespaces every loader reads (interop): never "unsupported". */
const INTEROP = new Set(['__esModule', 'default', 'then', 'toJSON', 'constructor', 'inspect', 'nodeType', '$$typeof', 'asymmetricMatch']);

/**
 * A module of Cairn's own standing for a Strapi package: its members, and a loud error naming the package and the
 * member for anything else (`require('@strapi/utils').yup` stops the app's load at that line, never an undefined).
 */
function strapiModule(name: string, members: Record<string, unknown>): object {
  const target = { ...members };
  const proxy: object = new Proxy(target, {
    get(object, key) {
      if (typeof key === 'symbol') return Reflect.get(object, key);
      if (key in object) return object[key];
      if (key === 'default') return proxy;
      // Loaders' own probes (`__esModule`, jiti's `__JITI_ERROR__`) read what isn't there.
      if (INTEROP.has(key) || key.startsWith('__')) return undefined;
      throw new Error(`${name}: '${key}' is not provided by Cairn (it provides ${Object.keys(members).join(', ')}: see README's list of Strapi APIs Cairn runs)`);
    },
  });
  return proxy;
}

const strapiPackage = strapiModule('@strapi/strapi', { factories });
// `z`: Strapi's Zod 4 (@strapi/utils re-exports it), for the routes' `request` schemas (route-params.ts).
const utilsPackage = strapiModule('@strapi/utils', { errors, z });

/**
 * Makes `@strapi/strapi` and `@strapi/utils` resolve, in app code Cairn loads, to Cairn's own modules (factories,
 * errors) and returns the aliases its loader passes to jiti. The app does not install Strapi.
 */
export function strapiModuleAliases(): ModuleAliases {
  (globalThis as unknown as Record<symbol, unknown>)[REGISTRY] = { '@strapi/strapi': strapiPackage, '@strapi/utils': utilsPackage };
  const aliases = { '@strapi/strapi': shim('strapi'), '@strapi/utils': shim('strapi-utils') };
  // A shim required before hands out what was registered then (another copy of Cairn's modules, in tests): the
  // next require reads the registry again.
  for (const file of Object.values(aliases)) delete nodeRequire.cache[file];
  return aliases;
}

const nodeRequire = createRequire(import.meta.url);

/** The shim's file: compiled (`dist/…/shims/x.cjs`) or, running from sources (tests), the `.cts` itself. */
function shim(name: string): string {
  const compiled = fileURLToPath(new URL(`./shims/${name}.cjs`, import.meta.url));
  return existsSync(compiled) ? compiled : fileURLToPath(new URL(`./shims/${name}.cts`, import.meta.url));
}
