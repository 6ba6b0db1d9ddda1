// What an app's `require('@strapi/strapi')` / `import { factories } from '@strapi/strapi'` loads under Cairn
// (server-code/app-modules.ts aliases the specifier here). It imports nothing: it hands out the module the running
// Cairn registered, so the errors an app throws are the very classes Cairn's error handler knows.
const modules = (globalThis as unknown as Record<symbol, Record<string, object> | undefined>)[Symbol.for('cairn.server-code.modules')];
if (!modules) throw new Error('@strapi/strapi is provided by Cairn to the app it runs, and only there');
module.exports = modules['@strapi/strapi'];
