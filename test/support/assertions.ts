import { expect } from 'vitest';
import type { HttpResult, TestApp } from './app.js';

/**
 * A 400 validation_error carrying the request's id, with exactly one violation: `field` (`body.limit`,
 * `query-string.limit`, `path.adId`, `body`) at its location, and its rules: `expected` when given a list, one rule
 * matching it when given a pattern, at least one otherwise.
 */
export function expectViolation(res: HttpResult, field: string, expected?: string[] | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'validation_error', requestId: res.headers.get('x-request-id') });
  const rules = Array.isArray(expected) ? expected : expected ? [expect.stringMatching(expected)] : expect.arrayContaining([expect.any(String)]);
  expect(res.body.error.details.validationErrors).toEqual([{ field, location: field.split('.')[0], expected: rules }]);
}

/** A 404 not_found: a missing id, another workspace's, or one this workspace does not track look alike. */
export function expectNotFound(res: HttpResult) {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.error.code).toBe('not_found');
}

/** The data of a GraphQL call that must succeed: 200 and no errors. */
export async function graphqlData(t: TestApp, key: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await t.graphql(query, variables, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

/** The body of a REST call that must succeed with 200. */
export async function restBody(t: TestApp, key: string, method: string, path: string, body?: unknown) {
  const res = await t.rest(method, path, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A REST body without its requestId, to compare with the GraphQL field's value. */
export const withoutRequestId = ({ requestId: _requestId, ...rest }: Record<string, unknown>) => rest;
