/** `?` placeholders become `$1, $2...` for PostgreSQL; a `?` inside a quoted literal stays. */
export function toPostgresPlaceholders(text: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === '?') out += `$${++n}`;
    else out += c;
  }
  return out;
}
