import { GraphQLScalarType } from 'graphql';
import { DateResolver, DateTimeResolver, JSONResolver, SafeIntResolver } from 'graphql-scalars';
import { builder } from './builder.js';

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('Date', DateResolver);
builder.addScalarType('JSON', JSONResolver);
// Counts such as reach exceed GraphQL's 32-bit Int; they are stored as bigint and are safe below 2^53.
builder.addScalarType(
  'SafeInt',
  new GraphQLScalarType({
    ...SafeIntResolver.toConfig(),
    serialize: (value) => SafeIntResolver.serialize(typeof value === 'bigint' ? Number(value) : value),
  }),
);
