import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { COMMANDS } from './commands/index.js';
import { reportFatal } from './errors.js';

export { COMMANDS };

/** The `cairn` program with every command registered (tests build it without running it). */
export function createProgram(): Command {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const program = new Command('cairn')
    .description('Cairn: a fast, strict, Strapi v5-compatible headless content service')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run cairn --help for usage)');
  for (const register of COMMANDS) register(program);
  return program;
}

export async function main(argv = process.argv): Promise<void> {
  try {
    await createProgram().parseAsync(argv);
  } catch (error) {
    reportFatal(error);
  }
}
