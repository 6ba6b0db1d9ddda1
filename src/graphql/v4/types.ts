import {
  GraphQLEnumType,
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLUnionType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  type GraphQLInputFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { Attribute, Component, ContentType } from '../../model/types.js';
import { TypeRegistry, populated, populatedList } from '../schema-types.js';
import { typeName } from '../names.js';
import { DateTimeScalar } from '../scalars.js';
import { needs } from '../field-auth.js';
import { findAction } from '../../auth/access-control.js';

type Entry = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<Entry, unknown, Record<string, unknown>>;

/**
 * The types of Strapi v4's GraphQL shape (the seed's): `<Type>` holds the attributes; entries travel as
 * `<Type>Entity { id, attributes }` inside `<Type>EntityResponse { data }`, `<Type>EntityResponseCollection
 * { data, meta }` and `<Type>RelationResponseCollection { data }`. `id` is the documentId.
 *
 * Resolvers read the entry JSON the compiler built: a populated attribute sits under the field's response key
 * (its alias when aliased, see read-selection.ts), so two aliases of one relation with different arguments work.
 */
export class V4TypeRegistry extends TypeRegistry {
  readonly publicationState = new GraphQLEnumType({ name: 'PublicationState', values: { LIVE: { value: 'LIVE' }, PREVIEW: { value: 'PREVIEW' } } });
  readonly meta = new GraphQLObjectType({ name: 'ResponseCollectionMeta', fields: () => ({ pagination: { type: new GraphQLNonNull(this.pagination) } }) });

  /** An entry's `id` is its wrapper's (`{ id, attributes }`): only a component's type has one. */
  protected override entryFields(schema: ContentType | Component): GraphQLFieldConfigMap<unknown, unknown> {
    return schema.modelType === 'component' ? { id: { type: new GraphQLNonNull(GraphQLID) } } : {};
  }

  /** `publishedAt` on Draft & Publish types only; `localizations` before `locale`, as v4 listed them. */
  protected override addSystemFields(fields: GraphQLFieldConfigMap<unknown, unknown>, schema: ContentType): void {
    for (const key of ['createdAt', 'updatedAt', 'publishedAt']) {
      if (key !== 'publishedAt' || schema.draftAndPublish) fields[key] = { type: DateTimeScalar };
    }
    if (schema.localized) {
      this.addRelationList(fields, 'localizations', schema);
      fields.locale = { type: GraphQLString };
    }
  }

  protected override addOutputField(fields: GraphQLFieldConfigMap<unknown, unknown>, owner: ContentType | Component, attribute: Attribute): void {
    // A morphMany / morphOne reads its target as a relation does; a morphToMany / morphToOne is GenericMorph.
    if (attribute.kind !== 'relation' && attribute.kind !== 'media' && !(attribute.kind === 'morph' && attribute.target !== undefined)) {
      super.addOutputField(fields, owner, attribute);
      return;
    }
    const target = this.model.contentTypes.get(attribute.target!)!;
    const many = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
    // Strapi v4's type builder gives a relation field (not media, not morph) its target's `find` scope.
    const extensions = attribute.kind === 'relation' ? needs({ action: findAction(target.uid) }) : undefined;
    if (many) this.addRelationList(fields, attribute.name, target, extensions);
    else fields[attribute.name] = { type: this.entityResponse(target), resolve: (parent, args, context, info) => ({ data: populated(parent, args, context, info) }), extensions };
  }

  /** A to-many relation: `{ data: [...] }`, with filters, pagination, sort (and publicationState for D&P targets). */
  private addRelationList(fields: GraphQLFieldConfigMap<unknown, unknown>, name: string, target: ContentType, extensions?: ReturnType<typeof needs>): void {
    const args: GraphQLFieldConfigArgumentMap = {
      filters: { type: this.filters(target) },
      pagination: { type: this.paginationArg, defaultValue: {} },
      sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
    };
    if (target.draftAndPublish) args.publicationState = { type: this.publicationState, defaultValue: 'LIVE' };
    const resolve: Resolver = (parent, args, context, info) => ({ data: populatedList(parent, args, context, info) });
    fields[name] = { type: this.relationResponseCollection(target), args, resolve: resolve as never, extensions };
  }

  entity(target: ContentType): GraphQLObjectType {
    return this.memo(`${typeName(target)}Entity`, (name) =>
      new GraphQLObjectType<Entry>({
        name,
        fields: () => ({
          id: { type: GraphQLID, resolve: (entry) => entry.documentId },
          attributes: { type: this.object(target), resolve: (entry) => entry },
        }),
      }),
    );
  }

  entityResponse(target: ContentType): GraphQLObjectType {
    return this.memo(`${typeName(target)}EntityResponse`, (name) => new GraphQLObjectType({ name, fields: () => ({ data: { type: this.entity(target) } }) }));
  }

  entityResponseCollection(target: ContentType): GraphQLObjectType {
    return this.memo(`${typeName(target)}EntityResponseCollection`, (name) =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          data: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.entity(target)))) },
          meta: { type: new GraphQLNonNull(this.meta) },
        }),
      }),
    );
  }

  relationResponseCollection(target: ContentType): GraphQLObjectType {
    return this.memo(`${typeName(target)}RelationResponseCollection`, (name) =>
      new GraphQLObjectType({ name, fields: () => ({ data: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.entity(target)))) } }) }),
    );
  }

  /** v4 filters content-types by `id` (the documentId here); components have no identifier member. */
  protected override filterIdField(schema: ContentType | Component): string | undefined {
    return schema.modelType === 'component' ? undefined : 'id';
  }

  /** Every stored version is checked whole (drafts too, as v4 checked every write): required values are there. */
  protected override readonly requiredOutputs = true;

  /** v4's list items may be null (`[ComponentSectionsHero]`). */
  protected override listItem<T extends GraphQLObjectType | GraphQLUnionType>(item: T): GraphQLOutputType {
    return item;
  }

  /** Draft & Publish types take `publishedAt` (given: publish; null or absent on create: a draft). */
  protected override inputExtras(schema: ContentType | Component, fields: GraphQLInputFieldConfigMap): void {
    if (schema.modelType === 'contentType' && schema.draftAndPublish) fields.publishedAt = { type: DateTimeScalar };
  }
}

