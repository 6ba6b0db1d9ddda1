import type { Cluster } from './cluster.js';
import type { Gate } from './gate.js';
import { request, type Answer } from './http.js';
import { now, outcomeOf, type Ledger, type OpRecord } from './ledger.js';
import { Random } from './random.js';
import {
  applyTagOp,
  applyToStates,
  copyVersion,
  draftRelated,
  publishedCopy,
  type ClientWorld,
  type PrivateArticle,
  type PrivateState,
  type PrivateTagOp,
  type SharedArticle,
  type SharedItem,
  type SharedTagOp,
  type SharedWrite,
  type TagRecord,
  type Version,
  type World,
} from './world.js';

export interface Env {
  cluster: Cluster;
  ledger: Ledger;
  world: World;
  gate: Gate;
}

type Data = { data: { documentId: string } };
const documentIdOf = (answer: Answer) => (answer.body as Data).data.documentId;

/** A request of a client (or of the setup, client -1) to one of the processes, recorded in the ledger. */
export async function call(env: Env, client: number, rng: Random, method: string, path: string, body: unknown, what: string): Promise<{ op: OpRecord; answer: Answer }> {
  const p = rng.pick(env.cluster.processes)!;
  const incarnation = p.incarnation;
  const sentAt = now();
  const answer = await request(p.base, method, path, body);
  const endAt = now();
  const op = env.ledger.add({
    client,
    process: p.index,
    incarnation,
    method,
    path,
    what,
    sentAt,
    endAt,
    wallEnd: Date.now(),
    outcome: outcomeOf(answer.status),
    status: answer.status,
    error: answer.error,
    write: method !== 'GET',
  });
  return { op, answer };
}

const SHARED_ARTICLES = 4;
const SHARED_CATEGORIES = 3;
const POOL_TAGS = 20;

