import { expect } from 'vitest';
import type { HttpResult, TestApp } from './app.js';

/** A 400 validation_error naming exactly one field (`body.limit`, `query-string.limit`, `path.adId`), with its rules when given. */
export function expectViolation(res: HttpResult, field: string, expected?: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  const violations = res.body.error.details.validationErrors;
  expect(violations.map((v: { field: string }) => v.field)).toEqual([field]);
  const [violation] = violations;
  expect(violation.location).toBe(field.slice(0, field.indexOf('.')));
  if (expected) expect(violation.expected).toEqual(expected);
  else expect(violation.expected.length).toBeGreaterThan(0);
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
