import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { contentSecurityPolicy } from 'helmet';
import { ConfigError } from '../errors/index.js';

/**
 * Strapi's `strapi::security` (config/middlewares), as Cairn's: helmet's headers on every answer, errors included,
 * with Strapi's defaults (a Content-Security-Policy, HSTS for a year with subdomains, `X-Frame-Options: SAMEORIGIN`,
 * `nosniff`, no cross-origin isolation headers) and the project's options over them.
 *
 * The options are static, so helmet runs once, at start (a bad option stops the start, named), on a response that
 * records what it sets; each answer then gets those headers at no cost. The GraphQL playground's page sends its
 * own, stricter policy (graphql/playground.ts), which replaces this one there.
 */
export function installSecurityHeaders(app: FastifyInstance, options: Record<string, unknown> | undefined): void {
  if (!options) return;
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet sets with these options. */
function helmetHeaders(options: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  try {
    helmet(inStrapisOrder(options))({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => void (failure = error));
  } catch (error) {
    failure = error;
  }
  // helmet checks its options as it builds its middleware: a bad value is the config's, named.
  if (failure) throw new ConfigError(`config/middlewares: strapi::security's config: ${(failure as Error).message}`);
  return headers;
}

/**
 * The Content-Security-Policy's directives in the order Strapi's helmet 6 writes them: the config's first, then
 * helmet's defaults it does not name (helmet 8 writes its defaults first). Same directives, same values.
 */
function inStrapisOrder(options: Record<string, unknown>): Record<string, unknown> {
  const csp = options.contentSecurityPolicy as { useDefaults?: boolean; directives?: Record<string, unknown> } | undefined;
  if (!csp || typeof csp !== 'object' || csp.useDefaults === false || !csp.directives) return options;
  const given = Object.entries(csp.directives);
  const named = new Set(given.map(([name]) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)));
  const directives: Record<string, unknown> = Object.fromEntries(given.filter(([, value]) => value !== null));
  for (const [name, value] of Object.entries(contentSecurityPolicy.getDefaultDirectives())) if (!named.has(name)) directives[name] = value;
  return { ...options, contentSecurityPolicy: { ...csp, useDefaults: false, directives } };
}
