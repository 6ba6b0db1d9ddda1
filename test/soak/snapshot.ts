import { request } from './http.js';
import { now, outcomeOf, type Ledger } from './ledger.js';
import type { CairnProcess } from './cluster.js';

/** An article as the checks read it (populated). */
export interface Entry {
  documentId: string;
  title: string;
  ref: string;
  tags: Array<{ documentId: string; name: string }>;
  category: { documentId: string } | null;
  related: Array<{ documentId: string }>;
}

export interface CategoryEntry {
  documentId: string;
  name: string;
  articles: Array<{ documentId: string }>;
}

/** Everything one process answers about the data, on a quiet database. */
export interface Snapshot {
  process: number;
  drafts: Entry[];
  published: Entry[];
  tags: Array<{ documentId: string; name: string }>;
  categoriesDraft: CategoryEntry[];
  categoriesPublished: CategoryEntry[];
}

const ARTICLE_FIELDS = 'fields[0]=title&fields[1]=ref&populate[tags][fields][0]=name&populate[category][fields][0]=name&populate[related][fields][0]=ref';

/**
 * Reads every page of a list through one process. The reads are recorded in the ledger (client -2): a 5xx here,
 * after the processes answered healthy, counts like any other. A read that fails is tried again a few times.
 */
async function readAll<T>(p: CairnProcess, ledger: Ledger, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const url = `${path}${path.includes('?') ? '&' : '?'}pagination[page]=${page}&pagination[pageSize]=100`;
    type Page = { data: T[]; meta: { pagination: { pageCount: number } } };
    let body: Page | null = null;
    for (let attempt = 1; body === null; attempt++) {
      const sentAt = now();
      const answer = await request(p.base, 'GET', url);
      ledger.add({ client: -2, process: p.index, incarnation: p.incarnation, method: 'GET', path: url, what: 'check read', sentAt, endAt: now(), wallEnd: Date.now(), outcome: outcomeOf(answer.status), status: answer.status, error: answer.error, write: false });
      if (answer.status === 200) body = answer.body as Page;
      else if (attempt === 5) throw new Error(`GET ${url} through process ${p.index}: ${answer.status ?? 'no answer'} ${answer.error ?? ''}`);
      else await new Promise((r) => setTimeout(r, 1000));
    }
    const done: Page = body;
    rows.push(...done.data);
    if (page >= done.meta.pagination.pageCount) return rows;
  }
}

export async function readSnapshot(p: CairnProcess, ledger: Ledger): Promise<Snapshot> {
  return {
    process: p.index,
    drafts: await readAll<Entry>(p, ledger, `/api/articles?status=draft&${ARTICLE_FIELDS}&sort=id:asc`),
    published: await readAll<Entry>(p, ledger, `/api/articles?status=published&${ARTICLE_FIELDS}&sort=id:asc`),
    tags: await readAll(p, ledger, '/api/tags?fields[0]=name&sort=id:asc'),
    categoriesDraft: await readAll<CategoryEntry>(p, ledger, '/api/categories?status=draft&fields[0]=name&populate[articles][fields][0]=ref&sort=id:asc'),
    categoriesPublished: await readAll<CategoryEntry>(p, ledger, '/api/categories?status=published&fields[0]=name&populate[articles][fields][0]=ref&sort=id:asc'),
  };
}
