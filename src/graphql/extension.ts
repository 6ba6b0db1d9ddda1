import type { GraphQLResolveInfo } from 'graphql';
import type { FastifyRequest } from 'fastify';

/** The generated operations of a content-type. */
export const QUERY_ACTIONS = ['find', 'findOne'] as const;
export const MUTATION_ACTIONS = ['create', 'update', 'delete'] as const;
export type ShadowCrudAction = (typeof QUERY_ACTIONS)[number] | (typeof MUTATION_ACTIONS)[number];
const ACTIONS: readonly string[] = [...QUERY_ACTIONS, ...MUTATION_ACTIONS];

/** What a policy sees: the resolver's arguments, the caller and the HTTP request (Strapi's GraphQL policy context). */
export interface PolicyContext {
  parent: unknown;
  args: Record<string, unknown>;
  context: unknown;
  info: GraphQLResolveInfo;
  state: { user: Record<string, unknown> | null; auth: { kind: string } };
  http: FastifyRequest;
  type: 'graphql';
  is(type: string): boolean;
}
export type PolicyFunction = (context: PolicyContext, config: unknown, app: { strapi: unknown; cairn: unknown }) => unknown;
export type ResolverMiddleware = (next: (...args: unknown[]) => unknown, parent: unknown, args: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) => unknown;

/** `resolversConfig['Query.articles']`: who may call a field, and what runs around its resolver. */
export interface ResolverConfig {
  /** `false`: anyone; `{ scope }`: the caller needs these actions instead of the field's own. */
  auth?: false | { scope?: string | string[] };
  policies?: Array<string | { name: string; config?: unknown } | PolicyFunction>;
  middlewares?: Array<string | { name: string; options?: unknown } | ResolverMiddleware>;
}

/** What `use()` takes once resolved: Strapi's extension shape. */
export interface GraphqlExtension {
  types?: unknown[];
  typeDefs?: string;
  plugins?: unknown[];
  resolvers?: Record<string, Record<string, unknown>>;
  resolversConfig?: Record<string, ResolverConfig>;
}
export type ExtensionInput = GraphqlExtension | ((tools: { nexus: unknown; cairn: unknown; strapi: unknown }) => GraphqlExtension);

/** Toggles of one attribute: hidden from the object type (output), from `<Type>Input` and from `<Type>FiltersInput`. */
export class ShadowCrudField {
  private enabled = true;
  private output = true;
  private input = true;
  private filters = true;

  disable(): this {
    this.enabled = false;
    return this;
  }
  disableOutput(): this {
    this.output = false;
    return this;
  }
  disableInput(): this {
    this.input = false;
    return this;
  }
  disableFilters(): this {
    this.filters = false;
    return this;
  }
  isEnabled(): boolean {
    return this.enabled;
  }
  isDisabled(): boolean {
    return !this.enabled;
  }
  hasOutputEnabled(): boolean {
    return this.enabled && this.output;
  }
  hasInputEnabled(): boolean {
    return this.enabled && this.input;
  }
  hasFiltersEnabled(): boolean {
    return this.enabled && this.filters;
  }
}

/** Toggles of one content-type (or component): the whole type, its queries, its mutations, single actions, fields. */
export class ShadowCrud {
  private enabled = true;
  private queries = true;
  private mutations = true;
  private readonly disabledActions = new Set<string>();
  private readonly fields = new Map<string, ShadowCrudField>();

  constructor(readonly uid: string) {}

  disable(): this {
    this.enabled = false;
    return this;
  }
  disableQueries(): this {
    this.queries = false;
    return this;
  }
  disableMutations(): this {
    this.mutations = false;
    return this;
  }
  disableAction(action: ShadowCrudAction): this {
    // A typo here would leave an operation exposed that the app meant to hide: refuse it at start-up.
    if (!ACTIONS.includes(action)) throw new TypeError(`graphql shadowCRUD('${this.uid}'): unknown action '${String(action)}' (known: ${ACTIONS.join(', ')})`);
    this.disabledActions.add(action);
    return this;
  }
  disableActions(actions: ShadowCrudAction[]): this {
    if (!Array.isArray(actions)) throw new TypeError(`graphql shadowCRUD('${this.uid}').disableActions takes an array of actions`);
    for (const action of actions) this.disableAction(action);
    return this;
  }
  isEnabled(): boolean {
    return this.enabled;
  }
  isDisabled(): boolean {
    return !this.enabled;
  }
  areQueriesEnabled(): boolean {
    return this.enabled && this.queries;
  }
  areQueriesDisabled(): boolean {
    return !this.areQueriesEnabled();
  }
  areMutationsEnabled(): boolean {
    return this.enabled && this.mutations;
  }
  areMutationsDisabled(): boolean {
    return !this.areMutationsEnabled();
  }
  isActionEnabled(action: ShadowCrudAction): boolean {
    const family = (QUERY_ACTIONS as readonly string[]).includes(action) ? this.areQueriesEnabled() : this.areMutationsEnabled();
    return family && !this.disabledActions.has(action);
  }
  isActionDisabled(action: ShadowCrudAction): boolean {
    return !this.isActionEnabled(action);
  }
  field(name: string): ShadowCrudField {
    let field = this.fields.get(name);
    if (!field) {
      field = new ShadowCrudField();
      this.fields.set(name, field);
    }
    return field;
  }
}

/**
 * `cairn.plugin('graphql').service('extension')`: what the app's `register()` asks of the GraphQL schema. The
 * schema builders read the toggles; `finalizeSchema` merges the extensions and applies their resolver configs.
 */
export class GraphqlExtensionService {
  private readonly crud = new Map<string, ShadowCrud>();
  private readonly extensions: ExtensionInput[] = [];

  shadowCRUD(uid: string): ShadowCrud {
    if (typeof uid !== 'string' || !uid) throw new TypeError('graphql shadowCRUD(uid) takes a content-type uid');
    let crud = this.crud.get(uid);
    if (!crud) {
      crud = new ShadowCrud(uid);
      this.crud.set(uid, crud);
    }
    return crud;
  }

  use(extension: ExtensionInput): this {
    if (typeof extension !== 'function' && (extension === null || typeof extension !== 'object')) {
      throw new TypeError('graphql extension use() takes an object or a function returning one');
    }
    this.extensions.push(extension);
    return this;
  }

  hasExtensions(): boolean {
    return this.extensions.length > 0;
  }

  /** The app asked for anything (an extension, a shadowCRUD toggle): its schema is then built at start-up. */
  isCustomized(): boolean {
    return this.extensions.length > 0 || this.crud.size > 0;
  }

  /** The uids the app configured, so a typo in one can be reported instead of silently changing nothing. */
  configuredUids(): string[] {
    return [...this.crud.keys()];
  }

  /** Every registered extension, functions called now (when the schema is built, after all of `register`). */
  resolve(tools: { nexus: unknown; cairn: unknown; strapi: unknown }): GraphqlExtension[] {
    return this.extensions.map((extension, index) => {
      const resolved = typeof extension === 'function' ? extension(tools) : extension;
      if (resolved === null || typeof resolved !== 'object') throw new TypeError(`graphql extension #${index + 1} must return an object of { types, typeDefs, resolvers, resolversConfig }`);
      return resolved;
    });
  }
}
