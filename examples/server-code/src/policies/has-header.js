'use strict';

// A global policy: global::has-header.
module.exports = (policyContext) => policyContext.request.header['x-allow'] === 'yes';
