'use strict';
// The synthetic seed of the LaunchPad comparison (scripts/launchpad.mjs --synthetic-seed, or a checkout whose
// strapi/data/export_*.tar.gz is missing or unreadable): made-up content, NOT LaunchPad's own, written into the empty
// database through LaunchPad's own Strapi (loaded by strapi-setup.cjs) and its services: the i18n plugin's locales, the
// upload plugin's upload service, the Document Service. Generic: it walks the schemas (app.contentTypes, app.components)
// and knows no LaunchPad type by name. Deterministic: every value follows from the type, the field, the entry's number
// and the locale (only ids, documentIds and timestamps vary, which the comparison normalises). What it writes:
// - the locales asked for (the front end's: en, fr) in the i18n plugin, created through its locales service if absent;
// - IMAGES images (PNGs drawn by sharp, the upload plugin's own dependency, at sizes that give all, some and none of the
//   responsive formats), uploaded through the upload service, their hash renamed `launchpad_image_<n>`; without sharp,
//   1x1 PNG rows of plugin::upload.file;
// - ENTRIES documents of each api:: collection type and one of each single type, in every locale for a localized type,
//   every attribute given a value of its type: strings and texts (within minLength/maxLength), rich text, blocks
//   (heading, marked text, link, list), numbers (within min/max), booleans (alternating), dates, times, enumerations
//   (the first value), JSON, emails, uid fields derived from their targetField (`homepage` for the first entry of a type
//   with a uid but no targetField: the front end's home page), media (single and multiple), components (repeatable
//   ones with two items), dynamic zones with one block of EVERY allowed component, and relations (in components too) to
//   the seeded documents, none to itself: the owning side is written, Strapi keeps the inverse side of a bidirectional
//   relation (both read one join table); written once every document exists and is published, then republished;
// - everything published; then one draft-only change per draft-and-publish type (the first document, first locale:
//   its first string field gets ` (draft)`), which the front end's draft-mode requests read.
const fs = require('fs');
const os = require('os');
const path = require('path');

const ENTRIES = 3; // documents per collection type
const IMAGES = [
  [1200, 800], // thumbnail, large, medium, small
  [640, 400], // thumbnail, small
  [120, 80], // no format
];
const SKIP = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Fills the (empty) database of `app`; returns what it wrote: { locales, files, documents: { uid: n }, drafts: [..] }. */
async function generateSyntheticSeed(app, { appDir, locales }) {
  const localeService = app.plugin('i18n').service('locales');
  for (const code of locales) if (!(await localeService.findByCode(code))) await localeService.create({ code, name: code });
  const base = (await localeService.getDefaultLocale()) || locales[0];
  const ctx = { app, base, files: await createImages(app, appDir), docs: {}, relations: false };
  const types = Object.keys(app.contentTypes).filter((uid) => uid.startsWith('api::')).sort();
  const localesOf = (ct) => (ct.pluginOptions?.i18n?.localized === true ? [base, ...locales.filter((l) => l !== base)] : [undefined]);
  const status = (ct) => (ct.options?.draftAndPublish === false ? undefined : 'published');

  // Pass 1: every document in every locale, published, relations left out (their targets may not exist yet).
  for (const uid of types) {
    const ct = app.contentTypes[uid];
    ctx.root = uid;
    ctx.docs[uid] = [];
    for (let i = 0; i < (ct.kind === 'singleType' ? 1 : ENTRIES); i++) {
      const [first, ...others] = localesOf(ct);
      const created = await app.documents(uid).create({ data: fill(ctx, ct, uid, i, first), locale: first, status: status(ct) });
      ctx.docs[uid].push(created.documentId);
      for (const locale of others) await app.documents(uid).update({ documentId: created.documentId, locale, data: fill(ctx, ct, uid, i, locale), status: status(ct) });
    }
  }
  // Pass 2: the same data with the relations, republished (every target has a published version by now).
  ctx.relations = true;
  for (const uid of types) {
    const ct = app.contentTypes[uid];
    ctx.root = uid;
    for (const [i, documentId] of ctx.docs[uid].entries()) {
      for (const locale of localesOf(ct)) await app.documents(uid).update({ documentId, locale, data: fill(ctx, ct, uid, i, locale), status: status(ct) });
    }
  }
  // One draft-only change per draft-and-publish type: the draft differs from the published version.
  const drafts = [];
  for (const uid of types.filter((t) => status(app.contentTypes[t]))) {
    const ct = app.contentTypes[uid];
    const field = Object.keys(ct.attributes).find((f) => ['string', 'text'].includes(ct.attributes[f].type) && !SKIP.has(f));
    if (!field) continue;
    const locale = localesOf(ct)[0];
    const value = `${fill(ctx, ct, uid, 0, locale)[field]} (draft)`.slice(0, ct.attributes[field].maxLength ?? 255);
    await app.documents(uid).update({ documentId: ctx.docs[uid][0], locale, data: { [field]: value } });
    drafts.push(`${uid}.${field}${locale ? ` (${locale})` : ''}`);
  }
  const documents = Object.fromEntries(types.map((uid) => [uid, ctx.docs[uid].length]));
  return { locales, defaultLocale: base, files: ctx.files.map((f) => `${f.name} ${f.width}x${f.height} [${Object.keys(f.formats || {}).sort().join(',')}]`), documents, drafts };
}

