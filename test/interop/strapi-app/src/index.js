'use strict';

// The bootstrap of the reference app (a `fr` locale, the Public and Authenticated roles' permissions, a full-access
// API token), so that Strapi itself makes every row Cairn must then read. The harness copies the conformance model
// (test/fixtures/conformance/app/src/{api,components}) beside this file at run time; the model is not duplicated.
// INTEROP_TOKEN_FILE: where the token's key is written (default .tmp/token.txt in the app folder).

const fs = require('fs');
const path = require('path');

const TOKEN_NAME = 'interop-full-access';
const PUBLIC_ACTIONS = ['find', 'findOne'];
const AUTH_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];

async function grant(strapi, roleType, actions) {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: roleType } });
  if (!role) throw new Error(`role ${roleType} not found`);
  const wanted = [];
  for (const uid of Object.keys(strapi.contentTypes)) {
    if (!uid.startsWith('api::')) continue;
    for (const a of actions) wanted.push(`${uid}.${a}`);
  }
  // the upload plugin's content API (file listing): read-only for Public, full for Authenticated
  for (const a of ['find', 'findOne']) wanted.push(`plugin::upload.content-api.${a}`);
  if (roleType === 'authenticated') {
    wanted.push('plugin::upload.content-api.upload', 'plugin::upload.content-api.destroy');
  }
  const existing = await strapi.db.query('plugin::users-permissions.permission').findMany({
    where: { role: role.id },
  });
  const have = new Set(existing.map((p) => p.action));
  for (const action of wanted) {
    if (have.has(action)) continue;
    await strapi.db.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
  }
}

async function ensureLocale(strapi, code, name) {
  const locales = strapi.plugin('i18n').service('locales');
  const existing = await locales.findByCode(code);
  if (!existing) await locales.create({ code, name });
}

async function ensureToken(strapi) {
  const tokenFile = process.env.INTEROP_TOKEN_FILE || path.join(strapi.dirs.app.root, '.tmp', 'token.txt');
  // 5.5x: 'admin::api-token-content-api' (the old 'admin::api-token' name is a deprecated alias)
  const svc = strapi.service('admin::api-token-content-api') || strapi.service('admin::api-token');
  const exists = await svc.exists({ name: TOKEN_NAME });
  if (exists && fs.existsSync(tokenFile)) return;
  if (exists) {
    const t = await strapi.db.query('admin::api-token').findOne({ where: { name: TOKEN_NAME } });
    await svc.revoke(t.id);
  }
  const created = await svc.create({
    name: TOKEN_NAME,
    description: 'Full-access token for the interop harness (seed and record)',
    type: 'full-access',
    lifespan: null,
  });
  fs.mkdirSync(path.dirname(tokenFile), { recursive: true });
  fs.writeFileSync(tokenFile, created.accessKey);
  strapi.log.info(`[interop] API token written to ${tokenFile}`);
}

module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    await ensureLocale(strapi, 'fr', 'French (fr)');
    await grant(strapi, 'public', PUBLIC_ACTIONS);
    await grant(strapi, 'authenticated', AUTH_ACTIONS);
    await ensureToken(strapi);
  },
};
