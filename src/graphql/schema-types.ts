import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import type { Attribute, Component, ContentType, Model, ScalarAttribute } from '../model/types.js';
import { PUBLICATION_FILTER_MODES } from '../query/index.js';
import { componentTypeName, enumName, typeName } from './names.js';
import { DateScalar, DateTimeScalar, JSONScalar, LongScalar, TimeScalar } from './scalars.js';
import { GraphqlExtensionService } from './extension.js';
import { needs } from './field-auth.js';
import { findAction } from '../auth/access-control.js';
import { flatShape, type FlatShape } from './v5/style.js';

const OPERATORS = ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'startsWithi', 'endsWith', 'endsWithi', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte'];

/**
 * Reads a relation of an entry that an app's own resolver answered without it (a Document Service result, say): the
 * entry's document, in its version and locale, with that field populated as selected; its value under the field's
 * response key (undefined: no such document).
 */
export type RelationLoader = (entry: Record<string, unknown>, info: GraphQLResolveInfo, context: unknown) => Promise<unknown>;

/** Every GraphQL type generated from the model, built lazily and once. */
export class TypeRegistry {
  /** By content-type uid (the shadow CRUD sets them): see relationResolver. */
  readonly relationLoaders = new Map<string, RelationLoader>();
  protected readonly objects = new Map<string, GraphQLObjectType>();
  protected readonly inputs = new Map<string, GraphQLInputObjectType>();
  protected readonly enums = new Map<string, GraphQLEnumType>();
  protected readonly unions = new Map<string, GraphQLUnionType>();
  protected readonly scalarFilters = new Map<string, GraphQLInputObjectType>();

  readonly paginationArg = new GraphQLInputObjectType({
    name: 'PaginationArg',
    fields: { page: { type: GraphQLInt }, pageSize: { type: GraphQLInt }, start: { type: GraphQLInt }, limit: { type: GraphQLInt } },
  });
  readonly pagination = new GraphQLObjectType({
    name: 'Pagination',
    fields: { total: { type: new GraphQLNonNull(GraphQLInt) }, page: { type: new GraphQLNonNull(GraphQLInt) }, pageSize: { type: new GraphQLNonNull(GraphQLInt) }, pageCount: { type: new GraphQLNonNull(GraphQLInt) } },
  });
  readonly status = new GraphQLEnumType({ name: 'PublicationStatus', values: { DRAFT: { value: 'draft' }, PUBLISHED: { value: 'published' } } });
  readonly publicationFilter = new GraphQLEnumType({
    name: 'PublicationFilter',
    values: Object.fromEntries(PUBLICATION_FILTER_MODES.map((mode) => [mode.toUpperCase().replace(/-/g, '_'), { value: mode }])),
  });
  readonly deleteResponse = new GraphQLObjectType({ name: 'DeleteMutationResponse', fields: { documentId: { type: new GraphQLNonNull(GraphQLID) } } });
  /** A dynamic-zone item whose component the union does not know (Strapi's unions all have it). */
  readonly error = new GraphQLObjectType({ name: 'Error', fields: { code: { type: new GraphQLNonNull(GraphQLString) }, message: { type: GraphQLString } } });

  constructor(
    readonly model: Model,
    /** The app's shadowCRUD toggles: disabled types and fields are left out of every type that would show them. */
    protected readonly ext: GraphqlExtensionService = new GraphqlExtensionService(),
    /** Strapi 5's schema, flat or with v4CompatibilityMode's fields (the seed's v4 registry overrides what differs). */
    readonly shape: FlatShape = flatShape(false),
  ) {}