/** The images: uploaded through the upload service (sharp draws them), or, without sharp, 1x1 PNG rows. */
async function createImages(app, appDir) {
  let sharp;
  try {
    sharp = require(require.resolve('sharp', { paths: [path.dirname(require.resolve('@strapi/upload/package.json', { paths: [appDir] })), appDir] }));
  } catch {
    sharp = undefined;
  }
  const uploadsDir = path.join(appDir, 'public', 'uploads');
  fs.mkdirSync(uploadsDir, { recursive: true });
  const files = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'launchpad-seed-'));
  try {
    for (const [n, [width, height]] of IMAGES.entries()) {
      const hash = `launchpad_image_${n + 1}`;
      const name = `image-${n + 1}.png`;
      const info = { name, alternativeText: `Image ${n + 1}`, caption: `Caption ${n + 1}` };
      if (!sharp) {
        fs.writeFileSync(path.join(uploadsDir, `${hash}.png`), Buffer.from(TINY_PNG, 'base64'));
        const data = { ...info, width: 1, height: 1, formats: null, hash, ext: '.png', mime: 'image/png', size: 0.07, url: `/uploads/${hash}.png`, provider: 'local', folderPath: '/' };
        files.push(await app.db.query('plugin::upload.file').create({ data }));
        continue;
      }
      const background = { r: (n * 90) % 256, g: 120, b: 255 - n * 60 };
      const filepath = path.join(tmp, name);
      await sharp({ create: { width, height, channels: 3, background } }).png().toFile(filepath);
      const [uploaded] = await app.plugin('upload').service('upload').upload({ data: { fileInfo: info }, files: { filepath, originalFilename: name, mimetype: 'image/png', size: fs.statSync(filepath).size } });
      // The upload service's hash ends in a random suffix: renamed to a fixed one (rows and files).
      for (const file of fs.readdirSync(uploadsDir).filter((f) => f.includes(uploaded.hash))) fs.renameSync(path.join(uploadsDir, file), path.join(uploadsDir, file.replace(uploaded.hash, hash)));
      const fixed = JSON.parse(JSON.stringify({ hash: uploaded.hash, url: uploaded.url, formats: uploaded.formats }).split(uploaded.hash).join(hash));
      files.push(await app.db.query('plugin::upload.file').update({ where: { id: uploaded.id }, data: fixed }));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return files;
}

/** The data of entry `i` of a content type or component `schema` (named `name`) in `locale`. */
function fill(ctx, schema, name, i, locale, depth = 0) {
  const data = {};
  const short = name.split(/[.:]/).pop();
  for (const [field, attr] of Object.entries(schema.attributes)) {
    if (SKIP.has(field) || attr.writable === false) continue;
    // A non-localized attribute has one value in every locale (the i18n plugin copies it across locales).
    const localized = depth > 0 || attr.type === 'relation' || attr.type === 'uid' || attr.pluginOptions?.i18n?.localized === true;
    const value = valueOf(ctx, schema, attr, field, short, i, localized ? locale : undefined, depth);
    if (value !== undefined) data[field] = value;
  }
  return data;
}

const slugify = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function valueOf(ctx, schema, attr, field, short, i, locale, depth) {
  const n = i + 1;
  const other = locale && locale !== ctx.base; // the base locale's values carry no locale mark
  const suffix = other ? ` (${locale})` : '';
  const text = (max, min = 0) => {
    let value = `${short} ${field} ${n}${suffix}`;
    while (value.length < min) value += ' and some more words';
    return value.slice(0, max ?? 255);
  };
  const between = (value) => Math.min(attr.max ?? Infinity, Math.max(attr.min ?? -Infinity, value));
  switch (attr.type) {
    case 'string':
    case 'text':
      return text(attr.maxLength, attr.minLength);
    case 'richtext':
      return `## ${text()}\n\nSome **rich** text with [a link](https://example.com/${n}).\n\n- one\n- two`;
    case 'blocks':
      return [
        { type: 'heading', level: 2, children: [{ type: 'text', text: text() }] },
        { type: 'paragraph', children: [{ type: 'text', text: `Entry ${n}${suffix}, ` }, { type: 'text', text: 'bold', bold: true }, { type: 'text', text: ' and ' }, { type: 'link', url: `https://example.com/${n}`, children: [{ type: 'text', text: 'a link' }] }] },
        { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: `item ${n}` }] }] },
      ];
    case 'email':
      return `${short}${n}@example.com`;
    case 'uid': {
      const target = attr.targetField && schema.attributes[attr.targetField];
      if (target) return slugify(String(valueOf(ctx, schema, target, attr.targetField, short, i, locale, depth)));
      return i === 0 ? 'homepage' : `${short}-${n}${other ? `-${locale}` : ''}`;
    }
    case 'enumeration':
      return attr.enum[0];
    case 'boolean':
      return i % 2 === 0;
    case 'integer':
    case 'biginteger':
      return between(n * 10);
    case 'decimal':
    case 'float':
      return between(n * 1.5);
    case 'date':
      return `2025-01-0${(i % 9) + 1}`;
    case 'datetime':
      return `2025-01-0${(i % 9) + 1}T10:00:00.000Z`;
    case 'time':
      return '10:00:00.000';
    case 'json':
      return { entry: n, locale: locale ?? null, tags: [short, field], nested: { ok: true } };
    case 'password':
      return undefined;
    case 'media': {
      const ids = ctx.files.map((f) => f.id);
      return attr.multiple ? [ids[i % ids.length], ids[(i + 1) % ids.length]] : ids[i % ids.length];
    }
    case 'relation': {
      // The owning side only (no mappedBy): Strapi writes one join row that both sides read.
      const targets = ctx.docs[attr.target];
      if (!ctx.relations || attr.mappedBy || !targets?.length) return undefined;
      // No document links to itself (Strapi 5.47's publish drops such a link from the published version).
      const pick = (k) => targets[(i + k + (attr.target === ctx.root ? 1 : 0)) % targets.length];
      if (!/ToMany$|^manyWay$/.test(attr.relation)) return pick(0); // oneToOne, manyToOne, oneWay
      if (attr.relation === 'oneToMany' && attr.inversedBy) return [pick(0)]; // a target has one owner
      return [...new Set([pick(0), pick(1)])];
    }
    case 'component': {
      if (depth > 5) return undefined;
      const component = ctx.app.components[attr.component];
      const one = (k) => fill(ctx, component, attr.component, i + k, locale, depth + 1);
      if (!attr.repeatable) return one(0);
      const count = Math.min(attr.max ?? Infinity, Math.max(2, attr.min ?? 0));
      return Array.from({ length: count }, (_, k) => one(k));
    }
    case 'dynamiczone':
      if (depth > 5) return undefined;
      return attr.components.map((uid) => ({ __component: uid, ...fill(ctx, ctx.app.components[uid], uid, i, locale, depth + 1) }));
    default:
      if (attr.customField) return undefined;
      throw new Error(`synthetic-seed.cjs: no value for the attribute type ${attr.type} (${short}.${field})`);
  }
}

module.exports = { generateSyntheticSeed };
