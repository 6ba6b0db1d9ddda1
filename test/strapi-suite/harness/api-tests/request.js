'use strict';

/**
 * `api-tests/request` over Cairn: agents sending the tests' requests (supertest, qs-encoded query strings, JSON
 * bodies, multipart forms) to the running Cairn. Strapi's harness authenticates content-API requests with a
 * bypass and admin agents with an admin session; here both carry the full-access API token the suite created.
 * A request outside the Content API (`/api`), GraphQL (`/graphql`) and uploaded files (`/uploads`) is the admin API:
 * the test reports it as out of scope, as it does an OAuth provider's route (Cairn has the local provider only).
 */
const qs = require('qs');
const supertest = require('supertest');
const app = require('../app');
const { OutOfScope } = require('../out-of-scope');

const IN_SCOPE = /^\/(api|graphql|uploads)(\/|\?|$)/;
/** users-permissions' OAuth routes (`/api/connect/<provider>`, `/api/auth/<provider>/callback`): Cairn serves the local provider only. */
const OAUTH = /^\/api\/(connect\/|auth\/(?!local\/)[^/?]+\/callback(\/|\?|$))/;
/** The harness's placeholder token (auth is bypassed in Strapi's test app): the suite's full-access token. */
const BYPASS_TOKEN = 'test-token';

function attachFormValue(request, field, value) {
  if (Array.isArray(value)) return value.forEach((item) => attachFormValue(request, field, item));
  if (value && typeof value === 'object' && 'filename' in value) {
    const options = { filename: value.filename, ...(value.contentType ? { contentType: value.contentType } : {}) };
    return request.attach(field, 'path' in value ? value.path : value.value, options);
  }
  if (value && typeof value === 'object' && typeof value.pipe === 'function') return request.attach(field, value);
  return request.field(field, value);
}

const isJwt = (token) => token.split('.').length === 3;

function bearerOf(headers) {
  const header = headers?.Authorization ?? headers?.authorization;
  if (typeof header !== 'string') return undefined;
  const parts = header.trim().split(/\s+/);
  return parts[parts.length - 1];
}

function createAgent(strapi, initial = {}) {
  const state = { ...initial };

  const agent = ({ method, url, body, formData, qs: query, headers }) => {
    const fullUrl = `${state.urlPrefix ?? ''}${url}`;
    if (!IN_SCOPE.test(fullUrl)) throw new OutOfScope(`${method} ${fullUrl} is the admin API`);
    if (OAUTH.test(fullUrl)) throw new OutOfScope(`${method} ${fullUrl} is an OAuth provider's route: Cairn's users-permissions has the local provider only`);
    if (!app.state.cairn) throw new Error('Cairn is not running');
    // Strapi's harness lets supertest listen inside the test's `strapi.db.transaction` (testInTransaction), so its
    // in-process server handles the request in that transaction's context and reads its uncommitted writes. A
    // server's request never runs inside a test's transaction: it cannot see those writes (and on SQLite it waits
    // for the transaction, which waits for the answer).
    if (app.state.cairn.documentHooks.transaction) {
      throw new OutOfScope(`${method} ${fullUrl} is sent inside the test's own open transaction, which only Strapi's in-process server joins`);
    }
    const request = supertest(app.state.cairn.fastify.server)[method.toLowerCase()](fullUrl);
    const given = headers ?? state.headers;
    let token = state.token === BYPASS_TOKEN ? app.state.token : state.token;
    if (bearerOf(given)) token = bearerOf(given);
    // With `bypassAuth` (createStrapiInstance's default), Strapi's harness registers an authentication strategy that
    // lets any request in before users-permissions' own: a request without a token, or with a user's JWT, has full
    // access (an API token a test created is still that token's).
    if (app.state.bypassAuth && (!token || isJwt(token))) token = app.state.token;
    if (token) request.auth(token, { type: 'bearer' });
    if (given) {
      const { Authorization: _a, authorization: _b, ...rest } = given;
      if (Object.keys(rest).length > 0) request.set(rest);
    }
    if (query) request.query(qs.stringify(query));
    if (body) request.send(body);
    if (formData) for (const [field, value] of Object.entries(formData)) attachFormValue(request, field, value);
    else request.type('application/json');
    // The last exchange of a test goes into the report of a failed one (its error alone says "expected 400 ...").
    const sent = `${method} ${fullUrl}${query ? `?${decodeURIComponent(qs.stringify(query))}` : ''}`.slice(0, 300);
    request.on('response', (response) => {
      app.state.lastExchange = `${sent} → ${response.status} ${JSON.stringify(response.body ?? response.text ?? '').slice(0, 300)}`;
    });
    return request;
  };

  const shorthand = (method) => (url, options = {}) => agent({ ...options, url, method });

  return Object.assign(agent, {
    assignState(next) {
      Object.assign(state, next);
      return agent;
    },
    setURLPrefix(prefix) {
      return agent.assignState({ urlPrefix: prefix });
    },
    setToken(token) {
      return agent.assignState({ token });
    },
    setLoggedUser(user) {
      return agent.assignState({ loggedUser: user });
    },
    setHeaders(headers) {
      return agent.assignState({ headers });
    },
    asHTTPS() {
      return agent.setHeaders({ ...(state.headers ?? {}), 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' });
    },
    getLoggedUser() {
      return state.loggedUser;
    },
    async login() {
      throw new OutOfScope('logging in as an admin user is the admin API');
    },
    async registerOrLogin() {
      throw new OutOfScope('registering an admin user is the admin API');
    },
    get: shorthand('GET'),
    post: shorthand('POST'),
    put: shorthand('PUT'),
    delete: shorthand('DELETE'),
  });
}

const createRequest = ({ strapi } = {}) => createAgent(strapi);

const createContentAPIRequest = ({ strapi, auth = {} } = {}) =>
  createAgent(strapi, { urlPrefix: '/api', token: auth.token ?? BYPASS_TOKEN });

/**
 * Strapi's admin agent (used by the GraphQL tests): here an agent with the full-access API token, since GraphQL
 * is the Content API; the admin routes it might call are out of scope.
 */
const createAuthRequest = ({ strapi } = {}) => createAgent(strapi, { token: BYPASS_TOKEN });

/** Strapi 5's REST resources are the entries as they are (v4 wrapped them in `{ id, attributes }`). */
const transformToRESTResource = (input) => (Array.isArray(input) ? input.map(transformToRESTResource) : input);

/** Strapi's harness exports its agent too (`api-tests/agent`, re-exported by `api-tests/request`): no token, no prefix. */
module.exports = { createAgent, createRequest, createContentAPIRequest, createAuthRequest, transformToRESTResource };
