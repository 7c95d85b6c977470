import { z } from 'zod';
import { builder } from '../builder.js';

// The bounds of export input: the list route as an integrator calls it, its arguments as one JSON object of at most
// 16 KB (what the route itself accepts is checked by running it: src/schema/shared/market-lists.ts), a file format.

export const exportId = z.guid({ message: '{name} must be a UUID' });
export const exportPath = z.string().min(1).max(500);

/** Most characters of an export's params, as JSON. */
export const MAX_PARAMS_CHARS = 16_384;

export const exportParams = z
  .custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), { message: '{name} must be a JSON object' })
  .refine((value) => JSON.stringify(value).length <= MAX_PARAMS_CHARS, { message: `{name} must be at most ${MAX_PARAMS_CHARS.toLocaleString('en')} characters of JSON` });

export const EXPORT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportFormatEnum = builder.enumType('ExportFormat', {
  description:
    'ndjson: one JSON object per line, each the route\'s item as REST returns it. csv: RFC 4180, UTF-8, a header row; nested objects flattened ' +
    '(`rank.currentRank`), lists as JSON text. parquet: typed columns named as in CSV (Int → INT32, Float → DOUBLE, Boolean, DateTime → ' +
    'timestamp in milliseconds, UTC; everything else a UTF-8 string, lists as JSON text).',
  values: EXPORT_FORMATS,
});

export const EXPORT_STATES = ['queued', 'running', 'done', 'failed', 'cancelled', 'expired'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

export const ExportStateEnum = builder.enumType('ExportState', {
  description:
    'queued: waiting for a worker. running: being written. done: the file is ready (until expiresAt). failed: stopped by an error (see `error`; ' +
    'nothing charged). cancelled: stopped by DELETE (charged for the rows written) or its file deleted. expired: its file was deleted after EXPORT_TTL_HOURS.',
  values: EXPORT_STATES,
});

export const ExportMethodEnum = builder.enumType('ExportMethod', {
  description: 'The method of the list route an export runs.',
  values: ['GET', 'POST'] as const,
});

/** Limits of the export list. */
export const LIST_LIMITS = { defaultLimit: 25, maxLimit: 100 } as const;
