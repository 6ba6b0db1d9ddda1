import { InvalidArgumentError, type Command } from 'commander';

/** `--port`: an integer 0..65535 (0 picks a free port), checked before anything loads. */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return Number(value);
}

/** `--workers`: a positive integer. */
export function parseWorkers(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a positive number of workers');
  return Number(value);
}

/** `--dir`, shared by every command that works on an app folder. */
export function dirOption(command: Command): Command {
  return command.option('-d, --dir <path>', 'app folder (config/, src/)', '.');
}