  /** Whether `attribute` of `owner` appears in its object type, Input or FiltersInput (a link to a disabled type never does). */
  protected shows(owner: ContentType | Component, attribute: Attribute, where: 'output' | 'input' | 'filters'): boolean {
    const field = this.ext.shadowCRUD(owner.uid).field(attribute.name);
    const on = where === 'output' ? field.hasOutputEnabled() : where === 'input' ? field.hasInputEnabled() : field.hasFiltersEnabled();
    if (!on) return false;
    if (attribute.kind === 'relation' || attribute.kind === 'media') return this.ext.shadowCRUD(attribute.target).isEnabled();
    // A morph relation is output only (Strapi's GenericMorph); its inverse sides read their target as a relation does.
    if (attribute.kind === 'morph') return where === 'output' && (attribute.target === undefined || this.ext.shadowCRUD(attribute.target).isEnabled());
    return true;
  }

  /** The object type of a content-type or component. */
  object(schema: ContentType | Component): GraphQLObjectType {
    const name = schema.modelType === 'component' ? componentTypeName(schema) : typeName(schema);
    let type = this.objects.get(name);
    if (!type) {
      type = new GraphQLObjectType({ name, fields: () => this.objectFields(schema) });
      this.objects.set(name, type);
    }
    return type;
  }

  protected objectFields(schema: ContentType | Component): GraphQLFieldConfigMap<unknown, unknown> {
    const fields = this.entryFields(schema);
    for (const attribute of schema.attributes.values()) {
      if (schema.privateAttributes.has(attribute.name) || !this.shows(schema, attribute, 'output')) continue;
      this.addOutputField(fields, schema, attribute);
    }
    if (schema.modelType === 'contentType') this.addSystemFields(fields, schema);
    return fields;
  }

  /** Fields an entry's or a component's type has before its attributes (its identifier...). */
  protected entryFields(schema: ContentType | Component): GraphQLFieldConfigMap<unknown, unknown> {
    return this.shape.entryFields(schema, () => this.object(schema));
  }

  /** Fields an entry's type has after its attributes: its dates, and a localized type's locale and localizations. */
  protected addSystemFields(fields: GraphQLFieldConfigMap<unknown, unknown>, schema: ContentType): void {
    for (const key of ['createdAt', 'updatedAt', 'publishedAt']) fields[key] = { type: DateTimeScalar };
    if (schema.localized) {
      fields.locale = { type: GraphQLString };
      this.addList(fields, 'localizations', schema);
    }
  }

  protected addOutputField(fields: GraphQLFieldConfigMap<unknown, unknown>, owner: ContentType | Component, attribute: Attribute): void {
    switch (attribute.kind) {
      case 'scalar': {
        const type = this.scalarOutput(owner, attribute);
        fields[attribute.name] = { type: this.requiredOutputs && attribute.required ? new GraphQLNonNull(type) : type };
        return;
      }
      case 'relation':
      case 'media': {
        const target = this.model.contentTypes.get(attribute.target)!;
        const many = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
        // A relation field needs its target's `find`, as Strapi's type builder sets it in `resolversConfig`: a
        // caller without it gets "Forbidden access" on the field. Strapi sets none on media fields.
        const extensions = attribute.kind === 'relation' ? needs({ action: findAction(target.uid) }) : undefined;
        if (many) this.addList(fields, attribute.name, target, this.relationResolver(owner, populatedList), extensions);
        else fields[attribute.name] = { type: this.object(target), resolve: this.relationResolver(owner, populated), extensions };
        return;
      }
      case 'component': {
        const target = this.model.components.get(attribute.component)!;
        const component = this.object(target);
        // A repeatable component takes a list's arguments, as Strapi's `getContentTypeArgs(component, { multiple })`.
        if (attribute.repeatable) fields[attribute.name] = { type: this.list(component, attribute.required), args: this.listArgs(target), resolve: populatedList };
        else fields[attribute.name] = { type: this.requiredOutputs && attribute.required ? new GraphQLNonNull(component) : component, resolve: populated };
        return;
      }
      case 'dynamiczone':
        fields[attribute.name] = { type: this.list(this.dynamicZone(owner, attribute.name, attribute.components), attribute.required), resolve: populatedList };
        return;
      case 'morph': {
        if (attribute.target !== undefined) {
          // morphMany / morphOne: rows of their target, as a relation to it.
          const target = this.model.contentTypes.get(attribute.target)!;
          if (attribute.toMany) this.addList(fields, attribute.name, target);
          else fields[attribute.name] = { type: this.object(target), resolve: populated };
          return;
        }
        // morphToMany / morphToOne: Strapi's `GenericMorph`, the union of every type, told apart by `__typename`.
        fields[attribute.name] = attribute.toMany ? { type: this.list(this.genericMorph(), false), resolve: populatedList } : { type: this.genericMorph(), resolve: populated };
      }
    }
  }

