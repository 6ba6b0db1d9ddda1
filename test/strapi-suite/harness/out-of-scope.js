'use strict';

/**
 * Thrown when a test reaches what Cairn deliberately does not have (the admin API, Strapi's in-process objects).
 * The reporter counts a test that fails with it as out of scope, with this message as the reason, never as passed.
 */
class OutOfScope extends Error {
  constructor(reason) {
    super(`Out of scope: ${reason}`);
    this.name = 'OutOfScope';
  }
}

/**
 * An object any property read of which is out of scope (e.g. `strapi.db`), named in the reason (`what` says what
 * it is: by default, an in-process Strapi object).
 */
function outOfScopeObject(path, what = 'is an in-process Strapi object') {
  return new Proxy(function () {}, {
    get(_target, key) {
      if (typeof key === 'symbol' || key === 'then' || key === '__esModule') return undefined;
      throw new OutOfScope(`${path}.${key} ${what}`);
    },
    apply() {
      throw new OutOfScope(`${path}() ${what}`);
    },
  });
}

module.exports = { OutOfScope, outOfScopeObject };
