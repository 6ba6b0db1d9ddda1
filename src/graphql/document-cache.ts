/**
 * Parsed and validated documents per query text, bounded by what they hold rather than by their number alone: a
 * parsed document keeps its tokens and nodes, about 50 times its text (a 48 KB query of 10,000 tokens holds
 * 2.6 MB), so 500 distinct large queries held 1.3 GB. A text longer than `maxEntryChars` is never kept (it is parsed
 * again each time, which costs what reading it costs), and the texts kept add up to `maxTotalChars` at most, the
 * oldest going first. Queries that apps send again and again are short: they all stay.
 */
export class DocumentCache<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxTotalChars: number,
    private readonly maxEntryChars: number,
  ) {}

  get(source: string): V | undefined {
    return this.entries.get(source);
  }

  set(source: string, value: V): void {
    if (source.length > this.maxEntryChars || this.entries.has(source)) return;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.chars + source.length > this.maxTotalChars)) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    this.entries.set(source, value);
    this.chars += source.length;
  }

  /** Entries and characters held now. */
  get size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }
}
