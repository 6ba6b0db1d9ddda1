'use strict';
// Run by scripts/launchpad.mjs with node, in the temp copy of LaunchPad's strapi/ folder (cwd), before Strapi serves:
// loads LaunchPad's Strapi (its own code, compiled by Strapi as `strapi start` would need) without serving, and through
// Strapi's own services (no SQL) grants the Public role `find` and `findOne` on every api:: content type (the Next.js
// front end sends no token) and issues a full-access API token (written to LAUNCHPAD_TOKEN_FILE); LaunchPad's src/ is
// not touched. With LAUNCHPAD_GENERATE_SEED=1 it first writes made-up content through the Document Service (for a
// checkout whose export_*.tar.gz is missing): every api:: type, both locales, every attribute, component, dynamic zone
// component, media field and relation filled. Prints one JSON line: { counts: { uid: entries per locale } }.
const fs = require('fs');
const path = require('path');

const appDir = process.cwd();
const { compileStrapi, createStrapi } = require(require.resolve('@strapi/strapi', { paths: [appDir] }));

const TOKEN_NAME = 'cairn-launchpad-full-access';
const LOCALES = ['en', 'fr'];
const ENTRIES = 3; // per collection type

async function main() {
  const app = await createStrapi(await compileStrapi()).load();
  app.log.level = 'error';
  try {
    if (process.env.LAUNCHPAD_GENERATE_SEED === '1') await generateSeed(app);
    await grantPublic(app);
    await issueToken(app);
    const counts = {};
    for (const uid of apiTypes(app)) {
      counts[uid] = {};
      for (const locale of LOCALES) counts[uid][locale] = await app.documents(uid).count({ locale, status: 'published' });
    }
    process.stdout.write(`${JSON.stringify({ counts })}\n`);
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

// ---------------------------------------------------------------------------------------------------------------
// The made-up seed: deterministic values from the type, the field, the entry's number and the locale.

async function generateSeed(app) {
  // the front end's second locale (next/i18n.config.ts), as LaunchPad's export has it
  const locales = app.plugin('i18n').service('locales');
  if (!(await locales.findByCode('fr'))) await locales.create({ code: 'fr', name: 'French (fr)' });
  const uploadsDir = path.join(appDir, 'public', 'uploads');
  fs.mkdirSync(uploadsDir, { recursive: true });
  // A 1x1 PNG, as media rows of the upload plugin (its own query API; no image processing needed).
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const files = [];
  for (let i = 1; i <= 3; i++) {
    const hash = `launchpad_image_${i}`;
    fs.writeFileSync(path.join(uploadsDir, `${hash}.png`), png);
    files.push(await app.db.query('plugin::upload.file').create({
      data: { name: `image-${i}.png`, alternativeText: `Image ${i}`, caption: null, width: 1, height: 1, formats: null, hash, ext: '.png', mime: 'image/png', size: 0.07, url: `/uploads/${hash}.png`, provider: 'local', folderPath: '/' },
    }));
  }
  const types = apiTypes(app);
  const docs = {}; // uid -> documentIds
  // pass 1: every entry in every locale, relations left out (their targets may not exist yet)
  for (const uid of types) {
    const ct = app.contentTypes[uid];
    const localized = ct.pluginOptions?.i18n?.localized === true;
    const n = ct.kind === 'singleType' ? 1 : ENTRIES;
    docs[uid] = [];
    for (let i = 0; i < n; i++) {
      const ctx = { app, files, docs, relations: false };
      const created = await app.documents(uid).create({ data: fill(ctx, ct, uid, i, 'en'), locale: 'en', status: ct.options?.draftAndPublish === false ? undefined : 'published' });
      docs[uid].push(created.documentId);
      if (localized) await app.documents(uid).update({ documentId: created.documentId, locale: 'fr', data: fill(ctx, ct, uid, i, 'fr'), status: ct.options?.draftAndPublish === false ? undefined : 'published' });
    }
  }
  // pass 2: the same data again with the relations (in components too), on every locale
  for (const uid of types) {
    const ct = app.contentTypes[uid];
    const localized = ct.pluginOptions?.i18n?.localized === true;
    for (const [i, documentId] of docs[uid].entries()) {
      for (const locale of localized ? LOCALES : ['en']) {
        const ctx = { app, files, docs, relations: true };
        await app.documents(uid).update({ documentId, locale, data: fill(ctx, ct, uid, i, locale), status: ct.options?.draftAndPublish === false ? undefined : 'published' });
      }
    }
  }
}

/** The data of entry `i` of a content type or component `schema` in `locale`. */
function fill(ctx, schema, name, i, locale, depth = 0) {
  const data = {};
  const short = name.split(/[.:]/).pop();
  for (const [field, attr] of Object.entries(schema.attributes)) {
    if (['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations'].includes(field)) continue;
    const value = valueOf(ctx, attr, field, short, i, locale, depth);
    if (value !== undefined) data[field] = value;
  }
  return data;
}

function valueOf(ctx, attr, field, short, i, locale, depth) {
  const suffix = locale === 'en' ? '' : ` (${locale})`;
  const text = (max, min = 0) => {
    let value = `${short} ${field} ${i + 1}${suffix}`;
    while (value.length < min) value += ' and some more words';
    return value.slice(0, max ?? 255);
  };
  switch (attr.type) {
    case 'string':
    case 'text':
      return text(attr.maxLength, attr.minLength);
    case 'richtext':
      return `## ${text()}\n\nSome **rich** text.`;
    case 'email':
      return `${short}${i + 1}@example.com`;
    case 'uid': {
      const base = short === 'page' && i === 0 ? 'homepage' : `${short}-${i + 1}`;
      return locale === 'en' || base === 'homepage' ? base : `${base}-${locale}`;
    }
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: text() }] }];
    case 'enumeration':
      return attr.enum[i % attr.enum.length];
    case 'boolean':
      return i % 2 === 0;
    case 'integer':
    case 'biginteger':
      return Math.min(attr.max ?? Infinity, Math.max(attr.min ?? 0, (i + 1) * 10));
    case 'decimal':
    case 'float':
      return (i + 1) * 1.5;
    case 'date':
      return `2025-01-0${(i % 9) + 1}`;
    case 'datetime':
      return `2025-01-0${(i % 9) + 1}T10:00:00.000Z`;
    case 'time':
      return '10:00:00.000';
    case 'json':
      return { entry: i + 1, locale };
    case 'password':
      return undefined;
    case 'media': {
      const ids = ctx.files.map((f) => f.id);
      return attr.multiple ? [ids[i % ids.length], ids[(i + 1) % ids.length]] : ids[i % ids.length];
    }
    case 'relation': {
      if (!ctx.relations || !attr.target?.startsWith('api::') || !ctx.docs[attr.target]?.length) return undefined;
      const targets = ctx.docs[attr.target];
      const many = /ToMany$/.test(attr.relation) || attr.relation === 'manyWay';
      return many ? [...new Set([targets[i % targets.length], targets[(i + 1) % targets.length]])] : targets[i % targets.length];
    }
    case 'component': {
      if (depth > 4) return undefined;
      const component = ctx.app.components[attr.component];
      const one = (k) => fill(ctx, component, attr.component, i + k, locale, depth + 1);
      return attr.repeatable ? [one(0), one(1)].slice(0, Math.max(2, attr.min ?? 0)) : one(0);
    }
    case 'dynamiczone':
      if (depth > 4) return undefined;
      return attr.components.map((uid) => ({ __component: uid, ...fill(ctx, ctx.app.components[uid], uid, i, locale, depth + 1) }));
    default:
      if (attr.customField) return undefined;
      throw new Error(`strapi-setup.cjs: no made-up value for the attribute type ${attr.type} (${short}.${field})`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error && error.stack ? error.stack : error);
    process.exit(1);
  },
);
