/**
 * A piece of SQL with the values it binds, in order. Fragments concatenate with their values, so the order
 * of `?` placeholders and bound values can never drift apart however the compiler assembles a statement.
 */
export interface Frag {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export function frag(sql: string, params: readonly unknown[] = []): Frag {
  return { sql, params };
}

/** Join fragments with a separator. */
export function join(parts: readonly Frag[], separator: string): Frag {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/** Template tag: strings are SQL, interpolated Frags are spliced with their values, strings are raw SQL. */
export function sql(strings: TemplateStringsArray, ...values: Array<Frag | string>): Frag {
  let text = strings[0];
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (typeof value === 'string') text += value;
    else {
      text += value.sql;
      params.push(...value.params);
    }
    text += strings[i + 1];
  });
  return { sql: text, params };
}

export const EMPTY: Frag = frag('');
