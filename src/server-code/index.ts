export { registerServerCode, type ServerCode } from './register.js';
export type { ServerCodeHost } from './host.js';
export { strapiModuleAliases } from './app-modules.js';
export { loadPluginExtensions, type PluginExtensions, type UsersPermissionsExtension } from './plugin-extensions.js';
export { loadApplicationMiddlewares, type ApplicationMiddlewares } from './app-middlewares.js';
export { ContentApiParams } from './route-params.js';
