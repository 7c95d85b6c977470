import pg from 'pg';
import { expect, vi } from 'vitest';
import type { HttpResult, TestApp } from '../support/app.js';

/** A 400 validation_error naming exactly one field (`query-string.limit`, `body.search`, …). */
export function expectViolation(res: HttpResult, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  const fields = res.body.error.details.validationErrors.map((v: { field: string }) => v.field);
  expect(fields).toEqual([field]);
  expect(res.body.error.details.validationErrors[0].expected.length).toBeGreaterThan(0);
}

export { expectNotFound } from '../support/assertions.js';

/** The ids of a 200 list, after checking it is one. */
export function idsOf(res: HttpResult, pick: (row: any) => string | number = (row) => row.id): (string | number)[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map(pick);
}

/** SQL statements a call runs, the credential lookup left out (cached per key in production). */
export async function statementsOf(t: TestApp, call: () => Promise<HttpResult>): Promise<{ res: HttpResult; statements: number }> {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  try {
    const res = await call();
    const statements = spy.mock.calls.filter(([sql]) => !/FROM "credentials"/.test(String((sql as { text?: string })?.text ?? sql))).length;
    return { res, statements };
  } finally {
    spy.mockRestore();
  }
}
