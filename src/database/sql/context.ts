import type { Model } from '../../model/types.js';
import type { Status } from '../../query/types.js';
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
  ) {}

  alias(prefix = 't'): string {
    return `${prefix}${this.aliases.count++}`;
  }

  /** The same compilation, reading another version below this point (a populate node's own `status`). */
  withStatus(status: Status, preview = false): CompileContext {
    if (status === this.status && preview === this.preview) return this;
    return new CompileContext(this.model, this.dialect, status, preview, this.aliases);
  }

  /** `alias.column`, quoted. */
  col(alias: string, column: string): string {
    return `${alias}.${this.dialect.quote(column)}`;
  }

  table(name: string): string {
    return this.dialect.quote(name);
  }
}
