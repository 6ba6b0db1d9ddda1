import type { Ledger, OpRecord } from './ledger.js';
import { seconds } from './ledger.js';
import type { Entry, Snapshot } from './snapshot.js';
import { describeTagOp } from './workload.js';
import type { CategoryConnect, PrivateArticle, PrivateState, SharedArticle, SharedWrite, Version, World } from './world.js';

export type ViolationKind = 'lost' | 'duplicated' | 'misordered' | 'partial' | 'inconsistent' | '5xx' | 'crash' | 'recovery';

export interface Violation {
  kind: ViolationKind;
  /** The same problem seen again (another process, a later check) has the same key and counts once. */
  key: string;
  lines: string[];
}

const applied = (op: OpRecord) => op.outcome !== 'rejected';

/**
 * The events that may be the last applied one: possibly applied (acknowledged or not) and not followed by an
 * acknowledged event sent after they ended (that one was certainly applied after them).
 */
function lastCandidates<T extends { op: OpRecord }>(events: T[]): T[] {
  const possible = events.filter((e) => applied(e.op));
  let lastAckSent = -Infinity;
  for (const e of possible) if (e.op.outcome === 'ack') lastAckSent = Math.max(lastAckSent, e.op.sentAt);
  return possible.filter((e) => !(lastAckSent > e.op.endAt));
}

/** Checks one process's snapshot against the ledger. */
export class Evaluation {
  readonly violations: Violation[] = [];
  private readonly drafts = new Map<string, Entry>();
  private readonly published = new Map<string, Entry>();
  private readonly tagNames = new Map<string, string>();

  constructor(
    private readonly world: World,
    private readonly ledger: Ledger,
    private readonly snap: Snapshot,
  ) {
    for (const e of snap.drafts) this.drafts.set(e.documentId, e);
    for (const e of snap.published) this.published.set(e.documentId, e);
    for (const t of world.tags) if (t.documentId) this.tagNames.set(t.documentId, t.name);
  }

  run(): Violation[] {
    this.versionRows();
    for (const article of this.world.shared) this.sharedArticle(article);
    this.privateArticles();
    this.tags();
    this.categories();
    return this.violations;
  }

  private add(kind: ViolationKind, key: string, ...lines: string[]) {
    this.violations.push({ kind, key: `${kind}:${key}`, lines });
  }

  private op(op: OpRecord | undefined): string {
    return op ? this.ledger.describe(op) : '(none)';
  }

  private names(ids: string[]): string {
    return `[${ids.map((id) => this.tagNames.get(id) ?? id).join(', ')}]`;
  }

  /** A document has at most one draft and one published version: a second row of either is a write applied twice. */
  private versionRows() {
    for (const [side, entries] of [['draft', this.snap.drafts], ['published', this.snap.published]] as const) {
      const seen = new Map<string, number>();
      for (const e of entries) seen.set(e.documentId, (seen.get(e.documentId) ?? 0) + 1);
      for (const [documentId, n] of seen) {
        if (n < 2) continue;
        const rows = entries.filter((e) => e.documentId === documentId);
        this.add('duplicated', `rows:${documentId}:${side}`, `article ${rows[0].ref} (${documentId}) has ${n} ${side} versions: titles ${rows.map((r) => JSON.stringify(r.title)).join(', ')}`);
      }
    }
  }

  // --- shared articles --------------------------------------------------------------------------------------

