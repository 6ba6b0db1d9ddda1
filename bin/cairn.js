#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50
// (the V8 flags: see src/app/v8-flags.ts; `env -S` splits the line into arguments.)
// Cairn's command line. Cairn's TypeScript is compiled to dist/ by `npm run build` (npm install runs it through
// `prepare`), so no TypeScript loader runs at start-up.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('cairn: dist/ is missing: run `npm run build` (or `npm install`) in the Cairn folder first\n');
  process.exit(1);
}
const { main } = await import(entry.href);
await main();
