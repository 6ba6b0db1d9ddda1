#!/usr/bin/env node
// A real Strapi 5 app on the conformance model, made from the repository alone: test/interop/strapi-app (package.json,
// config/, the bootstrap in src/index.js) with the model of test/fixtures/conformance/app copied into its src/, and
// node_modules linking to the install cache (install.mjs). The interop harness runs it; the maintenance scripts
// (record-strapi-goldens.mjs, strapi-write-probe.mjs) take one as STRAPI_APP_DIR:
//
//   node scripts/interop/strapi-app.mjs /tmp/strapi-app      # installs Strapi once (npm ci, a few minutes), then the app
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureStrapiInstall } from './install.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const kit = join(repo, 'test', 'fixtures', 'conformance');
export const FIXTURE_APP = join(repo, 'test', 'interop', 'strapi-app');

/** Makes the app in `dir` (which must not hold one yet) from an install (`ensureStrapiInstall(FIXTURE_APP)`). */
export function prepareStrapiApp(dir, install) {
  cpSync(FIXTURE_APP, dir, { recursive: true, filter: (src) => !src.endsWith('package-lock.json') });
  for (const folder of ['api', 'components']) cpSync(join(kit, 'app', 'src', folder), join(dir, 'src', folder), { recursive: true });
  symlinkSync(join(install.dir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // Strapi's local upload provider refuses to start without its folder.
  mkdirSync(join(dir, 'public', 'uploads'), { recursive: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/interop/strapi-app.mjs <folder for the app>');
    process.exit(2);
  }
  prepareStrapiApp(resolve(dir), ensureStrapiInstall(FIXTURE_APP));
  console.log(`Strapi app ready in ${resolve(dir)}`);
}
