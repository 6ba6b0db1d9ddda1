/**
 * Recognises the statements a request spends on auth (the API token's lookup, its `last_used_at`, the role
 * permissions' check) and on the periodic locales' recheck, so that statement-count tests count only reads of
 * content. Either storage layout: Cairn's former tables or Strapi's. A statement is auth's when every table it names
 * is an auth table; one that also reads content (or names no table) is counted, so a content read can never hide
 * behind this filter.
 */

const AUTH_TABLES = new Set([
  // Cairn's former layout.
  'cairn_api_tokens',
  'cairn_permissions',
  'cairn_permissions_version',
  // Strapi's layout.
  'strapi_api_tokens',
  'strapi_api_token_permissions',
  'strapi_api_token_permissions_token_lnk',
  'up_permissions',
  'up_permissions_role_lnk',
  'up_roles',
]);

/** The tables a statement reads or writes: names after FROM, JOIN, UPDATE and INTO (quoted or not). */
export function tablesOf(sql: string): string[] {
  const names: string[] = [];
  for (const match of sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+[`"]?([A-Za-z_][A-Za-z0-9_]*)[`"]?/gi)) names.push(match[1].toLowerCase());
  return names;
}

export function isAuthStatement(sql: string): boolean {
  const tables = tablesOf(sql);
  return tables.length > 0 && tables.every((table) => AUTH_TABLES.has(table));
}

/**
 * The two reads of AppLocales' recheck (src/database/strapi-locales.ts), which the first request after each period
 * of LOCALES_RECHECK_MS sends before its own: whether a test's request is that one depends on how long the test ran
 * so far, so tests that count or compare a request's statements leave them out. Recognised by their whole text.
 */
const LOCALES_RECHECK = [
  /^SELECT id, document_id, name, code, created_at, updated_at, published_at FROM i18n_locale WHERE code IS NOT NULL ORDER BY id$/,
  /^SELECT value FROM strapi_core_store_settings WHERE [`"]?key[`"]? = 'plugin_i18n_default_locale' ORDER BY id DESC LIMIT 1$/,
];

export function isLocalesRecheck(sql: string): boolean {
  const text = sql.trim();
  return LOCALES_RECHECK.some((statement) => statement.test(text));
}

/** A request's statements without the locales' recheck: what the request itself sent. */
export function withoutRechecks(statements: readonly string[]): string[] {
  return statements.filter((sql) => !isLocalesRecheck(sql));
}

/** The statements that are neither auth's nor the locales' recheck: what a request spent on content. */
export function contentStatements(statements: readonly string[]): string[] {
  return withoutRechecks(statements).filter((sql) => !isAuthStatement(sql));
}
