import type { IncomingMessage } from 'node:http';
import Cookies from 'cookies';
import { ApplicationError } from '../errors/index.js';

/**
 * users-permissions' "refresh" mode can keep the refresh token in an HTTP-only cookie instead of the body: always
 * (`sessions.httpOnly`), or when the client asks (`x-strapi-refresh-cookie: httpOnly`). Login and refresh set it,
 * refresh and logout read it (before the body), logout clears it. Written and read with the `cookies` module Koa
 * uses, with Strapi's options and the app's keys, so the headers are Strapi's (a `.sig` companion included).
 */
export interface SessionCookie {
  httpOnly?: boolean;
  cookie?: { name?: string; secure?: boolean; sameSite?: 'lax' | 'strict' | 'none' | boolean; path?: string; domain?: string; maxAge?: number };
}

/** The cookie options and what the jar needs of the app: its keys (`server.app.keys`) and whether it runs in production. */
export interface RefreshCookieOptions {
  config: SessionCookie;
  production: boolean;
  appKeys?: readonly string[];
}

type Headers = Record<string, string | string[] | undefined>;

const DEFAULT_NAME = 'strapi_up_refresh';

const nameOf = (options: RefreshCookieOptions) => options.config.cookie?.name || DEFAULT_NAME;

/** The refresh-token cookie of one app: whether a request wants it, what it carries, and the headers that set it. */
export class RefreshCookies {
  constructor(private readonly options: RefreshCookieOptions) {}

  /**
   * Whether this request's refresh token goes in the cookie (the header's value is matched exactly, as in Strapi).
   * A Secure cookie over an unencrypted connection would be dropped by the browser and the refresh token lost: it is
   * refused here, before anything is written (Strapi's cookie module throws then, a 500, after the session is opened).
   */
  wanted(headers: Headers, encrypted: boolean): boolean {
    if (this.options.config.httpOnly !== true && headers['x-strapi-refresh-cookie'] !== 'httpOnly') return false;
    if (this.secure && !encrypted) {
      throw new ApplicationError(
        'The refresh token cookie is Secure and this connection is not encrypted: use HTTPS (behind a proxy, set server.proxy so its X-Forwarded-Proto is trusted) or sessions.cookie.secure: false',
      );
    }
    return true;
  }

  /** The refresh token of the request's cookie, if it has one (read unsigned, as Strapi's controller reads it). */
  token(headers: Headers): string | undefined {
    return this.jar(headers, true).cookies.get(nameOf(this.options)) || undefined;
  }

  /** `Set-Cookie` headers carrying a refresh token. */
  set(headers: Headers, encrypted: boolean, token: string): string[] {
    const { cookies, written } = this.jar(headers, encrypted);
    cookies.set(nameOf(this.options), token, this.cookieOptions());
    return written();
  }

  /** `Set-Cookie` headers removing the refresh token. */
  cleared(headers: Headers, encrypted: boolean): string[] {
    const { cookies, written } = this.jar(headers, encrypted);
    const { maxAge: _maxAge, ...rest } = this.cookieOptions();
    cookies.set(nameOf(this.options), '', { ...rest, expires: new Date(0) });
    return written();
  }

  /** Whether the cookie is Secure: as configured, else in production (Strapi's rule). */
  private get secure(): boolean {
    const secure = this.options.config.cookie?.secure;
    return typeof secure === 'boolean' ? secure : this.options.production;
  }

  /** Strapi's options of the refresh cookie (its `buildRefreshCookieOptions`). */
  private cookieOptions(): Cookies.SetOption {
    const cookie = this.options.config.cookie ?? {};
    return { httpOnly: true, secure: this.secure, sameSite: cookie.sameSite ?? 'lax', path: cookie.path ?? '/', domain: cookie.domain, maxAge: cookie.maxAge, overwrite: true };
  }

  /** A cookie jar over the request's headers whose `Set-Cookie` lines are collected, not sent. */
  private jar(headers: Headers, encrypted: boolean): { cookies: Cookies; written: () => string[] } {
    const out: Record<string, string | string[]> = {};
    const response = {
      getHeader: (name: string) => out[name.toLowerCase()],
      setHeader: (name: string, value: string | string[]) => {
        out[name.toLowerCase()] = value;
      },
    };
    const keys = this.options.appKeys?.length ? [...this.options.appKeys] : undefined;
    const cookies = new Cookies({ headers } as IncomingMessage, response as never, { keys, secure: encrypted });
    return { cookies, written: () => [out['set-cookie'] ?? []].flat() };
  }
}
