import type { z } from 'zod';
import { apiError } from '../errors.js';
import type { Json } from './types.js';

// What every connector does with what it is given before it fetches: its query checked against its zod schema (the
// first issue becomes the `validation_error`, named after the source), and the cursor a stopped run stored read
// back, or the start when it is not one of this connector's.

/** `value` checked by `schema`; a bad one throws a `validation_error` "<source>: <the first issue>". */
export function queryOf<S extends z.ZodType>(source: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw apiError('validation_error', `${source}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** The stored cursor as `schema` reads it, or null (the start) for anything else: none, or one of another shape. */
export function cursorOf<S extends z.ZodType>(schema: S, stored: Json | null): z.output<S> | null {
  const parsed = schema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** `iso` (YYYY-MM-DD) is a day of the calendar: not 2026-02-30. */
export function isRealDay(iso: string): boolean {
  const time = Date.parse(`${iso}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(iso);
}
