import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerStart } from './commands/start.js';
import { registerDevelop } from './commands/develop.js';
import { registerToken } from './commands/token.js';
import { registerPermissions } from './commands/permissions.js';

/**
 * Each command registers itself from its own file; commands import their heavy modules only when they run,
 * so `cairn start` loads nothing it doesn't use (cold start).
 */
export const COMMANDS: Array<(program: Command) => void> = [registerStart, registerDevelop, registerToken, registerPermissions];

export async function main(argv = process.argv): Promise<void> {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const program = new Command('cairn').description('Cairn: a fast, strict, Strapi-compatible headless content service').version(pkg.version);
  for (const register of COMMANDS) register(program);
  await program.parseAsync(argv);
}
