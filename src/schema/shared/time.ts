import { z } from 'zod';

/** One day in milliseconds: the one definition the schema uses. */
export const DAY_MS = 86_400_000;

/** The last millisecond of a date's UTC day: a `…Before` date bound includes its whole day. */
export function endOfDay<T extends Date | null | undefined>(date: T): T {
  return (date ? new Date(date.getTime() + DAY_MS - 1) : date) as T;
}

/** Midnight UTC `days` days before today (a `last7d`-style window's start). */
export function daysAgo(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS);
}

/** A snapshot day: `latest` or a calendar date YYYY-MM-DD (the brandtracker routes' `snapshotDate`, read or deprecated and ignored). */
export const snapshotDate = z.union([z.literal('latest'), z.iso.date()], { message: '{name} must be "latest" or a date (YYYY-MM-DD)' });

/**
 * The deprecated `snapshotDate` of the current-ranking and legacy rank routes, accepted and ignored: "latest", a
 * date, or a date-time (the reference types it as a string, and a client may send a timestamp); anything else is
 * a validation_error, never silently accepted.
 */
export const deprecatedSnapshotDate = z.union([z.literal('latest'), z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
  message: '{name} must be "latest", a date (YYYY-MM-DD) or an ISO 8601 date-time',
});
