import type { ContentType, Model } from '../../model/types.js';
import type { ReadSpec } from '../../query/types.js';
import type { DialectName } from '../types.js';
import { compileRead, type CompiledRead } from './compile-read.js';
import { readShape, type ReadShape } from './read-shape.js';
import { fillSlots, Slot } from './slots.js';

/** SQL text and the values it binds, ready to run. */
export interface BoundStatement {
  sql: string;
  params: unknown[];
}

export interface BoundRead {
  data: BoundStatement;
  /** The total, when the spec asks for it. */
  count?: BoundStatement;
}

/** Shapes kept per app: far more than an app's distinct request shapes, small enough to never matter. */
const DEFAULT_CAPACITY = 500;

/**
 * Compiled read statements by query shape (see read-shape.ts): `filters[name][$eq]=Ann` and `=Bob` compile
 * once and run the same SQL text with different parameters, so the driver's prepared statement is reused
 * too. Least recently used shapes go first when the cache is full.
 */
export class ReadStatements {
  private readonly compiled = new Map<string, CompiledRead>();
  /** Specs are immutable and REST reuses them per query string: their shape is worked out once. */
  private readonly shapes = new WeakMap<ReadSpec, ReadShape>();
  private compilationCount = 0;

  constructor(
    private readonly model: Model,
    private readonly dialect: DialectName,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** How many statements were compiled (a shape seen again is not compiled again). */
  get compilations(): number {
    return this.compilationCount;
  }

  /** Shapes held now. */
  get size(): number {
    return this.compiled.size;
  }

  /** A list read: the entries' statement and, when asked for, the count's. */
  list(contentType: ContentType, spec: ReadSpec): BoundRead {
    const shape = this.shapeOf(spec);
    const compiled = this.lookup(`list\u0000${contentType.uid}\u0000${shape.key}`, () => compileRead(this.model, this.dialect, contentType, shape.spec));
    return {
      data: bind(compiled.data, shape.values),
      count: compiled.count && bind(compiled.count, shape.values),
    };
  }

  /** One entry: the document `documentId`, or the first entry of the spec's rows when it is undefined. */
  one(contentType: ContentType, spec: ReadSpec, documentId: string | undefined): BoundStatement {
    const shape = this.shapeOf(spec);
    if (documentId === undefined) {
      const compiled = this.lookup(`first\u0000${contentType.uid}\u0000${shape.key}`, () => compileRead(this.model, this.dialect, contentType, shape.spec));
      return bind(compiled.data, shape.values);
    }
    // The documentId takes the slot after the spec's own values.
    const slot = new Slot(shape.values.length);
    const compiled = this.lookup(`one\u0000${contentType.uid}\u0000${shape.key}`, () =>
      compileRead(this.model, this.dialect, contentType, shape.spec, { documentId: slot }),
    );
    return bind(compiled.data, [...shape.values, documentId]);
  }

  private shapeOf(spec: ReadSpec): ReadShape {
    let shape = this.shapes.get(spec);
    if (!shape) {
      shape = readShape(spec);
      this.shapes.set(spec, shape);
    }
    return shape;
  }

  private lookup(key: string, compile: () => CompiledRead): CompiledRead {
    let compiled = this.compiled.get(key);
    if (compiled) {
      // Most recently used last: Map keeps insertion order, so the first key is the least recently used.
      this.compiled.delete(key);
      this.compiled.set(key, compiled);
      return compiled;
    }
    compiled = compile();
    this.compilationCount++;
    if (this.compiled.size >= this.capacity) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, compiled);
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
    statements = new ReadStatements(model, dialect);
    perModel.set(model, statements);
  }
  return statements;
}