  private sharedArticle(a: SharedArticle) {
    const label = `shared article ${a.index} (${a.documentId})`;
    const draft = this.drafts.get(a.documentId);
    const pub = this.published.get(a.documentId);
    if (!draft || !pub) {
      this.add('lost', `shared-missing:${a.index}`, `${label}: its ${draft ? 'published version' : 'draft'} is gone (it is never deleted nor unpublished)`);
      return;
    }
    const byTitle = new Map(a.writes.map((w) => [w.title, w]));
    const reported = this.violations.length;
    const found = this.sharedVersion(a, label, 'draft', draft, byTitle);
    const foundPub = this.sharedVersion(a, label, 'published', pub, byTitle);
    if (!found || !foundPub) return;
    const list = draft.tags.map((t) => t.documentId);
    const pubList = pub.tags.map((t) => t.documentId);
    const clean = this.violations.length === reported;
    // The published version is a copy of the draft as it was: the items both have come in the same order.
    const inPub = new Set(pubList);
    const inDraft = new Set(list);
    const common = list.filter((t) => inPub.has(t));
    const pubCommon = pubList.filter((t) => inDraft.has(t));
    if (common.join() !== pubCommon.join()) {
      const at = common.findIndex((t, i) => t !== pubCommon[i]);
      this.add('misordered', `pub-order:${a.index}`, `${label}: the published tag list orders the items it shares with the draft differently, from position ${at}:`,
        `  draft:     ${this.names(common.slice(Math.max(0, at - 2), at + 5))}`, `  published: ${this.names(pubCommon.slice(Math.max(0, at - 2), at + 5))}`);
    }
    // The last write published (both show its title): the published version must equal the draft.
    if (draft.title === pub.title && clean) {
      const category = (e: Entry) => e.category?.documentId ?? null;
      if (list.join() !== pubList.join() || category(draft) !== category(pub)) {
        const kind = list.length === pubList.length && common.length === list.length && category(draft) === category(pub) ? 'misordered' : 'lost';
        this.add(kind, `pub-equal:${a.index}`, `${label}: its last write (${draft.title}) published, yet the published version differs from the draft:`,
          `  draft:     category ${category(draft)}, tags ${this.names(list)}`, `  published: category ${category(pub)}, tags ${this.names(pubList)}`);
      }
    }
  }

  /**
   * One version of a shared article. Its title names the write it shows (titles are unique): that write must be
   * one that may have been applied last, its category the one of the last write or inverse-side connect, and its
   * tag list what the writes before it left, in an order their acknowledgements imply.
   */
  private sharedVersion(a: SharedArticle, label: string, side: 'draft' | 'published', entry: Entry, byTitle: Map<string, SharedWrite>): boolean {
    const shown = byTitle.get(entry.title);
    const at = `${label} (${side})`;
    if (!shown || (side === 'published' && !shown.publish)) {
      this.add('inconsistent', `title:${a.index}:${side}`, `${at} shows title "${entry.title}", which no ${side === 'published' ? 'publishing ' : ''}write of it set${shown ? `: ${this.op(shown.op)}` : ''}`);
      return false;
    }
    if (shown.op.outcome === 'rejected') this.add('partial', `rejected-title:${a.index}:${side}`, `${at} shows the title of a rejected write: ${this.op(shown.op)}`);
    const writes = side === 'draft' ? a.writes : a.writes.filter((w) => w.publish);
    const candidates = lastCandidates(writes);
    if (shown.op.outcome !== 'rejected' && !candidates.includes(shown)) {
      const later = writes.filter((w) => w.op.outcome === 'ack' && w.op.sentAt > shown.op.endAt).sort((x, y) => x.op.sentAt - y.op.sentAt)[0];
      this.add('lost', `title:${a.index}:${side}:${later.title}`, `${at} shows the title of`, `  ${this.op(shown.op)}`, `  but this acknowledged write, sent after that one was answered, is not visible:`, `  ${this.op(later.op)}`);
    }
    // Category: the shown write's own, or that of an inverse-side connect that may have come after it.
    const events: Array<{ op: OpRecord; category: string | null; connect?: CategoryConnect }> = [
      { op: shown.op, category: shown.category },
      ...a.connects.filter((c) => applied(c.op) && c.op.endAt >= shown.op.sentAt).map((c) => ({ op: c.op, category: c.category, connect: c })),
    ];
    const allowed = lastCandidates(events);
    const category = entry.category?.documentId ?? null;
    if (!allowed.some((e) => e.category === category)) {
      this.add('lost', `category:${a.index}:${side}`, `${at}: category ${category}, expected ${[...new Set(allowed.map((e) => e.category))].join(' or ')}; the ${side} shows`, `  ${this.op(shown.op)}`,
        ...allowed.filter((e) => e.connect).map((e) => `  possible later inverse-side write: ${this.op(e.op)}`),
        ...(category !== null && category !== shown.category ? a.connects.filter((c) => c.category === category).slice(-2).map((c) => `  earlier inverse-side write: ${this.op(c.op)}`) : []));
    }
    this.sharedTags(a, at, side, entry, shown);
    return true;
  }

