#!/usr/bin/env node
// Cairn's command line; the TypeScript sources are compiled to dist/ by `npm run build` (run on npm install).
import { main } from '../dist/cli/index.js';

await main();
