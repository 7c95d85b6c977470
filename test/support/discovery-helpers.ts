import { expect } from 'vitest';
import type { HttpResult } from './app.js';

/** The ids of a 200 list response. */
export function idsOf<T = string>(res: HttpResult, key = 'id'): T[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((row: Record<string, T>) => row[key]);
}
