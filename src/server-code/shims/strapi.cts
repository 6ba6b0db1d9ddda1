// What an app's `require('@strapi/strapi')` / `import { factories } from '@strapi/strapi'` loads under Cairn
// (server-code/app-modules.ts aliases the specifier here). It imports nothing: it hands out the module the running
// Cairn registered, so the errors an app throws are the very classes Cairn's error handler knows. Plain JavaScript
// (no type syntax): running from sources, Node's require loads this file as it is.
const strapiModules = Reflect.get(globalThis, Symbol.for('cairn.server-code.modules'));
if (!strapiModules) throw new Error('@strapi/strapi is provided by Cairn to the app it runs, and only there');
module.exports = strapiModules['@strapi/strapi'];
