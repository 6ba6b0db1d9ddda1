// What an app's `require('@strapi/utils')` loads under Cairn: see strapi.cts.
const modules = (globalThis as unknown as Record<symbol, Record<string, object> | undefined>)[Symbol.for('cairn.server-code.modules')];
if (!modules) throw new Error('@strapi/utils is provided by Cairn to the app it runs, and only there');
module.exports = modules['@strapi/utils'];
