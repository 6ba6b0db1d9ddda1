import {
  GraphQLError,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isObjectType,
  visit,
  BREAK,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { AccessControl } from '../auth/access-control.js';
import { authorize } from '../auth/access-control.js';
import { CairnError } from '../errors/index.js';
import { declaredAuth } from './field-auth.js';
import { fieldGroups, mergedSelection } from './selection.js';

/**
 * A root field's compiled reader: the JSON text of the field's value, read with one statement (plus a count), or
 * undefined when its selection needs field resolvers.
 */
export type CompiledReader = (args: Record<string, unknown>, info: GraphQLResolveInfo, request: FastifyRequest) => Promise<string | undefined>;

/** The `extensions` of a generated root field that has a compiled reader. */
export function compiledField(reader: CompiledReader): { cairnCompiled: CompiledReader } {
  return { cairnCompiled: reader };
}

/**
 * The JSON text of a wrapper object (`{ data, meta, __typename }`) as the root field's selection on `wrapper`
 * asks for it: each selected field's text from `parts` (or a function of the field's nodes), keys in order.
 */
export function wrapperJson(wrapper: GraphQLObjectType, info: GraphQLResolveInfo, parts: Record<string, string | ((nodes: FieldNode[]) => string)>): string {
  const members: string[] = [];
  for (const [key, nodes] of fieldGroups(mergedSelection(info.fieldNodes), wrapper.name, info)) {
    const name = nodes[0].name.value;
    const part = name === '__typename' ? JSON.stringify(wrapper.name) : parts[name];
    if (part === undefined) throw new Error(`no compiled value for ${wrapper.name}.${name}`);
    members.push(`${JSON.stringify(key)}:${typeof part === 'function' ? part(nodes) : part}`);
  }
  return `{${members.join(',')}}`;
}

/** A plain value (pagination meta) as JSON text, projected on the selection the way GraphQL would answer it. */
export function projectJson(value: unknown, type: GraphQLObjectType, selection: SelectionSetNode, info: GraphQLResolveInfo): string {
  if (value === null || value === undefined) return 'null';
  const members: string[] = [];
  for (const [key, nodes] of fieldGroups(selection, type.name, info)) {
    const name = nodes[0].name.value;
    let text: string;
    if (name === '__typename') text = JSON.stringify(type.name);
    else {
      const fieldType = getNamedType(type.getFields()[name].type);
      const member = (value as Record<string, unknown>)[name];
      text = isObjectType(fieldType) ? projectJson(member, fieldType, mergedSelection(nodes), info) : JSON.stringify(member ?? null);
    }
    members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

type RootField =
  | { key: string; nodes: FieldNode[]; field: GraphQLField<unknown, unknown>; reader: CompiledReader; action: string }
  /** `__typename` */
  | { key: string; literal: string };

/**
 * The compiled path of a query: when every root field is a generated read (no app customization, no directives),
 * each one is answered by its compiled reader, whose statement builds the response JSON itself, and the response
 * text is assembled from those pieces: graphql-js field execution is skipped (DESIGN.md, "Reads"). `run` answers
 * undefined when anything asks for more (then the query runs normally, which also words the client's errors); a
 * failure of the server's own is thrown.
 */
export interface CompiledOperation {
  run(variables: Record<string, unknown> | undefined, request: FastifyRequest): Promise<string | undefined>;
}

export function compileOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  access: AccessControl,
  customized: ReadonlySet<string>,
): CompiledOperation | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const operation = operationName === undefined ? (operations.length === 1 ? operations[0] : undefined) : operations.find((o) => o.name?.value === operationName);
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== 'query' || !queryType || hasDirectives(document)) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
  const base = { fragments, variableValues: {} } as unknown as GraphQLResolveInfo;
  const roots: RootField[] = [];
  for (const [key, nodes] of fieldGroups(operation.selectionSet, queryType.name, base)) {
    if (nodes[0].name.value === '__typename') {
      roots.push({ key, literal: JSON.stringify(queryType.name) });
      continue;
    }
    const field = queryType.getFields()[nodes[0].name.value];
    const reader = (field?.extensions as { cairnCompiled?: CompiledReader } | undefined)?.cairnCompiled;
    const auth = declaredAuth(field?.extensions);
    if (!field || !reader || !auth || !('action' in auth) || customized.has(`${queryType.name}.${field.name}`)) return undefined;
    roots.push({ key, nodes, field, reader, action: auth.action });
  }
  return {
    async run(inputs, request) {
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs ?? {});
      if (coerced.errors) return undefined;
      try {
        const parts = await Promise.all(
          roots.map(async (root) => {
            if ('literal' in root) return `${JSON.stringify(root.key)}:${root.literal}`;
            await authorize(access, request, root.action);
            const info = { fieldNodes: root.nodes, fragments, variableValues: coerced.coerced } as unknown as GraphQLResolveInfo;
            const text = await root.reader(getArgumentValues(root.field, root.nodes[0], coerced.coerced), info, request);
            return text === undefined ? undefined : `${JSON.stringify(root.key)}:${text}`;
          }),
        );
        if (parts.some((p) => p === undefined)) return undefined;
        return `{"data":{${parts.join(',')}}}`;
      } catch (error) {
        // Bad input or a refused caller: normal execution answers with the GraphQL error it deserves. Anything else
        // (a database fault, a bug) is the caller's to report: running the query again would only hide it.
        if (error instanceof CairnError || error instanceof GraphQLError) return undefined;
        throw error;
      }
    },
  };
}

function hasDirectives(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive() {
      found = true;
      return BREAK;
    },
  });
  return found;
}