  /**
   * Strapi's `GenericMorph`: the union of the model's components and content types (those shadowCRUD shows), an item
   * resolved by its `__type` (a morph link's content type) or `__component`.
   */
  genericMorph(): GraphQLUnionType {
    let union = this.unions.get('GenericMorph');
    if (!union) {
      union = new GraphQLUnionType({
        name: 'GenericMorph',
        types: () => [
          ...[...this.model.components.values()].map((c) => this.object(c)),
          ...[...this.model.contentTypes.values()].filter((ct) => this.ext.shadowCRUD(ct.uid).isEnabled()).map((ct) => this.object(ct)),
        ],
        resolveType: (value: { __type?: string; __component?: string }) => {
          const contentType = this.model.contentTypes.get(value.__type ?? '');
          if (contentType) return typeName(contentType);
          const component = this.model.components.get(value.__component ?? '');
          return component ? componentTypeName(component) : undefined;
        },
      });
      this.unions.set('GenericMorph', union);
    }
    return union;
  }

  /**
   * Whether a required attribute (scalar, single component) is non-null in answers. Not in Strapi 5's schemas, where
   * Strapi says `name: String!`: its drafts may lack required values (they are checked when published), and an
   * answer listing such a draft would fail as a whole; in the seed's shape every stored version is checked whole.
   */
  protected readonly requiredOutputs: boolean = false;

  /**
   * A list attribute's type (repeatable component, dynamic zone): the list itself as required as the attribute,
   * as Strapi has it; its items never null (Strapi since strapi/strapi#27721; its v4 left them nullable).
   */
  protected list(item: GraphQLObjectType | GraphQLUnionType, required: boolean): GraphQLOutputType {
    const list = new GraphQLList(this.listItem(item));
    return required ? new GraphQLNonNull(list) : list;
  }

  protected listItem<T extends GraphQLObjectType | GraphQLUnionType>(item: T): GraphQLOutputType {
    return new GraphQLNonNull(item);
  }

  /** A to-many field and its `_connection` twin, both taking filters, pagination and sort. */
  protected addList(
    fields: GraphQLFieldConfigMap<unknown, unknown>,
    name: string,
    target: ContentType,
    resolve: GraphQLFieldResolver<unknown, unknown> = populatedList,
    extensions?: ReturnType<typeof needs>,
  ): void {
    const args = this.listArgs(target);
    const connection: GraphQLFieldResolver<unknown, unknown> = (parent, args, context, info) => {
      const nodes = resolve(parent, args, context, info);
      return nodes instanceof Promise ? nodes.then((list) => ({ nodes: list })) : { nodes };
    };
    fields[`${name}_connection`] = { type: this.relationCollection(target), args, resolve: connection, extensions };
    fields[name] = { type: new GraphQLNonNull(new GraphQLList(this.listItem(this.object(target)))), args, resolve, extensions };
  }

