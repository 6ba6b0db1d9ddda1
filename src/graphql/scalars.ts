import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literal(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      return undefined;
  }
}

/** Any JSON value (json attributes, formats, dynamic-zone input). */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast) => literal(ast),
});

/** 64-bit integers: stored exactly, answered as numbers in GraphQL (as the reference does). */
export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  serialize: (v) => (typeof v === 'string' ? Number(v) : v),
  parseValue: (v) => (typeof v === 'number' ? String(v) : v),
  parseLiteral: (ast) => (ast.kind === Kind.INT || ast.kind === Kind.STRING ? ast.value : undefined),
});

const stringScalar = (name: string) =>
  new GraphQLScalarType({
    name,
    serialize: (v) => v,
    parseValue: (v) => v,
    parseLiteral: (ast) => (ast.kind === Kind.STRING ? ast.value : undefined),
  });

export const DateTimeScalar = stringScalar('DateTime');
export const DateScalar = stringScalar('Date');
export const TimeScalar = stringScalar('Time');
export const I18NLocaleCodeScalar = stringScalar('I18NLocaleCode');
