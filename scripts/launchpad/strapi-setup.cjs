'use strict';
// Run by scripts/launchpad.mjs with node, in the temp copy of LaunchPad's strapi/ folder (cwd), before Strapi serves:
// loads LaunchPad's Strapi (its own code, compiled by Strapi as `strapi start` would need) without serving, and through
// Strapi's own services (no SQL) grants the Public role `find` and `findOne` on every api:: content type (the Next.js
// front end sends no token) and issues a full-access API token (written to LAUNCHPAD_TOKEN_FILE); LaunchPad's src/ is
// not touched. With LAUNCHPAD_SYNTHETIC_SEED=1 it first fills the empty database with the synthetic seed
// (synthetic-seed.cjs: made-up content derived from the schemas, in the locales of LAUNCHPAD_LOCALES), instead of
// LaunchPad's export. Prints one JSON line: { counts: { uid: { locale: published, `${locale} draft`: drafts } }, seed }.
const fs = require('fs');
const { generateSyntheticSeed } = require('./synthetic-seed.cjs');

const appDir = process.cwd();
const { compileStrapi, createStrapi } = require(require.resolve('@strapi/strapi', { paths: [appDir] }));

const TOKEN_NAME = 'cairn-launchpad-full-access';
const LOCALES = (process.env.LAUNCHPAD_LOCALES || 'en,fr').split(',');

async function main() {
  const app = await createStrapi(await compileStrapi()).load();
  app.log.level = 'error';
  try {
    const seed = process.env.LAUNCHPAD_SYNTHETIC_SEED === '1' ? await generateSyntheticSeed(app, { appDir, locales: LOCALES }) : undefined;
    await grantPublic(app);
    await issueToken(app);
    const counts = {};
    for (const uid of apiTypes(app)) {
      counts[uid] = {};
      for (const locale of LOCALES) {
        counts[uid][locale] = await app.documents(uid).count({ locale, status: 'published' });
        counts[uid][`${locale} draft`] = await app.documents(uid).count({ locale, status: 'draft' });
      }
    }
    process.stdout.write(`${JSON.stringify({ counts, seed })}\n`);
  } finally {
    await app.destroy();
  }
}

const apiTypes = (app) => Object.keys(app.contentTypes).filter((uid) => uid.startsWith('api::')).sort();

async function grantPublic(app) {
  const role = await app.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  if (!role) throw new Error('the users-permissions Public role is missing');
  const have = new Set((await app.db.query('plugin::users-permissions.permission').findMany({ where: { role: role.id } })).map((p) => p.action));
  for (const uid of apiTypes(app)) {
    for (const action of ['find', 'findOne']) {
      if (!have.has(`${uid}.${action}`)) await app.db.query('plugin::users-permissions.permission').create({ data: { action: `${uid}.${action}`, role: role.id } });
    }
  }
}

async function issueToken(app) {
  const svc = app.service('admin::api-token-content-api') || app.service('admin::api-token');
  if (await svc.exists({ name: TOKEN_NAME })) {
    const old = await app.db.query('admin::api-token').findOne({ where: { name: TOKEN_NAME } });
    await svc.revoke(old.id);
  }
  const created = await svc.create({ name: TOKEN_NAME, description: 'scripts/launchpad.mjs', type: 'full-access', lifespan: null });
  fs.writeFileSync(process.env.LAUNCHPAD_TOKEN_FILE, created.accessKey);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error && error.stack ? error.stack : error);
    process.exit(1);
  },
);