  /**
   * A relation (or media) field of a content type: what the statement populated under the field's response key, as
   * every read of Cairn's answers it; an entry without that key (an app's resolver answered a Document Service result
   * it did not populate) has it read, as Strapi's association resolver reads it for any entry.
   */
  protected relationResolver(owner: ContentType | Component, base: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
    if (owner.modelType !== 'contentType') return base;
    const empty = base === populatedList ? [] : null;
    return (parent, args, context, info) => {
      const entry = parent as Record<string, unknown>;
      const load = entry[info.path.key] === undefined ? this.relationLoaders.get(owner.uid) : undefined;
      if (!load) return base(parent, args, context, info);
      return load(entry, info, context).then((value) => value ?? empty);
    };
  }

  /** The arguments of a list field (a to-many relation, a repeatable component): filters, pagination, sort. */
  protected listArgs(target: ContentType | Component) {
    return { filters: { type: this.filters(target) }, pagination: { type: this.paginationArg, defaultValue: {} }, sort: { type: new GraphQLList(GraphQLString), defaultValue: [] } };
  }

  relationCollection(target: ContentType): GraphQLObjectType {
    return this.memo(`${typeName(target)}RelationResponseCollection`, (name) =>
      new GraphQLObjectType({
        name,
        fields: () => ({ nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.object(target)))) }, ...this.shape.collectionFields(this.object(target)) }),
      }),
    );
  }

  entityCollection(target: ContentType): GraphQLObjectType {
    return this.memo(`${typeName(target)}EntityResponseCollection`, (name) =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.object(target)))) },
          pageInfo: { type: new GraphQLNonNull(this.pagination) },
          ...this.shape.collectionFields(this.object(target), this.pagination),
        }),
      }),
    );
  }

  protected memo(name: string, make: (name: string) => GraphQLObjectType): GraphQLObjectType {
    let type = this.objects.get(name);
    if (!type) {
      type = make(name);
      this.objects.set(name, type);
    }
    return type;
  }

  /** `<Owner><Attribute>DynamicZone`: its components, and `Error` (an item whose component is unknown), as Strapi's. */
  protected dynamicZone(owner: ContentType | Component, attribute: string, components: readonly string[]): GraphQLUnionType {
    const name = `${ownerName(owner)}${capitalize(attribute)}DynamicZone`;
    let union = this.unions.get(name);
    if (!union) {
      const types = [...components.map((uid) => this.object(this.model.components.get(uid)!)), this.error];
      union = new GraphQLUnionType({
        name,
        types,
        resolveType: (value: { __component?: string }) => {
          const component = this.model.components.get(value.__component ?? '');
          return component ? componentTypeName(component) : 'Error';
        },
      });
      this.unions.set(name, union);
    }
    return union;
  }

  protected scalarOutput(owner: ContentType | Component, attribute: ScalarAttribute): GraphQLOutputType {
    if (attribute.type === 'enumeration') return this.enumeration(owner, attribute) ?? GraphQLString;
    return SCALAR_OUTPUT[attribute.type] ?? GraphQLString;
  }

  protected enumeration(owner: ContentType | Component, attribute: ScalarAttribute): GraphQLEnumType | undefined {
    const values = attribute.enum ?? [];
    // GraphQL enum values must be names; an enumeration with other values is exposed as a String.
    if (!values.every((v) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(v))) return undefined;
    const name = enumName(owner, attribute.name);
    let type = this.enums.get(name);
    if (!type) {
      type = new GraphQLEnumType({ name, values: Object.fromEntries(values.map((v) => [v, { value: v }])) });
      this.enums.set(name, type);
    }
    return type;
  }

  /** `<Type>FiltersInput`: one member per attribute, nested inputs for relations and components, and/or/not. */
  filters(schema: ContentType | Component): GraphQLInputObjectType {
    const name = `${schema.modelType === 'component' ? componentTypeName(schema) : typeName(schema)}FiltersInput`;
    let input = this.inputs.get(name);
    if (!input) {
      input = new GraphQLInputObjectType({
        name,
        fields: (): GraphQLInputFieldConfigMap => {
          const fields: GraphQLInputFieldConfigMap = {};
          const idField = this.filterIdField(schema);
          if (idField) fields[idField] = { type: this.scalarFilter('ID', GraphQLID) };
          for (const attribute of schema.attributes.values()) {
            if (schema.privateAttributes.has(attribute.name) || !this.shows(schema, attribute, 'filters')) continue;
            if (attribute.kind === 'scalar') fields[attribute.name] = { type: this.scalarFilterFor(attribute) };
            else if (attribute.kind === 'relation') fields[attribute.name] = { type: this.filters(this.model.contentTypes.get(attribute.target)!) };
            else if (attribute.kind === 'component') fields[attribute.name] = { type: this.filters(this.model.components.get(attribute.component)!) };
          }
          if (schema.modelType === 'contentType') {
            for (const key of ['createdAt', 'updatedAt', 'publishedAt']) fields[key] = { type: this.scalarFilter('DateTime', DateTimeScalar) };
            if (schema.localized) fields.locale = { type: this.scalarFilter('String', GraphQLString) };
          }
          fields.and = { type: new GraphQLList(input!) };
          fields.or = { type: new GraphQLList(input!) };
          fields.not = { type: input! };
          return fields;
        },
      });
      this.inputs.set(name, input);
    }
    return input;
  }

  /** The identifier member of a FiltersInput: `documentId` on content-types, `id` on components. */
  protected filterIdField(schema: ContentType | Component): string | undefined {
    return schema.modelType === 'component' ? 'id' : 'documentId';
  }

  /** `[<Owner><Attribute>DynamicZoneInput!]`: a scalar taking `{ __component, ...fields }`. */
  protected dynamicZoneInput(owner: ContentType | Component, attribute: string): GraphQLInputType {
    const name = `${ownerName(owner)}${capitalize(attribute)}DynamicZoneInput`;
    let scalar = this.dynamicZoneInputs.get(name);
    if (!scalar) {
      scalar = new GraphQLScalarType({ name, serialize: JSONScalar.serialize, parseValue: JSONScalar.parseValue, parseLiteral: JSONScalar.parseLiteral });
      this.dynamicZoneInputs.set(name, scalar);
    }
    return new GraphQLList(new GraphQLNonNull(scalar));
  }

  private readonly dynamicZoneInputs = new Map<string, GraphQLScalarType>();

  /**
   * Members an Input has besides the attributes, as Strapi 5 lists them: `publishedAt` on every content-type's, and
   * `locale` on those of types that are not localized (a localized type's mutations take a `locale` argument).
   * The document service accepts and ignores `publishedAt` (the mutation's `status` decides) and writes `locale`.
   */
  protected inputExtras(schema: ContentType | Component, fields: GraphQLInputFieldConfigMap): void {
    if (schema.modelType !== 'contentType') return;
    fields.publishedAt = { type: DateTimeScalar };
    if (!schema.localized) fields.locale = { type: GraphQLString };
  }

  protected scalarFilterFor(attribute: ScalarAttribute): GraphQLInputObjectType {
    const [prefix, type] = FILTER_OF[attribute.type] ?? ['String', GraphQLString];
    return this.scalarFilter(prefix, type);
  }

  /** `StringFilterInput`, `IntFilterInput`...: every REST operator. */
  protected scalarFilter(prefix: string, type: GraphQLInputType): GraphQLInputObjectType {
    let input = this.scalarFilters.get(prefix);
    if (!input) {
      const self: GraphQLInputObjectType = new GraphQLInputObjectType({
        name: `${prefix}FilterInput`,
        fields: () => ({
          and: { type: new GraphQLList(type) },
          or: { type: new GraphQLList(type) },
          not: { type: self },
          ...Object.fromEntries(OPERATORS.map((op) => [op, { type }])),
          null: { type: GraphQLBoolean },
          notNull: { type: GraphQLBoolean },
          in: { type: new GraphQLList(type) },
          notIn: { type: new GraphQLList(type) },
          between: { type: new GraphQLList(type) },
        }),
      });
      input = self;
      this.scalarFilters.set(prefix, input);
    }
    return input;
  }

  /** `<Type>Input`: every writable attribute, all optional (relations and media as ids). */
  input(schema: ContentType | Component): GraphQLInputObjectType {
    const name = `${schema.modelType === 'component' ? componentTypeName(schema) : typeName(schema)}Input`;
    let input = this.inputs.get(name);
    if (!input) {
      input = new GraphQLInputObjectType({
        name,
        fields: (): GraphQLInputFieldConfigMap => {
          const fields: GraphQLInputFieldConfigMap = {};
          if (schema.modelType === 'component') fields.id = { type: GraphQLID };
          for (const attribute of schema.attributes.values()) {
            if (!this.shows(schema, attribute, 'input')) continue;
            switch (attribute.kind) {
              case 'scalar':
                fields[attribute.name] = { type: attribute.type === 'enumeration' ? (this.enumeration(schema, attribute) ?? GraphQLString) : (SCALAR_OUTPUT[attribute.type] as GraphQLInputType) ?? GraphQLString };
                break;
              case 'relation':
                fields[attribute.name] = { type: attribute.toMany ? new GraphQLList(GraphQLID) : GraphQLID };
                break;
              case 'media':
                fields[attribute.name] = { type: attribute.multiple ? new GraphQLList(GraphQLID) : GraphQLID };
                break;
              case 'component': {
                const component = this.input(this.model.components.get(attribute.component)!);
                fields[attribute.name] = { type: attribute.repeatable ? new GraphQLList(component) : component };
                break;
              }
              case 'dynamiczone':
                fields[attribute.name] = { type: this.dynamicZoneInput(schema, attribute.name) };
            }
          }
          this.inputExtras(schema, fields);
          return fields;
        },
      });
      this.inputs.set(name, input);
    }
    return input;
  }
}

