import { STATUS_CODES } from 'node:http';
import Cookies from 'cookies';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, httpErrorName, statusText } from './strapi-errors.js';
import { filesOf, type RequestFiles } from './multipart-body.js';

/** What Strapi's route info and auth put in `ctx.state`. */
export interface KoaState {
  user?: unknown;
  auth?: { strategy?: { name: string }; credentials?: unknown; ability?: unknown };
  isAuthenticated?: boolean;
  route?: unknown;
  [key: string]: unknown;
}

/** An answer's JSON text, parsed only if app code reads `ctx.body` (see KoaContext.answerJson). */
class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A Koa-compatible `ctx` over one Fastify request, for the routes that run app code (policies, middlewares, a
 * controller action of the app's): Strapi's members (`query`, `params`, `request.body`, `state`, `body`, `status`,
 * `set`/`get`, `throw`, `badRequest`...) and Koa's rules (setting a body makes the status 200 unless one was set,
 * a null body a 204). Routes without app code never build one.
 */
export class KoaContext {
  readonly request: KoaRequest;
  readonly response: KoaResponse;
  readonly state: KoaState = {};
  params: Record<string, string>;
  /** Where the app's code left the answer. */
  private bodyValue: unknown = undefined;
  private statusValue: number | undefined;
  readonly headersOut: Record<string, string | string[]> = {};
  private cookieJar: Cookies | undefined;

  constructor(
    readonly fastifyRequest: FastifyRequest,
    readonly reply: FastifyReply,
    params: Record<string, string>,
    parseQuery: () => Record<string, unknown>,
    /** The app's `server.app.keys` (Koa's `app.keys`): what signs and checks `ctx.cookies`' signed cookies. */
    private readonly appKeys?: readonly string[],
  ) {
    this.params = params;
    this.request = new KoaRequest(this, fastifyRequest, parseQuery);
    this.response = new KoaResponse(this);
  }

  get req() {
    return this.fastifyRequest.raw;
  }
  get res() {
    return this.reply.raw;
  }
  get app(): never {
    throw new Error("ctx.app is not provided by Cairn (Koa's application object)");
  }
  /**
   * Koa's `ctx.cookies`: the `cookies` module Koa uses, with the app's keys (signed by default when the app has
   * keys, as in Koa) and `secure` from the request's protocol (`X-Forwarded-Proto` only behind a trusted proxy).
   * What it sets joins the answer's headers, so a `Set-Cookie` of `ctx.set` and those of `cookies.set` add up.
   */
  get cookies(): Cookies {
    if (!this.cookieJar) {
      const headers = this.headersOut;
      const response = {
        getHeader: (name: string) => headers[name.toLowerCase()],
        setHeader: (name: string, value: string | string[]) => {
          headers[name.toLowerCase()] = value;
        },
      };
      const keys = Array.isArray(this.appKeys) && this.appKeys.length ? [...this.appKeys] : undefined;
      this.cookieJar = new Cookies(this.fastifyRequest.raw, response as never, { keys, secure: this.fastifyRequest.protocol === 'https' });
    }
    return this.cookieJar;
  }
  get query(): Record<string, unknown> {
    return this.request.query;
  }
  set query(value: Record<string, unknown>) {
    this.request.query = value;
  }
  get querystring(): string {
    return this.request.querystring;
  }
  get headers() {
    return this.fastifyRequest.headers;
  }
  get header() {
    return this.fastifyRequest.headers;
  }
  get method(): string {
    return this.fastifyRequest.method;
  }
  get url(): string {
    return this.fastifyRequest.url;
  }
  get originalUrl(): string {
    return this.fastifyRequest.url;
  }
  get path(): string {
    const url = this.fastifyRequest.url;
    const at = url.indexOf('?');
    return at === -1 ? url : url.slice(0, at);
  }
  get host(): string {
    return this.fastifyRequest.host;
  }
  get ip(): string {
    return this.fastifyRequest.ip;
  }
  get protocol(): string {
    return this.fastifyRequest.protocol;
  }

