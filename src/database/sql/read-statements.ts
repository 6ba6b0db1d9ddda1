import type { ContentType, Model } from '../../model/types.js';
import type { ReadSpec } from '../../query/types.js';
import type { DialectName } from '../types.js';
import { compileRead, type CompiledRead } from './compile-read.js';
import { readShape, type ReadShape } from './read-shape.js';
import { fillSlots, Slot } from './slots.js';
import { BoundedCache } from '../bounded-cache.js';
import type { RememberedTotal } from './dialect.js';

/** SQL text and the values it binds, ready to run. */
export interface BoundStatement {
  sql: string;
  params: unknown[];
}

export interface BoundRead {
  data: BoundStatement;
  /** The total, when the spec asks for it. */
  count?: BoundStatement;
  /** When `data` took remembered totals: how a row's total column reads (the total and the stamps it was counted at). */
  unpackTotal?: (value: unknown) => RememberedTotal;
  /** Keeps a total read with `unpackTotal` for the next request (when the request's values can key it). */
  remember?: (total: RememberedTotal) => void;
}

/** A list row's total column. */
export interface TotalRow {
  total?: unknown;
}

/** A total and the stamps of the connection when it was counted. */
type Stamped = readonly [version: unknown, changes: unknown, total: unknown];

/** Totals kept per list statement (by its request values; the statements themselves go with the shape cache). */
const TOTAL_VALUES = 64;
const UNKNOWN: Stamped = [null, null, null];

/**
 * The totals of list reads on one connection, each with the stamps it was counted at (SqlDialect.rememberedTotal),
 * by statement and request values. Only reads outside transactions keep theirs: a total counted inside one may see
 * rows that a rollback takes back, and the connection's stamps would not tell.
 */
export class RememberedTotals {
  private readonly byStatement = new WeakMap<CompiledRead, BoundedCache<Stamped>>();

  get(compiled: CompiledRead, key: string): Stamped {
    return this.byStatement.get(compiled)?.get(key) ?? UNKNOWN;
  }

  set(compiled: CompiledRead, key: string, stamped: Stamped): void {
    let totals = this.byStatement.get(compiled);
    if (!totals) this.byStatement.set(compiled, (totals = new BoundedCache(TOTAL_VALUES)));
    totals.set(key, stamped);
  }
}

/** The key of a request's values: their JSON when they are plain (strings, finite numbers, booleans, nulls, arrays of them). */
function valuesKey(values: readonly unknown[]): string | undefined {
  const plain = (value: unknown): boolean =>
    value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) || (Array.isArray(value) && value.every(plain));
  return values.every(plain) ? JSON.stringify(values) : undefined;
}

/** Shapes kept per app: far more than an app's distinct request shapes, small enough to never matter. */
const DEFAULT_CAPACITY = 500;

/** What was worked out for one spec object: its shape, and its statements once compiled. */
interface SpecReads {
  contentType: ContentType;
  shape: ReadShape;
  list?: CompiledRead;
  first?: CompiledRead;
  one?: CompiledRead;
}

/**
 * Compiled read statements by query shape (see read-shape.ts): `filters[name][$eq]=Ann` and `=Bob` compile
 * once and run the same SQL text with different parameters, so the driver's prepared statement is reused
 * too. Least recently used shapes go first when the cache is full.
 *
 * Specs are immutable, and REST and GraphQL reuse one spec object per query: each spec object remembers its
 * shape and statements, so a repeated request neither builds a shape key nor looks it up.
 */
export class ReadStatements {
  private readonly compiled: BoundedCache<CompiledRead>;
  private readonly specs = new WeakMap<ReadSpec, SpecReads>();
  private compilationCount = 0;

  constructor(
    private readonly model: Model,
    private readonly dialect: DialectName,
    capacity = DEFAULT_CAPACITY,
  ) {
    this.compiled = new BoundedCache(capacity);
  }

  /** How many statements were compiled (a shape seen again is not compiled again). */
  get compilations(): number {
    return this.compilationCount;
  }

  /** Shapes held now. */
  get size(): number {
    return this.compiled.size;
  }

  /**
   * A list read: the entries' statement and, when asked for, the count's. Where the dialect remembers totals
   * (SqlDialect.rememberedTotal), `totals` holds the connection's: without them (in a transaction) the total is counted.
   */
  list(contentType: ContentType, spec: ReadSpec, totals?: RememberedTotals): BoundRead {
    const reads = this.readsOf(contentType, spec);
    const { values } = reads.shape;
    const compiled = (reads.list ??= this.lookup(`list\u0000${contentType.uid}\u0000${reads.shape.key}`, () =>
      compileRead(this.model, this.dialect, contentType, reads.shape.spec, { rememberedTotal: new Slot(values.length) }),
    ));
    const count = compiled.count && bind(compiled.count, values);
    const unpackTotal = compiled.remembersTotal;
    if (!unpackTotal) return { data: bind(compiled.data, values), count };
    const key = totals && valuesKey(values);
    if (key === undefined) return { data: bind(compiled.data, [...values, ...UNKNOWN]), count, unpackTotal };
    return {
      data: bind(compiled.data, [...values, ...totals!.get(compiled, key)]),
      count,
      unpackTotal,
      remember: ({ version, changes, total }) => totals!.set(compiled, key, [version, changes, total]),
    };
  }

  /** One entry: the document `documentId`, or the first entry of the spec's rows when it is undefined. */
  one(contentType: ContentType, spec: ReadSpec, documentId: string | undefined): BoundStatement {
    const reads = this.readsOf(contentType, spec);
    const { key, spec: shapeSpec, values } = reads.shape;
    if (documentId === undefined) {
      const compiled = (reads.first ??= this.lookup(`first\u0000${contentType.uid}\u0000${key}`, () => compileRead(this.model, this.dialect, contentType, shapeSpec)));
      return bind(compiled.data, values);
    }
    // The documentId takes the slot after the spec's own values.
    const compiled = (reads.one ??= this.lookup(`one\u0000${contentType.uid}\u0000${key}`, () =>
      compileRead(this.model, this.dialect, contentType, shapeSpec, { documentId: new Slot(values.length) }),
    ));
    return bind(compiled.data, [...values, documentId]);
  }

  private readsOf(contentType: ContentType, spec: ReadSpec): SpecReads {
    let reads = this.specs.get(spec);
    // A spec is built for one content-type; one used with another (never, in Cairn) is simply not remembered.
    if (reads?.contentType === contentType) return reads;
    reads = { contentType, shape: readShape(spec) };
    if (!this.specs.has(spec)) this.specs.set(spec, reads);
    return reads;
  }

  private lookup(key: string, compile: () => CompiledRead): CompiledRead {
    let compiled = this.compiled.get(key);
    if (!compiled) {
      compiled = compile();
      this.compilationCount++;
      this.compiled.set(key, compiled);
    }
    return compiled;
  }
}

function bind(statement: { sql: string; params: readonly unknown[] }, values: readonly unknown[]): BoundStatement {
  return { sql: statement.sql, params: fillSlots(statement.params, values) };
}

const perModel = new WeakMap<Model, ReadStatements>();

/** The read statement cache of an app (one per model: two apps in one process never share statements). */
export function readStatements(model: Model, dialect: DialectName): ReadStatements {
  let statements = perModel.get(model);
  if (!statements) {
    statements = new ReadStatements(model, dialect, DEFAULT_CAPACITY);
    perModel.set(model, statements);
  }
  return statements;
}
