import { GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';

const scalar = (name: string) => schema.getType(name) as GraphQLScalarType;

describe('Date scalar', () => {
  const date = scalar('Date');

  it('serialises stored days (midnight UTC) as YYYY-MM-DD, the same on every call', () => {
    expect(date.serialize(new Date('2026-11-22T00:00:00Z'))).toBe('2026-11-22');
    expect(date.serialize(new Date('2026-11-22T00:00:00Z'))).toBe('2026-11-22');
    expect(date.serialize(new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(date.serialize(new Date('1969-12-31T00:00:00Z'))).toBe('1969-12-31');
  });

  it('serialises other instants and strings as graphql-scalars does, and rejects invalid dates', () => {
    expect(date.serialize(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
    expect(date.serialize('2026-11-22')).toBe('2026-11-22');
    const farFuture = new Date(Date.UTC(10000, 0, 1));
    expect(date.serialize(farFuture)).toBe(farFuture.toISOString().split('T')[0]);
    expect(() => date.serialize(new Date(Number.NaN))).toThrow();
    expect(() => date.serialize('not a date')).toThrow();
  });
});