  get body(): unknown {
    if (this.bodyValue instanceof JsonText) this.bodyValue = JSON.parse(this.bodyValue.text);
    return this.bodyValue;
  }
  set body(value: unknown) {
    this.bodyValue = value;
    if (value === null || value === undefined) {
      if (this.statusValue === undefined || this.statusValue === 200) this.statusValue = 204;
    } else if (this.statusValue === undefined || this.statusValue === 204) this.statusValue = 200;
  }
  get status(): number {
    return this.statusValue ?? 404;
  }
  set status(value: number) {
    if (!Number.isInteger(value) || value < 100 || value > 999) throw new TypeError(`invalid status code: ${String(value)}`);
    this.statusValue = value;
  }
  /**
   * The answer of one of Cairn's own handlers, as JSON text: `ctx.body` is its object as in Strapi, parsed only when
   * app code reads it; `jsonText` is the text while nobody did.
   */
  answerJson(text: string, status: number): void {
    this.statusValue = status;
    this.bodyValue = new JsonText(text);
  }
  /** The JSON text answerJson left, while app code has not read `ctx.body` (nor set another). */
  get jsonText(): string | undefined {
    return this.bodyValue instanceof JsonText ? this.bodyValue.text : undefined;
  }
  /** Whether app code set a status or a body (Koa's default answer is a 404 otherwise). */
  get answered(): boolean {
    return this.statusValue !== undefined;
  }
  get type(): string {
    return String(this.headersOut['content-type'] ?? '');
  }
  set type(value: string) {
    this.headersOut['content-type'] = value.includes('/') ? value : value === 'json' ? 'application/json; charset=utf-8' : value === 'html' ? 'text/html; charset=utf-8' : value === 'text' ? 'text/plain; charset=utf-8' : value;
  }

  /** `ctx.set('X-Name', 'v')` or `ctx.set({ 'X-Name': 'v' })`. */
  set(name: string | Record<string, string>, value?: string | string[]): void {
    if (typeof name === 'object') {
      for (const [key, v] of Object.entries(name)) this.set(key, v);
      return;
    }
    this.headersOut[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
  }
  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.headersOut[key];
    this.headersOut[key] = current === undefined ? value : [...(Array.isArray(current) ? current : [current]), value];
  }
  remove(name: string): void {
    delete this.headersOut[name.toLowerCase()];
  }
  /** A request header (Koa's `ctx.get`), '' when absent. */
  get(name: string): string {
    const key = name.toLowerCase();
    const value = this.fastifyRequest.headers[key === 'referrer' ? 'referer' : key];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  }
  is(...types: string[]): string | false {
    const type = String(this.fastifyRequest.headers['content-type'] ?? '').split(';')[0].trim();
    if (!type) return false;
    const found = types.flat().find((t) => t === type || type.endsWith(`/${t}`) || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))));
    return found ?? false;
  }

  /** Koa's `ctx.throw(status, message)` / `ctx.throw(message, status)` / `ctx.throw(error)`. */
  throw(...args: unknown[]): never {
    const error = args.find((a) => a instanceof Error);
    if (error) throw error;
    const status = (args.find((a) => typeof a === 'number') as number | undefined) ?? 500;
    const message = args.find((a) => typeof a === 'string') as string | undefined;
    const props = args.find((a) => typeof a === 'object' && a !== null) as Record<string, unknown> | undefined;
    throw new HttpError(status, message, props?.details as Record<string, unknown> | undefined);
  }
  assert(value: unknown, ...args: unknown[]): void {
    if (!value) this.throw(...args);
  }

  /**
   * Koa's `ctx.redirect(url, alt)`: `Location`, a 302 unless a redirect status was set, and Koa's short body (HTML
   * when the client accepts it). `'back'` is the Referer, else `alt`, else `/`.
   */
  redirect(url: string, alt?: string): void {
    const target = url === 'back' ? this.get('referrer') || alt || '/' : url;
    this.set('location', encodeUrl(target));
    if (![300, 301, 302, 303, 305, 307, 308].includes(this.statusValue ?? 0)) this.statusValue = 302;
    const html = /\btext\/html\b/.test(this.get('accept'));
    const shown = html ? target.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) : target;
    this.type = html ? 'html' : 'text';
    this.bodyValue = html ? `Redirecting to <a href="${shown}">${shown}</a>.` : `Redirecting to ${target}.`;
  }

  /** Strapi's response helpers: `ctx.send(data, status)`, `ctx.created(data)`, `ctx.deleted(data)`. */
  send(data: unknown, status = 200): void {
    this.statusValue = status;
    this.bodyValue = data;
  }
  created(data: unknown): void {
    this.send(data, 201);
  }
  deleted(data?: unknown): void {
    if (data === undefined || data === null) {
      this.statusValue = 204;
      this.bodyValue = undefined;
    } else this.send(data, 200);
  }

  /** Strapi's error helpers (`ctx.badRequest(message, details)`...): set the status and an error body, don't throw. */
  errorAnswer(status: number, message: string = statusText(status), details: unknown = {}): void {
    this.statusValue = status;
    this.bodyValue = { data: null, error: { status, name: httpErrorName(status), message, details } };
  }
}

