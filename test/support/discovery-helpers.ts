import { expect } from 'vitest';
import type { HttpResult } from './app.js';
import { recordStatements } from './statements.js';

/** A 400 validation_error naming exactly one field (`query-string.limit`, `body.pageNiches`). */
export function expectViolation(res: HttpResult, field: string, expected?: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  const [violation, ...others] = res.body.error.details.validationErrors;
  expect(others).toEqual([]);
  expect(violation.field).toBe(field);
  expect(violation.location).toBe(field.slice(0, field.lastIndexOf('.')));
  if (expected) expect(violation.expected).toEqual(expected);
  else expect(violation.expected.length).toBeGreaterThan(0);
}

/** The ids of a 200 list response. */
export function idsOf<T = string>(res: HttpResult, key = 'id'): T[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((row: Record<string, T>) => row[key]);
}

/**
 * The SQL statements a call runs, apart from the API key's lookup and last-use write (cached per key in
 * production). Counted on every pg client, so Prisma's and raw SQL alike (statements.ts's recorder).
 */
export async function statementsOf(call: () => Promise<HttpResult>): Promise<{ res: HttpResult; statements: string[] }> {
  const recorder = recordStatements();
  try {
    const res = await call();
    return { res, statements: recorder.own() };
  } finally {
    recorder.restore();
  }
}
