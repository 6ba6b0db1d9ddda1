// The requests LaunchPad's Next.js front end (next/ of a LaunchPad checkout) sends to its Strapi back end, as
// `@strapi/client` serialises them (qs, values encoded): `fetchCollectionType(name, options)` is
// GET /api/<name>?<options>&status=published, `fetchSingleType(name, options)` GET /api/<name>?<options>&status=published,
// both in next/lib/strapi/client.ts; in draft mode (Next.js preview) the same with status=draft. The locales are
// next/i18n.config.ts's (en, fr); the slugs are those of the database (discovered first: `discoveryRequests`).
// Each request is sent without a token (the front end's client sends none) and with the header client.ts's
// createClient sets: `strapi-encode-source-maps: false`, or `true` in draft mode (`createClient(config, true)`: the
// preview asks for content source maps, every string of the answer then carrying hidden metadata).
import qs from 'qs';

export const LOCALES = ['en', 'fr']; // next/i18n.config.ts
export const STATUSES = ['published', 'draft']; // client.ts: published, or draft in draft mode
/** The headers of a request for `status` (client.ts's createClient: isDraftMode ? 'true' : 'false'). */
export const headersFor = (status) => ({ 'strapi-encode-source-maps': status === 'draft' ? 'true' : 'false' });

const path = (name, options, status) => `/api/${name}?${qs.stringify({ ...options, status }, { encodeValuesOnly: true })}`;

/**
 * Per locale, the slugs the front end's pages would be rendered for (pages, articles, products), read from the
 * reference server with the full-access token: { name, path } of the list requests, and how to read the slugs.
 */
export function discoveryRequests(locale) {
  const list = (name) => `/api/${name}?${qs.stringify({ locale, status: 'published', fields: ['slug'], pagination: { pageSize: 100 } }, { encodeValuesOnly: true })}`;
  return { pages: list('pages'), articles: list('articles'), products: list('products') };
}

/** The front end's requests for the slugs found: [{ name, method, path, headers, source }] in a fixed order. */
export function frontEndRequests(slugsByLocale) {
  const out = [];
  for (const locale of LOCALES) {
    const slugs = slugsByLocale[locale];
    for (const status of STATUSES) {
      const add = (name, path, source) => out.push({ name, method: 'GET', path, headers: headersFor(status), source });
      const tag = `${locale}-${status}`;
      // app/[locale]/layout.tsx: fetchSingleType('global', { locale }) (and products/[slug]/page.tsx)
      add(`${tag}-global`, path('global', { locale }, status), 'next/app/[locale]/layout.tsx');
      // app/[locale]/(marketing)/page.tsx: the home page (generateMetadata and the page)
      add(`${tag}-home`, path('pages', { filters: { slug: { $eq: 'homepage' }, locale } }, status), 'next/app/[locale]/(marketing)/page.tsx');
      // app/[locale]/(marketing)/[slug]/page.tsx: every other page by slug
      for (const slug of slugs.pages.filter((s) => s !== 'homepage')) {
        add(`${tag}-page-${slug}`, path('pages', { filters: { slug: { $eq: slug }, locale } }, status), 'next/app/[locale]/(marketing)/[slug]/page.tsx');
      }
      // app/[locale]/(marketing)/blog/page.tsx: the blog page and its articles
      add(`${tag}-blog-page`, path('blog-page', { locale }, status), 'next/app/[locale]/(marketing)/blog/page.tsx');
      add(`${tag}-articles`, path('articles', { filters: { locale: { $eq: locale } } }, status), 'next/app/[locale]/(marketing)/blog/page.tsx');
      // app/[locale]/(marketing)/blog/[slug]/page.tsx: an article by slug
      for (const slug of slugs.articles) {
        add(`${tag}-article-${slug}`, path('articles', { filters: { slug: { $eq: slug } }, locale }, status), 'next/app/[locale]/(marketing)/blog/[slug]/page.tsx');
      }
      // app/[locale]/(marketing)/products/page.tsx: the products page and the products
      add(`${tag}-product-page`, path('product-page', { locale }, status), 'next/app/[locale]/(marketing)/products/page.tsx');
      add(`${tag}-products`, path('products', { locale }, status), 'next/app/[locale]/(marketing)/products/page.tsx');
      // app/[locale]/(marketing)/products/[slug]/page.tsx: a product by slug
      for (const slug of slugs.products) {
        add(`${tag}-product-${slug}`, path('products', { filters: { slug: { $eq: slug } }, locale }, status), 'next/app/[locale]/(marketing)/products/[slug]/page.tsx');
      }
    }
  }
  return out;
}
