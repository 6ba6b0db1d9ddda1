import { join } from 'node:path';
import { buildModel, loadModel } from '../../src/model/index.js';
import type { ContentType, Model } from '../../src/model/types.js';
import { parseQueryString, parseReadParams, QS_LIMITS, type ReadOptions, type ReadSpec } from '../../src/query/index.js';
import { CairnError } from '../../src/errors/index.js';

export const CONFORMANCE = join(import.meta.dirname, '../fixtures/conformance');

/** The reference's content model (articles, restaurants, chefs...), as the conformance kit ships it. */
export const conformanceModel = (): Promise<Model> => loadModel(join(CONFORMANCE, 'app'));

/** The conformance app's `api.rest` and i18n settings. */
export const OPTIONS: ReadOptions = { defaultLimit: 25, maxLimit: 100, withCount: true, locales: ['en', 'fr'], defaultLocale: 'en' };

const ct = (singular: string, plural: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  schema: {
    kind: 'collectionType',
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
    ...extra,
  },
});

/**
 * A small model with what the conformance one lacks: every scalar type, private and password attributes, a
 * private relation, multiple media, a repeatable component, a to-one chain three deep.
 */
export const labModel = (): Model =>
  buildModel({
    contentTypes: [
      ct('sample', 'samples', {
        title: { type: 'string' },
        body: { type: 'text' },
        rich: { type: 'richtext' },
        doc: { type: 'blocks' },
        kind: { type: 'enumeration', enum: ['a', 'b'] },
        mail: { type: 'email' },
        slug: { type: 'uid', targetField: 'title' },
        day: { type: 'date' },
        at: { type: 'time' },
        moment: { type: 'datetime' },
        stamp: { type: 'timestamp' },
        count: { type: 'integer' },
        big: { type: 'biginteger' },
        ratio: { type: 'float' },
        price: { type: 'decimal' },
        flag: { type: 'boolean' },
        meta: { type: 'json' },
        secret: { type: 'password' },
        hidden: { type: 'string', private: true },
        owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'samples' },
        spy: { type: 'relation', relation: 'oneToOne', target: 'api::person.person', private: true },
        gallery: { type: 'media', multiple: true },
        cover: { type: 'media', multiple: false },
        points: { type: 'component', repeatable: true, component: 'shape.point' },
        zone: { type: 'dynamiczone', components: ['shape.point', 'shape.box'] },
      }),
      ct('person', 'people', {
        name: { type: 'string' },
        samples: { type: 'relation', relation: 'oneToMany', target: 'api::sample.sample', mappedBy: 'owner' },
        team: { type: 'relation', relation: 'manyToOne', target: 'api::team.team', inversedBy: 'people' },
      }),
      ct('team', 'teams', {
        label: { type: 'string' },
        people: { type: 'relation', relation: 'oneToMany', target: 'api::person.person', mappedBy: 'team' },
        boss: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' },
      }),
    ],
    components: [
      { uid: 'shape.point', schema: { info: { displayName: 'Point' }, attributes: { x: { type: 'float' }, y: { type: 'float' }, tag: { type: 'string' } } } },
      {
        uid: 'shape.box',
        schema: {
          info: { displayName: 'Box' },
          attributes: {
            corner: { type: 'component', repeatable: false, component: 'shape.point' },
            person: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' },
          },
        },
      },
    ],
  });

/** Parses a query string for a content-type as REST does. */
export function read(model: Model, contentType: ContentType | string, query: string, options: Partial<ReadOptions> = {}): ReadSpec {
  const ct = typeof contentType === 'string' ? model.contentTypes.get(contentType)! : contentType;
  if (!ct) throw new Error(`no content-type ${String(contentType)}`);
  return parseReadParams(model, ct, parseQueryString(query, QS_LIMITS), { ...OPTIONS, ...options });
}

/** The error `fn` throws, as the API would answer it (fails the test when it does not throw a CairnError). */
export function errorOf(fn: () => unknown): { status: number; name: string; message: string; details: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof CairnError)) throw error;
    return error.toResponse().error;
  }
  throw new Error('expected an error');
}
