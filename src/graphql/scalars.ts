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

/**
 * A string scalar whose input must have a form (`valid`), as graphql-scalars' Date and DateTime that Strapi serves:
 * a value of another form is refused where it is given (a variable: 400 BAD_USER_INPUT; a literal: a validation
 * error), before anything runs, rather than cast by the write (a date-time given for a Date was stored truncated).
 */
const checkedScalar = (name: string, description: string, valid: (value: string) => boolean, what: string) => {
  const parse = (value: unknown): string => {
    if (typeof value !== 'string') throw new TypeError(`${name} cannot represent non string type ${JSON.stringify(value)}`);
    if (!valid(value)) throw new TypeError(`${name} cannot represent an invalid ${what} ${value}.`);
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (v) => v,
    parseValue: parse,
    parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : literal(ast)),
  });
};

/** `YYYY-MM-DD`, a day that exists. */
function isFullDate(value: string): boolean {
  const match = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** RFC 3339's date-time: a full date, `T`, a time with seconds (and a fraction), `Z` or an offset. */
function isDateTime(value: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i.exec(value);
  return match !== null && isFullDate(match[1]);
}

export const DateTimeScalar = checkedScalar(
  'DateTime',
  'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  isDateTime,
  'date-time-string',
);
export const DateScalar = checkedScalar(
  'Date',
  'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  isFullDate,
  'date-string',
);
export const TimeScalar = stringScalar('Time');
export const I18NLocaleCodeScalar = stringScalar('I18NLocaleCode');
