import type { Command } from 'commander';
import { registerStart } from './start.js';
import { registerDevelop } from './develop.js';
import { registerToken } from './token.js';
import { registerPermissions } from './permissions.js';
import { registerDb } from './db.js';

/**
 * Every `cairn` command, one file each. A command file imports only commander types at load time and its heavy
 * modules inside its action, so `cairn --help` or `cairn start` load nothing they don't use (cold start).
 * To add a command: write commands/<name>.ts exporting `register<Name>(program)` and list it here.
 */
export const COMMANDS: ReadonlyArray<(program: Command) => void> = [registerStart, registerDevelop, registerToken, registerPermissions, registerDb];
