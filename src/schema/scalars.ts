import { GraphQLError, GraphQLScalarType } from 'graphql';
import { DateResolver, DateTimeResolver, JSONResolver, SafeIntResolver } from 'graphql-scalars';
import { builder } from './builder.js';
import { DAY_MS } from './shared/time.js';

const dayStrings = new Map<number, string>();

/**
 * `YYYY-MM-DD` of a Date at midnight UTC (every stored `@db.Date`), memoised per day: a page history
 * serialises hundreds of them per response, and the same few hundred days recur across requests.
 */
function isoDay(date: Date): string | undefined {
  const time = date.getTime();
  if (time % DAY_MS !== 0) return undefined;
  let text = dayStrings.get(time);
  if (text === undefined) {
    const iso = date.toISOString();
    if (iso[10] !== 'T') return undefined; // a year outside 0000-9999 (+010000-…): graphql-scalars' own format
    text = iso.slice(0, 10);
    if (dayStrings.size >= 20_000) dayStrings.clear(); // ~55 years of days: bounded, never reached in practice
    dayStrings.set(time, text);
  }
  return text;
}

// An instant is sent as its ISO 8601 string (graphql-scalars' serialize hands back a Date, which JSON.stringify then
// writes through Date#toJSON: the same text, on its slow path for every date of every item).
builder.addScalarType(
  'DateTime',
  new GraphQLScalarType({
    ...DateTimeResolver.toConfig(),
    serialize: (value) => {
      const date = value instanceof Date ? value : (DateTimeResolver.serialize(value) as Date);
      if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent an invalid Date instance');
      return date.toISOString();
    },
  }),
);
builder.addScalarType(
  'Date',
  new GraphQLScalarType({
    ...DateResolver.toConfig(),
    serialize: (value) => (value instanceof Date && isoDay(value)) || DateResolver.serialize(value),
  }),
);
builder.addScalarType('JSON', JSONResolver);
// Counts such as reach exceed GraphQL's 32-bit Int; they are stored as bigint and are safe below 2^53.
builder.addScalarType(
  'SafeInt',
  new GraphQLScalarType({
    ...SafeIntResolver.toConfig(),
    serialize: (value) => SafeIntResolver.serialize(typeof value === 'bigint' ? Number(value) : value),
  }),
);
