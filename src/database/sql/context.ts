import type { Model } from '../../model/types.js';
import type { Status } from '../../query/types.js';
import type { ColumnType } from '../../query/types.js';
import type { SqlDialect } from './dialect.js';

/** What every compile step needs: the model, the dialect, the version asked for, and fresh table aliases. */
export class CompileContext {
  constructor(
    readonly model: Model,
    readonly dialect: SqlDialect,
    /** Published or draft: applies to the whole populate tree (as Strapi v5 does) unless a node says otherwise. */
    readonly status: Status,
    /**
     * Draft rows answered with the `publishedAt` of their published version (null when there is none): the
     * "latest content" view of Strapi v4's `publicationState: PREVIEW`.
     */
    readonly preview = false,
    private readonly aliases = { count: 0 },
    /** Code's read: private attributes and passwords are answered too (ReadSpec.withPrivate). */
    readonly withPrivate = false,
    /** Populated relations read every version their links name (ReadSpec.everyLinkedVersion). */
    readonly everyLinkedVersion = false,
  ) {}

  alias(prefix = 't'): string {
    return `${prefix}${this.aliases.count++}`;
  }

  /** The same compilation, reading another version below this point (a populate node's own `status`). */
  withStatus(status: Status, preview = false): CompileContext {
    if (status === this.status && preview === this.preview) return this;
    return new CompileContext(this.model, this.dialect, status, preview, this.aliases, this.withPrivate, this.everyLinkedVersion);
  }

  /** A fresh compilation of the same model and dialect (a subquery with aliases of its own). */
  fresh(status: Status): CompileContext {
    return new CompileContext(this.model, this.dialect, status, false, undefined, this.withPrivate, this.everyLinkedVersion);
  }

  /** Strapi's SQLite stores datetimes as milliseconds since the epoch (an INTEGER). */
  private get datetimesAsMillis(): boolean {
    return this.dialect.name === 'sqlite';
  }

  /** A column's value as JSON (see SqlDialect.jsonValue), datetimes in ISO form whatever the layout stores. */
  jsonValue(column: string, type: ColumnType): string {
    if (this.datetimesAsMillis && (type === 'datetime' || type === 'timestamp')) {
      // datetime() with 'subsec' costs half of strftime() + printf() (it is the hot part of a large page: 4,500
      // dates in bench/'s scenario c) and is exact to the millisecond: 'unixepoch' rounds seconds * 1000 to the
      // nearest millisecond before formatting (SQLite >= 3.42; better-sqlite3 bundles a later one).
      return `CASE WHEN typeof(${column}) = 'integer' THEN replace(datetime(${column} / 1000.0, 'unixepoch', 'subsec'), ' ', 'T') || 'Z' ELSE ${column} END`;
    }
    return this.dialect.jsonValue(column, type);
  }

  /** A value bound for comparison with a column of `type` (see SqlDialect.bindValue), in the layout's form. */
  bindValue(value: unknown, type: ColumnType): unknown {
    return layoutBindValue(this.dialect, value, type);
  }

  /** `alias.column`, quoted. */
  col(alias: string, column: string): string {
    return `${alias}.${this.dialect.quote(column)}`;
  }

  table(name: string): string {
    return this.dialect.quote(name);
  }
}

/**
 * A value bound for a column of `type` in the layout's stored form: what filters compare with and what the row
 * store writes. Strapi's SQLite keeps datetimes as INTEGER milliseconds since the epoch; everything else is the
 * dialect's own binding (SqlDialect.bindValue).
 */
export function layoutBindValue(dialect: SqlDialect, value: unknown, type: ColumnType): unknown {
  if (dialect.name === 'sqlite' && (type === 'datetime' || type === 'timestamp')) {
    return Array.isArray(value) ? value.map(epochMillis) : epochMillis(value);
  }
  return dialect.bindValue(value, type);
}

/** An ISO datetime (as filters carry it) as milliseconds since the epoch; anything else as it is. */
function epochMillis(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string') return value;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? value : millis;
}