/** What every client starts from: shared tags, categories and articles, and each client's own categories. */
export async function setup(env: Env, clients: number): Promise<void> {
  const rng = new Random(1);
  const { world } = env;
  const must = async (method: string, path: string, body: unknown, what: string) => {
    for (let attempt = 0; ; attempt++) {
      const { op, answer } = await call(env, -1, rng, method, path, body, what);
      if (op.outcome === 'ack') return { op, answer };
      if (attempt === 4) throw new Error(`setup: ${method} ${path} failed: ${answer.status} ${answer.error}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  for (let i = 0; i < POOL_TAGS; i++) {
    const name = `pool-${i}`;
    const { op, answer } = await must('POST', '/api/tags', { data: { name } }, `create tag ${name}`);
    world.tags.push({ name, documentId: documentIdOf(answer), create: op, owner: null });
    world.pool.push(documentIdOf(answer));
  }
  for (let i = 0; i < SHARED_CATEGORIES; i++) {
    const { answer } = await must('POST', '/api/categories', { data: { name: `shared-${i}` } }, `create shared category ${i}`);
    world.sharedCategories.push(documentIdOf(answer));
    world.categoryOwner.set(documentIdOf(answer), null);
  }
  for (let i = 0; i < SHARED_ARTICLES; i++) {
    const ref = `shared-${i}`;
    const title = `S${i}-init`;
    const { op, answer } = await must('POST', '/api/articles', { data: { title, ref } }, `create shared article ${i} (published)`);
    const write: SharedWrite = { op, title, category: null, publish: true, tagOp: null };
    world.shared.push({ index: i, documentId: documentIdOf(answer), ref, writes: [write], connects: [], items: new Map() });
  }
  for (let c = 0; c < clients; c++) {
    const mine: ClientWorld = { index: c, articles: [], categories: [], scratchTags: [] };
    for (let i = 0; i < 2; i++) {
      const { answer } = await must('POST', '/api/categories', { data: { name: `c${c}-cat${i}` } }, `create category of client ${c}`);
      mine.categories.push(documentIdOf(answer));
      world.categoryOwner.set(documentIdOf(answer), c);
    }
    world.clients.push(mine);
  }
}

const OPERATIONS = {
  sharedWrite: 30,
  categoryConnect: 10,
  create: 12,
  update: 16,
  delete: 3,
  deletePair: 2,
  publishAction: 3,
  privateCategory: 5,
  tags: 5,
  read: 19,
};

/** One client: a loop of operations chosen by its seeded generator, until `stopped()`. */
export class Client {
  private readonly rng: Random;
  private readonly mine: ClientWorld;
  private seq = 0;

  constructor(
    private readonly env: Env,
    readonly index: number,
    seed: number,
  ) {
    this.rng = new Random(seed * 1000 + index + 1);
    this.mine = env.world.clients[index];
  }

  async run(stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      await this.env.gate.enter();
      try {
        if (stopped()) break;
        await this.step();
      } finally {
        this.env.gate.leave();
      }
      await new Promise((r) => setTimeout(r, this.rng.between(20, 100)));
    }
  }

  private call(method: string, path: string, body: unknown, what: string) {
    return call(this.env, this.index, this.rng, method, path, body, what);
  }

  private async step(): Promise<void> {
    const kind = this.rng.weighted(OPERATIONS);
    this.seq++;
    switch (kind) {
      case 'sharedWrite':
        return this.sharedWrite();
      case 'categoryConnect':
        return this.categoryConnect();
      case 'create':
        return this.create();
      case 'update':
        return this.update();
      case 'delete':
        return this.remove();
      case 'deletePair':
        return this.deletePair();
      case 'publishAction':
        return this.publishAction();
      case 'privateCategory':
        return this.privateCategory();
      case 'tags':
        return this.tagOperation();
      case 'read':
        return this.read();
    }
  }

  // --- shared articles: concurrent writers -------------------------------------------------------------------

  /**
   * A pool tag this list never had (a new one is created when the pool has none left for it), booked for `write`
   * at once: a concurrent client must not pick it while this one waits.
   */
  private async freshTag(article: SharedArticle, write: SharedWrite): Promise<string | null> {
    const unused = this.env.world.pool.filter((t) => !article.items.has(t));
    const tag = unused.length ? this.rng.pick(unused)! : await this.createTag(null);
    if (tag === null || article.items.has(tag)) return null;
    article.items.set(tag, { tag, insert: write, anchoring: 0 });
    return tag;
  }

  private async sharedWrite(): Promise<void> {
    const world = this.env.world;
    const article = this.rng.pick(world.shared)!;
    const title = `S${article.index}-c${this.index}-${this.seq}`;
    const category = this.rng.chance(0.25) ? null : this.rng.pick(world.sharedCategories)!;
    const publish = this.rng.chance(0.5);
    const write: SharedWrite = { op: undefined as unknown as OpRecord, title, category, publish, tagOp: null };
    const live = () => [...article.items.values()].filter((i) => i.insert.op?.outcome === 'ack' && !i.disconnect);
    const kind = this.rng.weighted({ end: 40, before: 10, after: 10, start: 5, disconnect: 8 + live().length / 3, none: 15 });
    let body: unknown;
    // Anchors and disconnected items are booked synchronously, before any wait: no concurrent client then
    // disconnects an anchor in use, or disconnects the same item.
    let anchor: SharedItem | undefined;
    if (kind === 'end') {
      const tags: string[] = [];
      for (let n = this.rng.chance(0.25) ? 2 : 1; n > 0; n--) {
        const tag = await this.freshTag(article, write);
        if (tag) tags.push(tag);
      }
      if (tags.length) {
        write.tagOp = { kind: 'end', tags };
        body = { connect: tags.map((documentId) => ({ documentId, position: { end: true } })) };
      }
    } else if (kind === 'before' || kind === 'after') {
      anchor = this.rng.pick(live());
      if (anchor) {
        anchor.anchoring++;
        const tag = await this.freshTag(article, write);
        if (tag) {
          write.tagOp = { kind, tags: [tag], anchor: anchor.tag };
          body = { connect: [{ documentId: tag, position: { [kind]: anchor.tag } }] };
        }
      }
    } else if (kind === 'start') {
      const tag = await this.freshTag(article, write);
      if (tag) {
        write.tagOp = { kind, tags: [tag] };
        body = { connect: [{ documentId: tag, position: { start: true } }] };
      }
    } else if (kind === 'disconnect') {
      const item = this.rng.pick(live().filter((i) => i.anchoring === 0));
      if (item) {
        item.disconnect = write;
        write.tagOp = { kind: 'disconnect', tags: [item.tag] };
        body = { disconnect: [item.tag] };
      }
    }
    article.writes.push(write);
    const data: Record<string, unknown> = { title, category };
    if (body) data.tags = body;
    const tagOp = write.tagOp;
    const what = `${publish ? 'publishing' : 'draft'} write of shared article ${article.index}: title ${title}, category ${category ?? 'null'}${tagOp ? `, tags ${describeTagOp(tagOp)}` : ''}`;
    try {
      write.op = (await this.call('PUT', `/api/articles/${article.documentId}${publish ? '' : '?status=draft'}`, { data }, what)).op;
    } finally {
      if (anchor) anchor.anchoring--;
    }
  }

  private async categoryConnect(): Promise<void> {
    const world = this.env.world;
    const category = this.rng.pick(world.sharedCategories)!;
    const first = this.rng.pick(world.shared)!;
    const second = this.rng.chance(0.3) ? this.rng.pick(world.shared.filter((a) => a !== first)) : undefined;
    const articles = second ? [first, second] : [first];
    const body = { data: { articles: { connect: articles.map((a) => ({ documentId: a.documentId, position: { end: true } })) } } };
    const { op } = await this.call('PUT', `/api/categories/${category}`, body, `category ${category} connects shared article(s) ${articles.map((a) => a.index).join(', ')}`);
    for (const article of articles) article.connects.push({ op, category });
  }

  // --- private articles: one writer each ---------------------------------------------------------------------

  /** Tags a private article may link: the pool and this client's scratch tags not (being) deleted. */
  private linkableTags(): string[] {
    return [...this.env.world.pool, ...this.mine.scratchTags.filter((t) => t.documentId && !t.delete).map((t) => t.documentId!)];
  }

  /** Other articles a private article may link: acknowledged, existing, not being deleted. */
  private linkableArticles(except?: PrivateArticle): string[] {
    return [...this.env.world.byDocumentId.values()]
      .filter((a) => a !== except && a.settled === 'open' && !a.deleting && a.states.every((s) => s.exists))
      .map((a) => a.documentId!);
  }

  private pickSome(items: string[], max: number): string[] {
    const chosen: string[] = [];
    for (let n = this.rng.int(max + 1); n > 0 && items.length > chosen.length; n--) {
      const item = this.rng.pick(items.filter((i) => !chosen.includes(i)))!;
      chosen.push(item);
    }
    return chosen;
  }

  private async create(): Promise<void> {
    const ref = `c${this.index}-${this.seq}`;
    const version: Version = {
      title: `${ref}@${this.seq}`,
      tags: this.pickSome(this.linkableTags(), 2),
      category: this.rng.chance(0.5) ? this.rng.pick(this.mine.categories)! : null,
      related: this.pickSome(this.linkableArticles(), 2),
    };
    const publish = this.rng.chance(0.6);
    const article: PrivateArticle = {
      owner: this.index,
      ref,
      documentId: null,
      states: [{ exists: false, draft: null, published: null }],
      history: [],
      settled: 'limbo',
      deleting: false,
      untracked: false,
      versionEvents: [],
    };
    this.mine.articles.push(article);
    // Published (if at all) by the first attempt that was applied: no earlier than the first one was sent.
    let firstSent: number | undefined;
    const created = (): PrivateState => ({ exists: true, draft: version, published: publish ? publishedCopy(version, firstSent!) : null });
    const data = { title: version.title, ref, tags: version.tags, category: version.category, related: version.related };
    // A client retries a create that got no answer or a 503 (not a timeout: that one may still be running), with
    // the same ref: if the first attempt was applied after all, the unique ref makes the retry a 400.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const what = `create ${ref}${attempt > 1 ? ` (attempt ${attempt})` : ''}, ${publish ? 'published' : 'draft only'}: tags [${version.tags}], category ${version.category}, related [${version.related}]`;
      const { op, answer } = await this.call('POST', `/api/articles${publish ? '' : '?status=draft'}`, { data }, what);
      article.history.push(op);
      firstSent ??= op.sentAt;
      if (publish) article.versionEvents.push({ op, effect: 'published' });
      if (op.outcome === 'ack') {
        article.documentId = documentIdOf(answer);
        article.states = [created()];
        article.settled = 'open';
        break;
      }
      if (op.outcome === 'unacked') {
        article.states = [{ exists: false, draft: null, published: null }, created()];
        if (answer.status === 503 || (answer.status === null && answer.error !== 'TimeoutError')) {
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        break;
      }
      // Rejected: a unique-ref 400 after an unanswered attempt says that attempt was applied.
      if (attempt > 1 && /unique/i.test(answer.error ?? '')) {
        article.states = [created()];
        const found = await this.call('GET', `/api/articles?status=draft&filters[ref][$eq]=${ref}&fields[0]=ref`, undefined, `find ${ref} by ref`);
        const rows = (found.answer.body as { data?: Array<{ documentId: string }> } | null)?.data;
        if (found.op.outcome === 'ack' && rows?.length === 1) {
          article.documentId = rows[0].documentId;
          article.settled = 'open';
        }
      }
      break;
    }
    if (article.documentId) this.env.world.byDocumentId.set(article.documentId, article);
  }

  /** One of this client's articles that exists in every possible state, to write. */
  private writable(): PrivateArticle | undefined {
    return this.rng.pick(this.mine.articles.filter((a) => a.settled === 'open' && !a.deleting && !a.untracked && a.states.every((s) => s.exists)));
  }

  private async update(): Promise<void> {
    const article = this.writable();
    if (!article) return this.create();
    const drafts = article.states.map((s) => s.draft!.tags);
    const everywhere = drafts[0].filter((t) => drafts.every((d) => d.includes(t)));
    const nowhere = this.linkableTags().filter((t) => drafts.every((d) => !d.includes(t)));
    const data: Record<string, unknown> = { title: `${article.ref}@${this.seq}` };
    let tagOp: PrivateTagOp | null = null;
    const kind = this.rng.weighted({ end: 20, start: 8, before: 8, after: 8, disconnect: 12, set: 6, none: 38 });
    if ((kind === 'end' || kind === 'start') && nowhere.length) {
      tagOp = { kind, tag: this.rng.pick(nowhere)! };
      data.tags = { connect: [{ documentId: tagOp.tag, position: { [kind]: true } }] };
    } else if ((kind === 'before' || kind === 'after') && nowhere.length && everywhere.length) {
      tagOp = { kind, tag: this.rng.pick(nowhere)!, anchor: this.rng.pick(everywhere)! };
      data.tags = { connect: [{ documentId: tagOp.tag, position: { [kind]: tagOp.anchor } }] };
    } else if (kind === 'disconnect' && drafts.flat().length) {
      tagOp = { kind, tag: this.rng.pick(drafts.flat())! };
      data.tags = { disconnect: [tagOp.tag] };
    } else if (kind === 'set') {
      tagOp = { kind, tags: this.pickSome(this.linkableTags(), 3) };
      data.tags = tagOp.tags;
    }
    let category: string | null | undefined;
    if (this.rng.chance(0.3)) data.category = category = this.rng.chance(0.3) ? null : this.rng.pick(this.mine.categories)!;
    let related: string[] | undefined;
    if (this.rng.chance(0.2)) data.related = related = this.pickSome(this.linkableArticles(article), 2);
    const publish = this.rng.chance(0.5);
    const what = `${publish ? 'publishing' : 'draft'} update of ${article.ref}: title ${data.title}${tagOp ? `, tags ${JSON.stringify(tagOp)}` : ''}${category !== undefined ? `, category ${category}` : ''}${related ? `, related [${related}]` : ''}`;
    const { op } = await this.call('PUT', `/api/articles/${article.documentId}${publish ? '' : '?status=draft'}`, { data }, what);
    applyToStates(article, op, (s) => {
      const draft: Version = {
        title: data.title as string,
        tags: tagOp ? applyTagOp(s.draft!.tags, tagOp) : [...s.draft!.tags],
        category: category !== undefined ? category : s.draft!.category,
        related: related ?? [...s.draft!.related],
      };
      return { exists: true, draft, published: publish ? publishedCopy(draft, op.sentAt) : draftRelated(s.published, related) };
    });
    if (publish) article.versionEvents.push({ op, effect: 'published' });
  }

  private async remove(): Promise<void> {
    const article = this.writable();
    if (article) await this.deleteArticle(article);
  }

  private async deleteArticle(article: PrivateArticle): Promise<void> {
    article.deleting = true;
    const { op } = await this.call('DELETE', `/api/articles/${article.documentId}`, undefined, `delete ${article.ref}`);
    applyToStates(article, op, () => ({ exists: false, draft: null, published: null }));
    article.versionEvents.push({ op, effect: 'deleted' });
    if (op.outcome === 'rejected') article.deleting = false;
    if (op.outcome === 'unacked') article.settled = 'limbo';
  }

  /**
   * Two articles of this client's linked to each other (`related`, both ways), then deleted at once: each delete
   * removes the links from and to its article, the path where two deletes can deadlock.
   */
  private async deletePair(): Promise<void> {
    const first = this.writable();
    const second = this.writable();
    if (!first || !second || first === second) return this.create();
    for (const [article, other] of [[first, second], [second, first]]) {
      const title = `${article.ref}@${this.seq}`;
      const { op } = await this.call('PUT', `/api/articles/${article.documentId}?status=draft`, { data: { title, related: [other.documentId] } }, `draft update of ${article.ref}: title ${title}, related [${other.documentId}]`);
      applyToStates(article, op, (s) => ({ exists: true, draft: { ...copyVersion(s.draft!), title, related: [other.documentId!] }, published: draftRelated(s.published, [other.documentId!]) }));
      if (op.outcome !== 'ack') return;
    }
    await Promise.all([this.deleteArticle(first), this.deleteArticle(second)]);
  }

  private async publishAction(): Promise<void> {
    const article = this.writable();
    if (!article) return;
    const action = this.rng.chance(0.5) ? 'publish' : 'unpublish';
    const { op } = await this.call('POST', `/api/articles/${article.documentId}/actions/${action}`, undefined, `${action} ${article.ref}`);
    applyToStates(article, op, (s) => ({ exists: true, draft: s.draft, published: action === 'publish' ? publishedCopy(s.draft!, op.sentAt) : null }));
    article.versionEvents.push({ op, effect: action === 'publish' ? 'published' : 'unpublished' });
  }

  /** A category of this client's, written from the inverse side: set, connect or disconnect its articles. */
  private async privateCategory(): Promise<void> {
    const category = this.rng.pick(this.mine.categories)!;
    const candidates = this.mine.articles.filter((a) => a.settled === 'open' && !a.deleting && a.states.every((s) => s.exists)).map((a) => a.documentId!);
    const kind = this.rng.weighted({ set: 4, connect: 4, disconnect: 2 });
    let named: string[];
    let body: unknown;
    if (kind === 'set') {
      named = this.pickSome(candidates, 3);
      body = named;
    } else {
      named = this.pickSome(candidates, 1);
      if (!named.length) return;
      body = { [kind]: named };
    }
    const { op } = await this.call('PUT', `/api/categories/${category}`, { data: { articles: body } }, `category ${category} of client ${this.index}: ${kind} [${named}]`);
    const change = (v: Version | null, documentId: string | null): Version | null => {
      if (!v) return v;
      const listed = documentId !== null && named.includes(documentId);
      if (kind === 'disconnect') return listed && v.category === category ? { ...v, category: null } : v;
      if (listed) return { ...v, category };
      return kind === 'set' && v.category === category ? { ...v, category: null } : v;
    };
    for (const article of this.mine.articles) {
      const touched = (article.documentId && named.includes(article.documentId)) || article.states.some((s) => s.draft?.category === category || s.published?.category === category);
      if (!touched) continue;
      applyToStates(article, op, (s) => ({ exists: true, draft: change(s.draft, article.documentId), published: change(s.published, article.documentId) }));
    }
  }

  // --- tags -------------------------------------------------------------------------------------------------

  /** Creates a tag (shared pool, or a scratch tag of this client's); its documentId once acknowledged. */
  private async createTag(owner: number | null): Promise<string | null> {
    const name = `${owner === null ? 'pool' : 'scratch'}-c${this.index}-${this.seq}-${this.rng.int(1e6)}`;
    const { op, answer } = await this.call('POST', '/api/tags', { data: { name } }, `create tag ${name}`);
    const record: TagRecord = { name, documentId: op.outcome === 'ack' ? documentIdOf(answer) : null, create: op, owner };
    this.env.world.tags.push(record);
    if (owner !== null) this.mine.scratchTags.push(record);
    if (!record.documentId) return null;
    if (owner === null) this.env.world.pool.push(record.documentId);
    return record.documentId;
  }

  private async tagOperation(): Promise<void> {
    const scratch = this.mine.scratchTags.filter((t) => t.documentId && !t.delete);
    const kind = this.rng.weighted({ pool: 3, scratch: 3, deleteScratch: scratch.length ? 4 : 0 });
    if (kind !== 'deleteScratch') {
      await this.createTag(kind === 'pool' ? null : this.index);
      return;
    }
    const tag = this.rng.pick(scratch)!;
    const { op } = await this.call('DELETE', `/api/tags/${tag.documentId}`, undefined, `delete scratch tag ${tag.name}`);
    tag.delete = op;
    const without = (v: Version | null) => (v && v.tags.includes(tag.documentId!) ? { ...v, tags: v.tags.filter((t) => t !== tag.documentId) } : v);
    for (const article of this.mine.articles) {
      if (!article.states.some((s) => s.draft?.tags.includes(tag.documentId!) || s.published?.tags.includes(tag.documentId!))) continue;
      applyToStates(article, op, (s) => ({ exists: true, draft: without(s.draft), published: without(s.published) }));
    }
  }

  // --- reads ------------------------------------------------------------------------------------------------

  private async read(): Promise<void> {
    const world = this.env.world;
    const status = this.rng.chance(0.5) ? 'draft' : 'published';
    const kind = this.rng.weighted({ shared: 4, list: 3, category: 2 });
    if (kind === 'shared') {
      const article = this.rng.pick(world.shared)!;
      await this.call('GET', `/api/articles/${article.documentId}?status=${status}&populate[tags][fields][0]=name&populate[category][fields][0]=name`, undefined, `read shared article ${article.index} (${status})`);
    } else if (kind === 'list') {
      await this.call('GET', `/api/articles?status=${status}&populate=*&sort=updatedAt:desc&pagination[pageSize]=20`, undefined, `list articles (${status})`);
    } else {
      const category = this.rng.pick([...world.categoryOwner.keys()])!;
      await this.call('GET', `/api/categories/${category}?status=${status}&populate[articles][fields][0]=title`, undefined, `read category (${status})`);
    }
  }
}

export function describeTagOp(op: SharedTagOp): string {
  if (op.kind === 'before' || op.kind === 'after') return `connect ${op.tags[0]} ${op.kind} ${op.anchor}`;
  if (op.kind === 'disconnect') return `disconnect ${op.tags[0]}`;
  return `connect ${op.tags.join(', ')} at ${op.kind}`;
}
