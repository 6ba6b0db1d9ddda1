import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Cairn's log: pino's JSON lines, on stdout unless a destination is given. Every 5xx is written here with its
 * cause and stack, and so are start-up notes; requests themselves only with `logger: true` (Fastify's request
 * logging costs every request a child logger).
 */
export function createLogger(destination?: DestinationStream): Logger {
  return pino({ level: 'info' }, destination ?? pino.destination({ fd: 1, sync: true }));
}
