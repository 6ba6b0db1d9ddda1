/** The loaded `config/` folder: each file's object, after `({ env }) => object` functions ran. */
export interface AppConfig {
  /** Absolute path of the app folder. */
  dir: string;
  /** NODE_ENV, default 'development'. */
  environment: string;
  server: {
    host: string;
    port: number;
    /** Number of worker processes (`cairn start --workers N` overrides). */
    workers?: number;
    app?: { keys?: string[] };
    [key: string]: unknown;
  };
  database: import('../database/types.js').DatabaseConfig;
  api: {
    rest: { defaultLimit: number; maxLimit: number; withCount: boolean; prefix?: string };
    [key: string]: unknown;
  };
  /** Plugin configs: `{ i18n: { config: {...} }, graphql: { config }, 'users-permissions': { config }, upload: { config } }`. */
  plugins: Record<string, { enabled?: boolean; config?: Record<string, unknown>; [key: string]: unknown }>;
  admin: Record<string, unknown>;
  /**
   * `config/middlewares` (Strapi's list of application middlewares), checked, when present: the app's own run around
   * every API request, Strapi's are mapped to Cairn's (project/middlewares.ts); `strapi.config.get('middlewares')` reads it.
   */
  middlewares?: import('./middlewares.js').MiddlewareEntry[];
  /** `config/permissions` (roles and their actions), when present. */
  permissions?: { roles?: Record<string, { name?: string; description?: string; permissions: string[] }> };
}