  private sharedTags(a: SharedArticle, at: string, side: string, entry: Entry, shown: SharedWrite) {
    const list = entry.tags.map((t) => t.documentId);
    const counts = new Map<string, number>();
    for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [tag, n] of counts) {
      if (n > 1) this.add('duplicated', `tag-twice:${a.index}:${side}:${tag}`, `${at}: tag ${this.names([tag])} is in the list ${n} times; connected by ${this.op(a.items.get(tag)?.insert.op)}`);
      if (!a.items.has(tag)) this.add('inconsistent', `unknown-tag:${a.index}:${side}:${tag}`, `${at}: tag ${this.names([tag])} is in the list, but no write connected it`);
    }
    const present = new Set(list);
    // Certainly applied before (or by) the write the version shows / certainly after it.
    const before = (w: SharedWrite) => w === shown || w.op.endAt < shown.op.sentAt;
    const after = (w: SharedWrite) => w !== shown && w.op.sentAt > shown.op.endAt;
    const tagKey = (tag: string) => `${a.index}:${side}:${tag}`;
    for (const item of a.items.values()) {
      const has = present.has(item.tag);
      const insert = item.insert;
      const disconnect = item.disconnect && applied(item.disconnect.op) ? item.disconnect : undefined;
      const name = this.names([item.tag]);
      if (insert.op.outcome === 'rejected') {
        if (has) this.add('partial', `rejected:${tagKey(item.tag)}`, `${at}: ${name} is in the list, though the write connecting it was rejected: ${this.op(insert.op)}`);
        continue;
      }
      if (side === 'draft' && insert.op.outcome === 'ack' && !disconnect && !has) {
        this.add('lost', `missing:${tagKey(item.tag)}`, `${at}: ${name} is missing; acknowledged connect, never disconnected: ${this.op(insert.op)}`);
        continue;
      }
      if (side === 'draft' && disconnect?.op.outcome === 'ack' && has) {
        this.add('lost', `kept:${tagKey(item.tag)}`, `${at}: ${name} is still in the list after an acknowledged disconnect: ${this.op(disconnect.op)}`);
        continue;
      }
      if (insert === shown && !has && !(disconnect && !after(disconnect))) {
        this.add(insert.op.outcome === 'ack' ? 'lost' : 'partial', `own:${tagKey(item.tag)}`, `${at} shows the title of the write that connected ${name}, but not the tag: ${this.op(insert.op)}`);
        continue;
      }
      if (disconnect === shown && has) {
        this.add(disconnect.op.outcome === 'ack' ? 'lost' : 'partial', `own:${tagKey(item.tag)}`, `${at} shows the title of the write that disconnected ${name}, but still has the tag: ${this.op(disconnect.op)}`);
        continue;
      }
      if (has && after(insert)) {
        // Connected by a write applied after the one whose title shows: the title of that write (or a later one) should show.
        if (side === 'draft' && insert.op.outcome === 'ack') continue; // the title check reports this one
        this.add(side === 'draft' ? 'partial' : 'inconsistent', `after:${tagKey(item.tag)}`, `${at} shows ${name}, connected by a write sent after the write whose title it shows answered:`,
          `  connected by: ${this.op(insert.op)}`, `  title of:     ${this.op(shown.op)}`);
        continue;
      }
      if (side === 'published' && !has && insert.op.outcome === 'ack' && before(insert) && !(disconnect && !after(disconnect))) {
        this.add('lost', `missing:${tagKey(item.tag)}`, `${at}: ${name} is missing; it was connected (acknowledged) before the publish the version shows, and never disconnected before it:`,
          `  connected by: ${this.op(insert.op)}`, `  published by: ${this.op(shown.op)}`);
        continue;
      }
      if (side === 'published' && has && disconnect?.op.outcome === 'ack' && before(disconnect)) {
        this.add('lost', `kept:${tagKey(item.tag)}`, `${at}: ${name} is still there; its acknowledged disconnect came before the publish the version shows:`,
          `  disconnected by: ${this.op(disconnect.op)}`, `  published by:    ${this.op(shown.op)}`);
      }
    }
    const disorder = this.orderProblem(a, list);
    if (disorder) this.add('misordered', `order:${a.index}:${side}`, `${at}: the tag list is out of the order the acknowledged writes imply (${list.length} items):`, ...disorder.map((l) => `  ${l}`));
  }

  /**
   * An item connected at the end comes after every item acknowledged before it was sent; at the start, before
   * them; before/after an anchor, on that side of it with no such item in between. Each tag enters a list once,
   * and nothing moves items, so these hold on every version of the list, whatever else came concurrently.
   */
  private orderProblem(a: SharedArticle, list: string[]): string[] | null {
    const pos = new Map(list.map((t, i) => [t, i]));
    const problems: string[] = [];
    const show = (tag: string) => `${this.names([tag])}@${pos.get(tag)}`;
    for (const y of list) {
      const insert = a.items.get(y)?.insert;
      const op = insert?.tagOp;
      if (!insert || !op || op.kind === 'disconnect') continue;
      const py = pos.get(y)!;
      const earlier = list.filter((x) => {
        const w = a.items.get(x)?.insert;
        return x !== y && w !== undefined && w.op.outcome === 'ack' && w.op.endAt < insert.op.sentAt;
      });
      const because = (x: string) => `${show(x)} was acknowledged (op#${a.items.get(x)!.insert.op.id} at ${seconds(a.items.get(x)!.insert.op.endAt)}) before ${show(y)} was sent (op#${insert.op.id} at ${seconds(insert.op.sentAt)}, ${describeTagOp(op)})`;
      if (op.kind === 'end') {
        for (const x of earlier) if (pos.get(x)! > py) problems.push(`${because(x)}, yet comes after it`);
        for (const x of op.tags.slice(0, op.tags.indexOf(y))) if (pos.has(x) && pos.get(x)! > py) problems.push(`${show(x)} comes after ${show(y)}, connected after it at the end in the same request op#${insert.op.id}`);
      } else if (op.kind === 'start') {
        for (const x of earlier) if (pos.get(x)! < py) problems.push(`${because(x)}, yet comes before it (connected at the start)`);
      } else if (pos.has(op.anchor)) {
        const pa = pos.get(op.anchor)!;
        if (op.kind === 'before' ? py > pa : py < pa) problems.push(`${show(y)} was connected ${op.kind} ${show(op.anchor)} (op#${insert.op.id}) but is not`);
        else {
          const [lo, hi] = py < pa ? [py, pa] : [pa, py];
          for (const z of earlier) {
            const pz = pos.get(z)!;
            if (z !== op.anchor && pz > lo && pz < hi) problems.push(`${because(z)}, yet lies between it and its anchor ${show(op.anchor)}`);
          }
        }
      }
      if (problems.length >= 3) break;
    }
    return problems.length ? problems : null;
  }

  // --- private articles -------------------------------------------------------------------------------------

  private privateArticles() {
    const byRef = new Map<string, Entry[]>();
    for (const e of this.snap.drafts) byRef.set(e.ref, [...(byRef.get(e.ref) ?? []), e]);
    const publishedRefs = new Map<string, Entry[]>();
    for (const e of this.snap.published) publishedRefs.set(e.ref, [...(publishedRefs.get(e.ref) ?? []), e]);
    for (const e of this.snap.published) {
      if (!this.drafts.has(e.documentId)) this.add('inconsistent', `orphan:${e.documentId}`, `article ${e.ref} (${e.documentId}) has a published version but no draft`);
    }
    for (const client of this.world.clients) {
      for (const article of client.articles) {
        const rows = byRef.get(article.ref) ?? [];
        if (rows.length > 1) {
          this.add('duplicated', `ref:${article.ref}`, `ref ${article.ref} exists ${rows.length} times (${rows.map((r) => r.documentId).join(', ')}); its requests:`, ...article.history.slice(0, 4).map((op) => `  ${this.op(op)}`));
          continue;
        }
        if (article.untracked) continue;
        this.privateArticle(article, rows[0]);
      }
    }
  }

  private version(e: Entry | undefined): Version | null {
    if (!e) return null;
    return { title: e.title, tags: e.tags.map((t) => t.documentId), category: e.category?.documentId ?? null, related: e.related.map((r) => r.documentId) };
  }

  /** A related article's version of that side exists: yes, no, or maybe (its own fate is uncertain). */
  private linkShown(documentId: string, side: 'draft' | 'published'): 'yes' | 'no' | 'maybe' {
    const target = this.world.byDocumentId.get(documentId);
    if (!target || target.untracked) return 'maybe';
    const has = target.states.map((s) => s.exists && (side === 'draft' || s.published !== null));
    return has.every(Boolean) ? 'yes' : has.some(Boolean) ? 'maybe' : 'no';
  }

  /** The draft's related list shows the links written, in order, less the articles deleted. */
  private relatedMatch(expected: string[], seen: string[], side: 'draft' | 'published'): boolean {
    let i = 0;
    for (const id of expected) {
      const shown = this.linkShown(id, side);
      if (seen[i] === id && shown !== 'no') i++;
      else if (shown === 'yes') return false;
    }
    return i === seen.length;
  }

  /**
   * Whether article `documentId` certainly had a published version from `from` on, to the end: an acknowledged
   * publish answered before `from`, and no unpublish or delete that may have been applied after that publish began.
   */
  private publishedThroughout(documentId: string, from: number): boolean {
    const target = this.world.byDocumentId.get(documentId);
    if (!target || target.untracked) return false;
    const events = target.versionEvents.filter((e) => applied(e.op));
    const removals = events.filter((e) => e.effect !== 'published');
    return events.some(
      (p) => p.effect === 'published' && p.op.outcome === 'ack' && p.op.endAt < from && removals.every((r) => r.op.outcome === 'ack' && r.op.endAt < p.op.sentAt),
    );
  }

  /**
   * What a published version's related list must and may hold under Strapi's rules (docs/strapi-5-writes.md 3, 4).
   * Must: every article its draft related when it was published that certainly had a published version then and
   * kept one since (a re-publish of that article keeps the link). May: those and every article its draft related
   * since (publishing one mirrors the draft's link), as long as that article may still have a published version.
   */
  private publishedRelated(expected: Version): { required: string[]; allowed: Set<string> } {
    const since = expected.since ?? Infinity;
    const required = expected.related.filter((id) => this.publishedThroughout(id, since));
    const allowed = new Set([...expected.related, ...(expected.mayRelate ?? [])].filter((id) => this.linkShown(id, 'published') !== 'no'));
    return { required, allowed };
  }

  /** The published related list: each required article once, nothing that is not allowed. Order is not checked (see below). */
  private publishedRelatedMatch(expected: Version, seen: string[]): boolean {
    // Strapi's mirroring sets a mirrored link's order to the draft link's value, so the published order of a self
    // relation follows no single write: only membership is checked here.
    const { required, allowed } = this.publishedRelated(expected);
    if (new Set(seen).size !== seen.length) return false;
    return required.every((id) => seen.includes(id)) && seen.every((id) => allowed.has(id));
  }

  private versionMismatch(expected: Version | null, seen: Version | null, side: 'draft' | 'published'): string[] {
    if (!expected || !seen) return expected === seen ? [] : [expected ? 'missing' : 'unexpected'];
    const problems: string[] = [];
    if (expected.title !== seen.title) problems.push('title');
    if (expected.tags.join() !== seen.tags.join()) problems.push([...expected.tags].sort().join() === [...seen.tags].sort().join() ? 'tag order' : 'tags');
    if (expected.category !== seen.category) problems.push('category');
    const related = side === 'draft' ? this.relatedMatch(expected.related, seen.related, side) : this.publishedRelatedMatch(expected, seen.related);
    if (!related) problems.push('related');
    return problems;
  }

  private stateMismatch(expected: PrivateState, seen: PrivateState): string[] {
    if (expected.exists !== seen.exists) return ['existence'];
    if (!expected.exists) return [];
    return [...this.versionMismatch(expected.draft, seen.draft, 'draft').map((p) => `draft ${p}`), ...this.versionMismatch(expected.published, seen.published, 'published').map((p) => `published ${p}`)];
  }

  private showVersion(v: Version | null, side: 'draft' | 'published' | 'seen' = 'seen'): string {
    if (!v) return 'none';
    let related = `related [${v.related.join(', ')}]`;
    if (side === 'published') {
      const { required, allowed } = this.publishedRelated(v);
      related = `related: must have [${required.join(', ')}], may have [${[...allowed].join(', ')}] (published when the draft related [${v.related.join(', ')}])`;
    }
    return `title "${v.title}", tags ${this.names(v.tags)}, category ${v.category}, ${related}`;
  }

  private privateArticle(article: PrivateArticle, row: Entry | undefined) {
    const seen: PrivateState = { exists: !!row, draft: this.version(row), published: row ? this.version(this.published.get(row.documentId)) : null };
    if (row && article.documentId && row.documentId !== article.documentId) {
      this.add('inconsistent', `docid:${article.ref}`, `article ${article.ref}: documentId ${row.documentId}, acknowledged as ${article.documentId}`);
      return;
    }
    const mismatches = article.states.map((s) => this.stateMismatch(s, seen));
    if (mismatches.some((m) => m.length === 0)) return;
    const best = mismatches.reduce((b, m, i) => (m.length < mismatches[b].length ? i : b), 0);
    const problems = mismatches[best];
    const expected = article.states[best];
    const uncertain = article.history.some((op) => op.outcome !== 'ack');
    let kind: ViolationKind;
    if (problems[0] === 'existence') {
      const deleteAcked = article.history.some((op) => op.method === 'DELETE' && op.outcome === 'ack');
      kind = seen.exists ? (deleteAcked ? 'lost' : 'partial') : article.states.every((s) => s.exists) ? 'lost' : 'partial';
    } else if (problems.every((p) => p.endsWith('order'))) kind = 'misordered';
    else kind = uncertain ? 'partial' : 'lost';
    this.add(kind, `private:${article.ref}:${problems.join(',')}`, `article ${article.ref} of client ${article.owner} (${row?.documentId ?? article.documentId ?? 'no documentId'}): ${problems.join(', ')} differ from ${article.states.length > 1 ? `all ${article.states.length} possible states; the closest:` : 'the acknowledged state:'}`,
      `  expected: ${expected.exists ? `draft ${this.showVersion(expected.draft)}; published ${this.showVersion(expected.published, 'published')}` : 'absent'}`,
      `  seen:     ${seen.exists ? `draft ${this.showVersion(seen.draft)}; published ${this.showVersion(seen.published)}` : 'absent'}`,
      ...article.history.slice(-4).map((op) => `  ${this.op(op)}`));
  }

  // --- tags and categories ----------------------------------------------------------------------------------

  private tags() {
    const byName = new Map<string, string[]>();
    for (const t of this.snap.tags) byName.set(t.name, [...(byName.get(t.name) ?? []), t.documentId]);
    for (const tag of this.world.tags) {
      const found = byName.get(tag.name) ?? [];
      if (found.length > 1) this.add('duplicated', `tag:${tag.name}`, `tag ${tag.name} exists ${found.length} times; created by ${this.op(tag.create)}`);
      else if (tag.create.outcome === 'ack' && !tag.delete && !found.length) this.add('lost', `tag:${tag.name}`, `tag ${tag.name} is missing; created by ${this.op(tag.create)}`);
      else if (tag.delete?.outcome === 'ack' && found.length) this.add('lost', `tag-delete:${tag.name}`, `tag ${tag.name} still exists after ${this.op(tag.delete)}`);
      else if (tag.create.outcome === 'rejected' && found.length) this.add('partial', `tag:${tag.name}`, `tag ${tag.name} exists, though its create was rejected: ${this.op(tag.create)}`);
    }
  }

  /** The inverse side reads the same links: a category lists exactly the articles whose category it is. */
  private categories() {
    for (const [side, categories, entries] of [
      ['draft', this.snap.categoriesDraft, this.snap.drafts],
      ['published', this.snap.categoriesPublished, this.snap.published],
    ] as const) {
      const listedBy = new Map<string, string[]>();
      for (const category of categories) for (const a of category.articles) listedBy.set(a.documentId, [...(listedBy.get(a.documentId) ?? []), category.name]);
      for (const [documentId, names] of listedBy) {
        const distinct = [...new Set(names)];
        if (distinct.length > 1) this.add('inconsistent', `to-one:${documentId}:${side}`, `article ${documentId} (${side}) is listed by ${distinct.length} categories (${distinct.join(', ')}): its manyToOne category holds several links`);
        else if (names.length > 1) this.add('inconsistent', `listed-twice:${documentId}:${side}`, `article ${documentId} (${side}) is listed ${names.length} times by category ${names[0]} (several ${side} rows of it link it)`);
      }
      for (const category of categories) {
        const listed = category.articles.map((a) => a.documentId).sort();
        const linked = entries.filter((e) => e.category?.documentId === category.documentId).map((e) => e.documentId).sort();
        if (listed.join() !== linked.join()) {
          this.add('inconsistent', `inverse:${category.documentId}:${side}`, `category ${category.name} (${side}) lists articles [${listed.join(', ')}], but the articles naming it are [${linked.join(', ')}]`);
        }
      }
    }
  }
}

/** Processes read one database: their answers must agree. The first difference of each kind is reported. */
export function compareSnapshots(snapshots: Snapshot[]): Violation[] {
  const violations: Violation[] = [];
  const [first, ...others] = snapshots;
  for (const other of others) {
    for (const part of ['drafts', 'published', 'tags', 'categoriesDraft', 'categoriesPublished'] as const) {
      const a = first[part] as unknown[];
      const b = other[part] as unknown[];
      const i = a.findIndex((x, j) => JSON.stringify(x) !== JSON.stringify(b[j]));
      if (i >= 0 || a.length !== b.length) {
        const at = i >= 0 ? i : Math.min(a.length, b.length);
        violations.push({
          kind: 'inconsistent',
          key: `inconsistent:processes:${part}`,
          lines: [`processes ${first.process} and ${other.process} answer differently (${part}, item ${at}):`, `  ${first.process}: ${JSON.stringify(a[at])?.slice(0, 300)}`, `  ${other.process}: ${JSON.stringify(b[at])?.slice(0, 300)}`],
        });
      }
    }
  }
  return violations;
}