/**
 * Populated attributes are read under the field's response key: the compiler keys each populate node by it, so
 * two aliases of one relation with different arguments each get their own list (see read-selection.ts). Lists
 * arrive windowed by their `pagination` (in SQL).
 */
export const populated: GraphQLFieldResolver<unknown, unknown> = (parent, _args, _context, info) => (parent as Record<string, unknown>)[info.path.key] ?? null;
export const populatedList: GraphQLFieldResolver<unknown, unknown> = (parent, _args, _context, info) => (parent as Record<string, unknown>)[info.path.key] ?? [];

const ownerName = (owner: ContentType | Component) => (owner.modelType === 'component' ? componentTypeName(owner) : typeName(owner));
const capitalize = (s: string) => s[0].toUpperCase() + s.slice(1);

const SCALAR_OUTPUT: Partial<Record<string, GraphQLOutputType>> = {
  string: GraphQLString,
  text: GraphQLString,
  richtext: GraphQLString,
  email: GraphQLString,
  uid: GraphQLString,
  password: GraphQLString,
  enumeration: GraphQLString,
  blocks: JSONScalar,
  json: JSONScalar,
  integer: GraphQLInt,
  biginteger: LongScalar,
  float: GraphQLFloat,
  decimal: GraphQLFloat,
  boolean: GraphQLBoolean,
  date: DateScalar,
  time: TimeScalar,
  datetime: DateTimeScalar,
  timestamp: DateTimeScalar,
};

const FILTER_OF: Partial<Record<string, [string, GraphQLInputType]>> = {
  integer: ['Int', GraphQLInt],
  biginteger: ['Long', LongScalar],
  float: ['Float', GraphQLFloat],
  decimal: ['Float', GraphQLFloat],
  boolean: ['Boolean', GraphQLBoolean],
  date: ['Date', DateScalar],
  time: ['Time', TimeScalar],
  datetime: ['DateTime', DateTimeScalar],
  timestamp: ['DateTime', DateTimeScalar],
  json: ['JSON', JSONScalar],
  blocks: ['JSON', JSONScalar],
};
