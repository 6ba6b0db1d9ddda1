// What an app's `require('@strapi/utils')` loads under Cairn: see strapi.cts.
const utilsModules = Reflect.get(globalThis, Symbol.for('cairn.server-code.modules'));
if (!utilsModules) throw new Error('@strapi/utils is provided by Cairn to the app it runs, and only there');
module.exports = utilsModules['@strapi/utils'];
