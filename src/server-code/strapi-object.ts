import type { ServerCodeHost } from './host.js';
import { NotProvidedError } from '../errors/index.js';

/** The app's controllers and services, by uid, as the loader built them. */
export interface ServerCodeRegistry {
  controllers: Map<string, Record<string, unknown>>;
  services: Map<string, Record<string, unknown>>;
  policies: Map<string, unknown>;
  middlewares: Map<string, unknown>;
}

/** Members of Strapi's object an app's code may read without them being APIs (inspection, promises, interop). */
/** Members that code probes without meaning Strapi's API (await, JSON, inspection, test matchers): undefined, not an error. */
export const QUIET = new Set(['then', 'toJSON', 'constructor', 'inspect', 'asymmetricMatch', '$$typeof', 'nodeType']);

/** Plugins' services app code may get by uid: those Cairn serves with Strapi's API (the others are Cairn's own objects). */
const STRAPI_PLUGIN_SERVICES = new Set(['plugin::users-permissions.role', 'plugin::email.email']);

/** The error for a member of `strapi` that Cairn does not provide. */
export function notProvided(key: string): NotProvidedError {
  return new NotProvidedError(`strapi.${key} is not provided by Cairn (see README's list of the Strapi APIs Cairn runs)`);
}

/**
 * The `strapi` an app's server code receives (`({ strapi }) => ({ ... })`, policies' and middlewares' third
 * argument, and the global `strapi` Strapi's code relies on): a face over the app's composition root. What Cairn
 * provides: `documents(uid)` (and `documents.use`), `db.lifecycles`, `db.query(uid)`, `db.transaction`, `db.metadata`, `eventHub`, `service(uid)`, `controller(uid)`, `policy(name)`, `middleware(name)`,
 * `plugin(name).service(name)` and `.config(path)`, `config` (`get`, `set`, `has`), `log`, `contentTypes`, `contentType(uid)`,
 * `components`. Any other member is an error naming it (never `undefined`, which would fail later, elsewhere).
 */
export function createStrapiObject(host: ServerCodeHost, registry: ServerCodeRegistry): Record<string, unknown> {
  const contentTypes = Object.fromEntries([...host.model.contentTypes].map(([uid, ct]) => [uid, schemaOf(ct)]));
  const components = Object.fromEntries([...host.model.components].map(([uid, c]) => [uid, schemaOf(c)]));
  const known = (kind: string, map: Map<string, unknown>, uid: string) => {
    const found = map.get(uid);
    if (found === undefined && uid.startsWith('plugin::')) {
      // A plugin's services Cairn provides with Strapi's API; other plugin services and controllers are Strapi's code.
      if (kind === 'service' && STRAPI_PLUGIN_SERVICES.has(uid)) {
        const [plugin, service] = uid.slice('plugin::'.length).split('.');
        return host.plugin(plugin).service(service);
      }
      throw notProvided(`${kind}('${uid}')`);
    }
    if (found === undefined) throw new Error(`strapi.${kind}('${uid}'): no such ${kind} (the app has ${[...map.keys()].join(', ') || 'none'})`);
    return found;
  };
  const members: Record<string, unknown> = {
    // Strapi's Document Service (its defaults, `strapi.documents.use` middlewares, lifecycles), as the app's face has it.
    documents: host.strapi.documents,
    db: host.strapi.db,
    store: host.strapi.store,
    contentAPI: host.contentAPI,
    // Strapi's event hub: entry.create, entry.update... after each Document Service write commits.
    eventHub: host.eventHub,
    service: (uid: string) => known('service', registry.services as Map<string, unknown>, uid),
    controller: (uid: string) => known('controller', registry.controllers as Map<string, unknown>, uid),
    policy: (name: string) => registry.policies.get(name),
    middleware: (name: string) => registry.middlewares.get(name),
    plugin: (name: string) => ({
      service: (service: string) => host.plugin(name).service(service),
      config: (path?: string | string[], fallback?: unknown) => host.plugin(name).config(path, fallback),
    }),
    // Strapi's config provider (`get`, `set`, `has`; the config's sections as members: `config.dir`...), the face's.
    config: host.strapi.config,
    log: host.log,
    contentTypes,
    components,
    contentType: (uid: string) => contentTypes[uid],
    component: (uid: string) => components[uid],
    dirs: { app: { root: host.config.dir, src: `${host.config.dir}/src` }, dist: { root: host.config.dir, src: `${host.config.dir}/src` } },
  };
  return new Proxy(members, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target) return Reflect.get(target, key);
      if (QUIET.has(key)) return undefined;
      throw notProvided(key);
    },
  });
}

/** A model schema in Strapi's shape (`uid`, `kind`, `info`, `attributes` as a record), for code that reads them. */
function schemaOf(schema: { uid: string; attributes: ReadonlyMap<string, unknown> }): Record<string, unknown> {
  return { ...schema, attributes: Object.fromEntries(schema.attributes) };
}