/** `ctx.badRequest`, `ctx.notFound`... one per 4xx/5xx status Node knows, as Strapi's Koa app defines them. */
for (const [code, name] of Object.entries(STATUS_CODES)) {
  const status = Number(code);
  if (!name || status < 400 || status >= 600) continue;
  const method = camelCase(name);
  Object.defineProperty(KoaContext.prototype, method, {
    value(this: KoaContext, message?: string, details?: unknown) {
      this.errorAnswer(status, message ?? name, details ?? {});
    },
    writable: true,
    configurable: true,
  });
}

/** A URL with what a header may not hold percent-encoded, escapes already there kept (as Koa's `encodeurl`). */
function encodeUrl(url: string): string {
  try {
    return encodeURI(decodeURI(url));
  } catch {
    return encodeURI(url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  }
}

/** lodash's camelCase for status names: `Bad Request` -> `badRequest`, `I'm a Teapot` -> `imATeapot`. */
function camelCase(text: string): string {
  const words = text.replace(/'/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
}

export class KoaRequest {
  private queryValue: Record<string, unknown> | undefined;

  constructor(
    private readonly ctx: KoaContext,
    private readonly fastifyRequest: FastifyRequest,
    private readonly parseQuery: () => Record<string, unknown>,
  ) {}

  get body(): unknown {
    return this.fastifyRequest.body;
  }
  set body(value: unknown) {
    this.fastifyRequest.body = value;
  }
  /** The query string parsed with qs (Strapi's parser, Cairn's strict limits), once; app code may replace it. */
  get query(): Record<string, unknown> {
    return (this.queryValue ??= this.parseQuery());
  }
  set query(value: Record<string, unknown>) {
    this.queryValue = value;
  }
  /** The query once app code read or replaced it (undefined before: the URL's is still the request's query). */
  get parsedQuery(): Record<string, unknown> | undefined {
    return this.queryValue;
  }
  get querystring(): string {
    const url = this.fastifyRequest.url;
    const at = url.indexOf('?');
    return at === -1 ? '' : url.slice(at + 1);
  }
  get headers() {
    return this.fastifyRequest.headers;
  }
  get header() {
    return this.fastifyRequest.headers;
  }
  get method(): string {
    return this.fastifyRequest.method;
  }
  get url(): string {
    return this.fastifyRequest.url;
  }
  get path(): string {
    return this.ctx.path;
  }
  get ip(): string {
    return this.fastifyRequest.ip;
  }
  get(name: string): string {
    return this.ctx.get(name);
  }
  is(...types: string[]): string | false {
    return this.ctx.is(...types);
  }
  /**
   * A multipart body's files (koa-body's `ctx.request.files`: formidable files by field name, multipart-body.ts);
   * undefined for a body of another type, as in Strapi.
   */
  get files(): RequestFiles | undefined {
    return filesOf(this.fastifyRequest);
  }
}

export class KoaResponse {
  constructor(private readonly ctx: KoaContext) {}
  get body(): unknown {
    return this.ctx.body;
  }
  set body(value: unknown) {
    this.ctx.body = value;
  }
  get status(): number {
    return this.ctx.status;
  }
  set status(value: number) {
    this.ctx.status = value;
  }
  get headers() {
    return this.ctx.headersOut;
  }
  set(name: string | Record<string, string>, value?: string): void {
    this.ctx.set(name, value);
  }
  get(name: string): string | string[] | undefined {
    return this.ctx.headersOut[name.toLowerCase()];
  }
}
