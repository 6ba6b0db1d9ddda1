import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { openStrapiFixtureApp, type StrapiFixtureApp } from '../helpers/strapi-app.js';

/**
 * The soak reported an article whose draft had lost a `related` link (article -> article, Draft & Publish on both
 * ends) while nothing wrote the article itself: the suspicion was a write to the TARGET article. (That report was the
ledger's published-list check; the draft's list had matched, its missing target being deleted or maybe deleted.) In Strapi's layout
 * a draft links the target's draft row (docs/strapi-5-writes.md 3), and nothing that happens to the target but its
 * deletion removes that link (9). Each write a client can make to the target is checked here, against a published
 * and a draft-only target, in the database Strapi made; the deletion is checked to remove the link.
 */
describeEachDialect('A draft link of the self relation survives every write to its target', (dialect) => {
  let app: StrapiFixtureApp;
  beforeAll(async () => {
    app = await openStrapiFixtureApp(dialect);
  }, 60_000);
  afterAll(() => app?.close());

  const create = async (data: Record<string, unknown>, draftOnly: boolean) => {
    const answer = await app.request('POST', `/api/articles${draftOnly ? '?status=draft' : ''}`, { data });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().data.documentId as string;
  };
  const draftRelated = async (documentId: string) =>
    ((await app.get(`/api/articles/${documentId}?status=draft&populate[related][fields][0]=title`)).json().data.related as Array<{ documentId: string }>).map((r) => r.documentId);
  const documents = () => app.cairn.documents('api::article.article');
  const put = async (url: string, data: Record<string, unknown>) => {
    const answer = await app.request('PUT', url, { data });
    expect(answer.statusCode, answer.body).toBe(200);
  };

  /** Writes to the target `t`; `a` is the article whose draft links it. */
  const writes: Record<string, (t: string, a: string) => Promise<unknown>> = {
    'a publishing update': (t) => put(`/api/articles/${t}`, { title: 'published again' }),
    'a draft update': (t) => put(`/api/articles/${t}?status=draft`, { title: 'draft edit' }),
    'a publishing update setting its own related list': (t, a) => put(`/api/articles/${t}`, { related: [a] }),
    'a draft update setting its own related list': (t, a) => put(`/api/articles/${t}?status=draft`, { related: [a] }),
    'a publishing update emptying its own related list': (t) => put(`/api/articles/${t}`, { related: [] }),
    'a publish': (t) => documents().publish({ documentId: t }),
    'an unpublish': (t) => documents().unpublish({ documentId: t }),
    'an unpublish, then a publish': async (t) => {
      await documents().unpublish({ documentId: t });
      await documents().publish({ documentId: t });
    },
  };

  for (const draftOnly of [false, true]) {
    for (const [name, write] of Object.entries(writes)) {
      it(`${name} of a ${draftOnly ? 'draft-only' : 'published'} target`, async () => {
        const target = await create({ title: 'target' }, draftOnly);
        const other = await create({ title: 'other' }, false);
        const article = await create({ title: 'linking', related: [other, target] }, false);
        expect(await draftRelated(article)).toEqual([other, target]);
        await write(target, article);
        expect(await draftRelated(article)).toEqual([other, target]);
      });
    }
  }

  it('a deletion of the target removes the draft link (and only that one)', async () => {
    const target = await create({ title: 'target' }, false);
    const other = await create({ title: 'other' }, false);
    const article = await create({ title: 'linking', related: [other, target] }, false);
    expect((await app.request('DELETE', `/api/articles/${target}`)).statusCode).toBe(204);
    expect(await draftRelated(article)).toEqual([other]);
  });
});
