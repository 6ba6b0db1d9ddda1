'use strict';

const { factories } = require('@strapi/strapi');
const { errors } = require('@strapi/utils');

module.exports = factories.createCoreController('api::article.article', ({ strapi }) => ({
  // The core find (Cairn's compiled reader), with more in its meta.
  async find(ctx) {
    const { data, meta } = await super.find(ctx);
    // `ref`, a parameter the app added in register() (src/index.js), checked against its schema.
    const { ref } = await this.sanitizeQuery(ctx);
    if (ref) meta.ref = ref;
    meta.extended = true;
    meta.titles = data.map((article) => article.title);
    return { data, meta };
  },

  async summary(ctx) {
    const entry = await strapi.service('api::article.article').findOne(ctx.params.id, { fields: ['title', 'body'] });
    if (!entry) return ctx.notFound('No such article');
    return { data: strapi.service('api::article.summary').of(entry) };
  },

  // `word` is the route's own extra parameter (its `request.query` schema in routes/custom.js).
  async byWord(ctx) {
    const { word } = await this.sanitizeQuery(ctx);
    if (!word) return ctx.badRequest('Give a word: ?word=...');
    const { results } = await strapi.service('api::article.article').find({ filters: { body: { $containsi: word } }, fields: ['title'], sort: 'title' });
    return { data: results.map((article) => article.title), meta: { word } };
  },

  async stats(ctx) {
    const { results, pagination } = await strapi.service('api::article.article').find({ pagination: { pageSize: 100 } });
    ctx.body = { total: pagination.total, views: results.reduce((sum, article) => sum + article.views, 0), user: ctx.state.user ?? null };
  },

  async view(ctx) {
    const service = strapi.service('api::article.article');
    const entry = await service.findOne(ctx.params.id);
    if (!entry) throw new errors.NotFoundError('Article not found', { id: ctx.params.id });
    const updated = await service.update(ctx.params.id, { data: { views: entry.views + 1 } });
    const sanitized = await this.sanitizeOutput(updated, ctx);
    return this.transformResponse(sanitized, { viewedBy: ctx.get('x-allow') });
  },

  // A multipart body's file (ctx.request.files.file, formidable's File as koa-body gives it) becomes the article's
  // cover through Strapi's upload service; its caption comes from a text field of the same body (ctx.request.body).
  async cover(ctx) {
    const entry = await strapi.service('api::article.article').findOne(ctx.params.id, { fields: ['id'] });
    if (!entry) return ctx.notFound('No such article');
    const file = ctx.request.files?.file;
    if (!file || Array.isArray(file)) return ctx.badRequest('Send one image in the "file" field of a multipart/form-data body');
    const [cover] = await strapi.plugin('upload').service('upload').upload({
      files: file,
      data: { fileInfo: { caption: ctx.request.body?.caption ?? null }, ref: 'api::article.article', refId: entry.id, field: 'cover' },
    });
    ctx.status = 201;
    return { data: { id: cover.id, name: cover.name, caption: cover.caption, width: cover.width, height: cover.height, url: cover.url } };
  },

  // The articles read, newest first, kept in a cookie signed with the app's keys (config/server.js `app.keys`): a
  // cookie changed by the client fails its signature and counts as none.
  async read(ctx) {
    const entry = await strapi.service('api::article.article').findOne(ctx.params.id, { fields: ['title'] });
    if (!entry) return ctx.notFound('No such article');
    const before = (ctx.cookies.get('read', { signed: true }) ?? '').split('.').filter(Boolean);
    const read = [ctx.params.id, ...before.filter((id) => id !== ctx.params.id)].slice(0, 5);
    ctx.cookies.set('read', read.join('.'), { httpOnly: true, sameSite: 'lax', maxAge: 30 * 24 * 3600 * 1000 });
    return { data: { read } };
  },

  async fail(ctx) {
    switch (ctx.params.kind) {
      case 'application':
        throw new errors.ApplicationError('Something is off', { hint: 'retry' });
      case 'validation':
        throw new errors.ValidationError('Bad title', { errors: [{ path: ['title'], message: 'Bad title' }] });
      case 'forbidden':
        throw new errors.ForbiddenError();
      case 'unauthorized':
        throw new errors.UnauthorizedError('Log in first');
      case 'not-found':
        throw new errors.NotFoundError();
      case 'too-large':
        throw new errors.PayloadTooLargeError();
      case 'policy':
        throw new errors.PolicyError('Not for you', { policy: 'custom' });
      case 'bad-request':
        return ctx.badRequest('Missing thing', { field: 'thing' });
      case 'throw':
        return ctx.throw(418, 'short and stout');
      case 'crash':
        throw new Error('secret internal detail');
      default:
        return undefined;
    }
  },
}));
