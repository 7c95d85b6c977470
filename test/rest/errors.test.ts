import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { restErrorFrom } from '../../rest/errors.js';
import { routes } from '../../rest/routes.js';
import { apiError } from '../../src/errors.js';

const route = (field: string) => routes.find((r) => r.field === field)!;

describe('restErrorFrom', () => {
  it("turns GraphQL's own variable coercion errors into 400 validation_error naming where the value came from", () => {
    const failure = restErrorFrom([new GraphQLError('Variable "$limit" got invalid value "x"; Int cannot represent non-integer value: "x"')], 'req-1', route('Query.adsQuery'));
    expect(failure.status).toBe(400);
    expect(failure.body.error).toMatchObject({ code: 'validation_error', requestId: 'req-1' });
    expect(failure.body.error.details).toEqual({
      validationErrors: [{ field: 'body.limit', location: 'body', expected: ['limit: got invalid value "x"; Int cannot represent non-integer value: "x"'] }],
    });
    const missing = restErrorFrom([new GraphQLError('Variable "$search" of required type "String!" was not provided.')], 'req-2', route('Query.ads'));
    expect(missing.body.error.details).toMatchObject({ validationErrors: [{ field: 'query-string.search', location: 'query-string' }] });
  });

  it('keeps deliberate errors and masks everything else as internal_error', () => {
    expect(restErrorFrom([apiError('not_found', 'Ad "x" was not found.')], 'r', route('Query.ad'))).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(restErrorFrom([new Error('connection reset')], 'r', route('Query.ad'))).toMatchObject({ status: 500, body: { error: { code: 'internal_error', requestId: 'r' } } });
  });
});
