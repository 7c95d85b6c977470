import { expect } from 'vitest';
import type { HttpResult } from '../support/app.js';

/** The ids of a 200 list, after checking it is one. */
export function idsOf(res: HttpResult, pick: (row: any) => string | number = (row) => row.id): (string | number)[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map(pick);
}
