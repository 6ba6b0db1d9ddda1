'use strict';

/** `api-tests/agent` over Cairn: Strapi's harness module of the agent `api-tests/request` builds on (request.js). */
const { createAgent } = require('./request');

module.exports = { createAgent };
