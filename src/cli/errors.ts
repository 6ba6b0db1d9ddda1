import { ConfigError, ModelError } from '../errors/index.js';

/** Known start-up errors print one clear line; anything else keeps its stack (it is a bug). */
export function reportFatal(error: unknown): never {
  if (error instanceof ConfigError || error instanceof ModelError) {
    process.stderr.write(`cairn: ${error.message}\n`);
  } else if (error instanceof Error && /ECONNREFUSED|ENOTFOUND|EADDRINUSE|password authentication|Access denied/.test(error.message)) {
    process.stderr.write(`cairn: ${error.message}\n`);
  } else {
    process.stderr.write(`cairn: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
}
