import type { Model } from '../../model/types.js';
import type { Status } from '../../query/types.js';
import type { SqlDialect } from './dialect.js';

/** What every compile step needs: the model, the dialect, the version asked for, and fresh table aliases. */
export class CompileContext {
  private aliasCount = 0;

  constructor(
    readonly model: Model,
    readonly dialect: SqlDialect,
    /** Published or draft: applies to the whole populate tree, as Strapi v5 does. */
    readonly status: Status,
  ) {}

  alias(prefix = 't'): string {
    return `${prefix}${this.aliasCount++}`;
  }

  /** `alias.column`, quoted. */
  col(alias: string, column: string): string {
    return `${alias}.${this.dialect.quote(column)}`;
  }

  table(name: string): string {
    return this.dialect.quote(name);
  }
}
