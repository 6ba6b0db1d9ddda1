'use strict';

/**
 * `api-tests/strapi` over Cairn: `createStrapiInstance()` starts Cairn on the declared models (if the builder has
 * not) and returns a stand-in for the Strapi instance: `destroy()` and `server.httpServer` are Cairn's; any other
 * member is an in-process Strapi object, out of scope for a separate server (the test says so when it reads one).
 */
const app = require('../app');
const { OutOfScope, outOfScopeObject } = require('../out-of-scope');

const superAdminCredentials = { email: 'admin@strapi.io', firstname: 'admin', lastname: 'admin', password: 'Password123' };

/** Keys libraries probe on any object (promises, matchers, printers): absent, not out of scope. */
const PROBED = new Set(['then', 'toJSON', 'asymmetricMatch', 'nodeType', '$$typeof', 'constructor', 'inspect', 'length']);

async function createStrapiInstance(options = {}) {
  if (options.bootstrap) throw new OutOfScope('createStrapiInstance({ bootstrap }) runs code inside Strapi');
  // Strapi's test app lets every content API request in (`bypassAuth`, the default): see request.js.
  app.state.bypassAuth = options.bypassAuth !== false;
  await app.ensureStarted();
  const members = {
    async destroy() {
      await app.stop();
    },
    server: {
      get httpServer() {
        if (!app.state.cairn) throw new Error('Cairn is not running (strapi.destroy() was called)');
        return app.state.cairn.fastify.server;
      },
    },
  };
  return new Proxy(members, {
    get(target, key) {
      if (typeof key === 'symbol' || PROBED.has(key)) return target[key];
      if (key in target) return target[key];
      return outOfScopeObject(`strapi.${key}`);
    },
  });
}

module.exports = {
  createStrapiInstance,
  superAdmin: {
    loginInfo: { email: superAdminCredentials.email, password: superAdminCredentials.password },
    credentials: superAdminCredentials,
  },
};
