import { readStrapiLocales } from '../database/strapi-locales.js';
import type { Database } from '../database/types.js';
import { storedLocales, type LocaleInfo } from '../project/locales.js';

/** How often a process checks whether locales changed elsewhere (Strapi's admin, another worker, a script). */
export const LOCALES_RECHECK_MS = 1000;

/**
 * The app's locales, which Strapi keeps in `i18n_locale` and which change while Cairn runs: `strapi.db.query(
 * 'plugin::i18n.locale')` here (reload at once, on the database the write used), Strapi's admin or another process
 * (`recheck`, at most once per LOCALES_RECHECK_MS, before a request, as permissions are rechecked: auth/roles.ts). The
 * readers (REST's read settings, the Document Services, GET /api/i18n/locales, server code) hold `list` and `codes`
 * themselves: both arrays are changed in place, never replaced, so every reader sees the change.
 */
export class AppLocales {
  readonly list: LocaleInfo[];
  /** The codes of `list`, in its order. */
  readonly codes: string[];
  /** Moves with every change of the list (caches of what depends on it compare it). */
  version = 0;
  private checkedAt: number;
  private checking: Promise<void> | undefined;

  constructor(
    initial: readonly LocaleInfo[],
    /** config/plugins' locales: their default is the fallback when Strapi's setting names none that exists. */
    private readonly configured: readonly LocaleInfo[],
    private readonly warn: (message: string) => void,
    private readonly recheckMs = LOCALES_RECHECK_MS,
  ) {
    this.list = [...initial];
    this.codes = initial.map((l) => l.code);
    // Just read (or configured): the first check is due a period from now.
    this.checkedAt = Date.now();
  }

  get defaultLocale(): string {
    return (this.list.find((l) => l.isDefault) ?? this.list[0]).code;
  }

  /**
   * Reads the locales again from `db`. A database left without any locale keeps the last list (Strapi's admin never
   * deletes the last one; content could not be read or written in none): a warning says so.
   */
  async reload(db: Database): Promise<void> {
    const { locales, defaultCode } = await readStrapiLocales(db);
    if (!locales.length) {
      this.warn(`i18n_locale holds no locale: the app keeps its locales (${this.codes.join(', ')})`);
      return;
    }
    const fresh = storedLocales(locales, defaultCode, this.configured);
    this.checkedAt = Date.now();
    if (sameLocales(this.list, fresh)) return;
    this.list.splice(0, this.list.length, ...fresh);
    this.codes.splice(0, this.codes.length, ...fresh.map((l) => l.code));
    this.version++;
  }

  /**
   * Before a request: a reload when the last one is older than the period, one at a time (requests arriving meanwhile
   * wait for the same one). Undefined when none is due, so that most requests wait for nothing. A failed read keeps
   * the list (the next request tries again) and is logged.
   */
  recheck(db: Database): Promise<void> | undefined {
    if (this.checking) return this.checking;
    if (Date.now() - this.checkedAt < this.recheckMs) return undefined;
    this.checking = this.reload(db)
      .catch((error: unknown) => this.warn(`could not read the locales again (i18n_locale): ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.checkedAt = Date.now();
        this.checking = undefined;
      });
    return this.checking;
  }
}

function sameLocales(a: readonly LocaleInfo[], b: readonly LocaleInfo[]): boolean {
  return a.length === b.length && a.every((l, i) => l.code === b[i].code && l.name === b[i].name && l.isDefault === b[i].isDefault && l.stored?.id === b[i].stored?.id && l.stored?.updatedAt === b[i].stored?.updatedAt);
}
