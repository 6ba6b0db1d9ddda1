import { isIP } from 'node:net';
import type { AppConfig } from './types.js';

type UrlConfig = Pick<AppConfig, 'environment' | 'server' | 'admin'>;

const trimSlashes = (value: string) => value.replace(/^[/ ]+|[/ ]+$/g, '');

/** `server.url` as Strapi 5.54's getConfigUrls reads it: an absolute URL without its last slash, `/path`, or ''. */
function serverPath(config: UrlConfig): string {
  const given = config.server.url ?? '';
  if (typeof given !== 'string') throw new Error('Invalid server url config. Make sure the url is a string.');
  const url = trimSlashes(given);
  if (url.startsWith('http')) return new URL(given).toString().replace(/\/+$/, '');
  return url === '' ? '' : `/${url}`;
}

function absolute(config: UrlConfig, url: string): string {
  if (url.startsWith('http')) return url;
  const { host, port } = config.server;
  if (config.environment === 'development' && ['127.0.0.1', '0.0.0.0', '::1', '::'].includes(host)) return `http://localhost:${port}${url}`;
  if (isIP(host) === 6) return `http://[${host}]:${port}${url}`;
  return `http://${host}:${port}${url}`;
}

/**
 * `strapi.config.get('server.absoluteUrl')`: the server's public URL, from `server.url` when it is absolute, else
 * from host and port (localhost in development for a wildcard or loopback host), as Strapi 5.54 computes it. Email
 * templates link to it.
 */
export function absoluteServerUrl(config: UrlConfig): string {
  return absolute(config, serverPath(config));
}

/** `strapi.config.get('admin.absoluteUrl')`: `admin.url` (default `/admin`) under the server's URL, as Strapi's. */
export function absoluteAdminUrl(config: UrlConfig): string {
  const given = typeof config.admin.url === 'string' ? config.admin.url : '/admin';
  const url = trimSlashes(given);
  if (url.startsWith('http')) return new URL(url).toString().replace(/\/+$/, '');
  return absolute(config, `${serverPath(config)}/${url}`);
}
