import SchemaBuilder from '@pothos/core';
import type { GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import MeteringPlugin from '../../src/metering/pothos-plugin.js';
import { PRICES, priceOf } from '../../src/metering/prices.js';
import { schema } from '../../src/schema/index.js';

// Fail closed: a root field runs only at the price the table gives it, and the schema is not built without one.

function rootFields(): string[] {
  const roots: [string, GraphQLObjectType | null | undefined][] = [['Query', schema.getQueryType()], ['Mutation', schema.getMutationType()]];
  return roots.flatMap(([kind, type]) => Object.keys(type?.getFields() ?? {}).map((name) => `${kind}.${name}`));
}

/** A one-field schema built with the metering plugin alone. */
function buildWith(field: string) {
  // Typed as the project's builder options (the other plugins' options are required there); only metering runs.
  const builder = new SchemaBuilder<{ Context: object }>({ plugins: [MeteringPlugin] } as never);
  builder.queryType({ fields: (t) => ({ [field]: t.string({ resolve: () => 'x' }) }) });
  return () => builder.toSchema();
}

describe('prices', () => {
  it('every Query and Mutation field of the schema has one, routed or not', () => {
    const fields = rootFields();
    expect(fields).toContain('Mutation.adShare');
    expect(fields.filter((field) => priceOf(field) === undefined)).toEqual([]);
  });

  it('every price names a root field of the schema', () => {
    const fields = new Set(rootFields());
    expect(Object.keys(PRICES).filter((field) => !fields.has(field))).toEqual([]);
  });

  it('a root field without one fails the schema build; with one it builds', () => {
    expect(buildWith('unpricedField')).toThrow('Query.unpricedField has no price');
    expect(buildWith('health')).not.toThrow();
  });
});
