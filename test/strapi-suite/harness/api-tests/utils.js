'use strict';

/** `api-tests/utils`: admin users and roles are the admin API, out of scope for Cairn. */
const { OutOfScope } = require('../out-of-scope');

function createUtils() {
  const adminOnly = (name) => async () => {
    throw new OutOfScope(`utils.${name} manages admin users and roles (the admin API)`);
  };
  const names = ['login', 'registerOrLogin', 'findUser', 'createUser', 'createUserIfNotExists', 'userExists',
    'deleteUserById', 'deleteUsersById', 'getRole', 'getSuperAdminRole', 'createRole', 'deleteRolesById',
    'assignPermissionsToRole'];
  return Object.fromEntries(names.map((name) => [name, adminOnly(name)]));
}

const describeOnCondition = (condition) => (condition ? describe : describe.skip);

module.exports = { createUtils, describeOnCondition };
