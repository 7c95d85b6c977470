import type { JsonSchema } from './json-schema.js';

// Answers that fit a model's context. Every tool takes `maxTokens` (the answer's size budget, counted as
// CHARS_PER_TOKEN characters of its JSON text per token), `fields` (a projection of each record: dotted paths) and,
// on lists, `detail` (compact items by default on the public tools, the full records on the route tools). A list cut
// to the budget keeps whole items and says where to continue: `continueWith` names the tool and the arguments of the
// next call, which starts exactly at the first item left out (page-style lists are continued with a smaller `limit`
// that divides the rows already read). A record that does not fit has its long texts and lists shortened, and says so.

export const CHARS_PER_TOKEN = 4;
export const DEFAULT_MAX_TOKENS = 8_000;
export const MIN_MAX_TOKENS = 200;
export const MAX_MAX_TOKENS = 50_000;

export type Detail = 'compact' | 'full';
export type Shaping = { maxTokens: number; fields: string[] | null; detail: Detail };
export type Json = Record<string, unknown>;

/** The arguments shaping a tool's answer, as listed in every tool's input schema. */
export const SHAPING_ARGUMENTS = ['maxTokens', 'fields', 'detail'] as const;

export function shapingSchema(defaultDetail: Detail | null): Record<string, JsonSchema> {
  const schema: Record<string, JsonSchema> = {
    maxTokens: {
      type: 'integer', minimum: MIN_MAX_TOKENS, maximum: MAX_MAX_TOKENS, default: DEFAULT_MAX_TOKENS,
      description: `Size budget of the answer in tokens (${CHARS_PER_TOKEN} characters of its JSON text each). A list past it is cut at a whole item, with continueWith; a record past it has its long texts and lists shortened.`,
    },
    fields: {
      type: 'array', items: { type: 'string' },
      description: "Only these fields of each record (dotted paths, e.g. [\"id\", \"metrics.reach\"]); `id` is always kept. Applies to the full record, so it also asks for fields the compact form leaves out.",
    },
  };
  if (defaultDetail) {
    schema.detail = {
      type: 'string', enum: ['compact', 'full'], default: defaultDetail,
      description: 'compact: list items as ids, names and the key figures (the full record is one call away: see fullRecord); full: the records as the route answers them.',
    };
  }
  return schema;
}

export type ShapingViolation = { field: string; location: 'argument'; expected: string[] };

/** The shaping arguments of a call, validated, and the other arguments without them. */
export function readShaping(args: Json, defaultDetail: Detail): { shaping: Shaping; rest: Json } | { violations: ShapingViolation[] } {
  const { maxTokens, fields, detail, ...rest } = args;
  const violations: ShapingViolation[] = [];
  const bad = (field: string, expected: string) => violations.push({ field, location: 'argument', expected: [expected] });
  if (maxTokens !== undefined && maxTokens !== null && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS)) {
    bad('maxTokens', `maxTokens must be an integer from ${MIN_MAX_TOKENS} to ${MAX_MAX_TOKENS}`);
  }
  if (fields !== undefined && fields !== null && (!Array.isArray(fields) || fields.length > 100 || fields.some((field) => typeof field !== 'string' || !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(field)))) {
    bad('fields', 'fields must be a list of at most 100 dotted field paths (letters, digits, _ and .)');
  }
  if (detail !== undefined && detail !== null && detail !== 'compact' && detail !== 'full') bad('detail', 'detail must be one of: compact, full');
  if (violations.length) return { violations };
  return {
    shaping: {
      maxTokens: typeof maxTokens === 'number' ? maxTokens : DEFAULT_MAX_TOKENS,
      fields: Array.isArray(fields) && fields.length ? (fields as string[]) : null,
      detail: (detail as Detail | undefined) ?? defaultDetail,
    },
    rest,
  };
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value at a dotted path, or undefined. */
function at(record: unknown, path: string[]): unknown {
  let value = record;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** A record reduced to `fields` (dotted paths), nested as in the record; `id` always kept when it has one. */
export function project(record: unknown, fields: readonly string[]): unknown {
  if (!isObject(record)) return record;
  const out: Json = {};
  for (const field of ['id', ...fields]) {
    const path = field.split('.');
    const value = at(record, path);
    if (value === undefined) continue;
    let target = out;
    for (const key of path.slice(0, -1)) target = (target[key] = isObject(target[key]) ? target[key] : {}) as Json;
    target[path[path.length - 1]] = value;
  }
  return out;
}

/** Longest text of a compact item. */
const COMPACT_TEXT = 160;
/** Keys a compact item keeps from nested objects: the ids, names and figures that matter. */
const NESTED_KEYS = /^(id|name|title|domain|type|status|facebookPageId|shopId|advertiserId|websiteId|url|currentRank|rankDelta|reach|aggregatedReach|duplicates|activeAds|monthlyVisits|price|amount|currency|total|count|views|likes|subject|sentAt)$/;

export const clipText = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);

/**
 * The compact form of a list item, for any route's rows: its top-level scalars (texts cut), and from its nested
 * objects the ids, names and key figures; lists of values are kept when short, other lists become their length.
 */
export function compactItem(item: unknown): unknown {
  if (!isObject(item)) return typeof item === 'string' ? clipText(item, COMPACT_TEXT) : item;
  const out: Json = {};
  for (const [key, value] of Object.entries(item)) {
    if (value === null || typeof value !== 'object') out[key] = typeof value === 'string' ? clipText(value, COMPACT_TEXT) : value;
    else if (Array.isArray(value)) {
      if (value.length <= 5 && value.every((entry) => entry === null || typeof entry !== 'object')) out[key] = value.map((entry) => (typeof entry === 'string' ? clipText(entry, 60) : entry));
      else out[`${key}Count`] = value.length;
    } else {
      const nested = Object.fromEntries(
        Object.entries(value).flatMap(([inner, v]) =>
          NESTED_KEYS.test(inner) && (v === null || typeof v !== 'object') ? [[inner, typeof v === 'string' ? clipText(v, COMPACT_TEXT) : v]] : [],
        ),
      );
      if (Object.keys(nested).length) out[key] = nested;
    }
  }
  return out;
}

/** Shortens texts and lists everywhere in a value (the last resort for a record that does not fit). */
function shorten(value: unknown, items: number, chars: number): unknown {
  if (typeof value === 'string') return clipText(value, chars);
  if (Array.isArray(value)) return value.slice(0, items).map((entry) => shorten(entry, items, chars));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, shorten(entry, items, chars)]));
  return value;
}

/** Room left for the note saying a value was shortened. */
const MARKER = 160;

const STEPS: [number, number][] = [[50, 2000], [20, 500], [10, 200], [5, 80], [2, 40], [1, 20]];

/** A tool's answer that is not a route's envelope (a task's), projected to `fields` and fitted to the budget. */
export function shapeValue(value: unknown, shaping: Shaping): string {
  const projected = shaping.fields ? project(value, shaping.fields) : value;
  const { value: fitted, shortened } = fit(projected, shaping.maxTokens * CHARS_PER_TOKEN - MARKER);
  return JSON.stringify(shortened && isObject(fitted) ? { ...fitted, shortened: 'texts and lists were shortened to fit maxTokens' } : fitted);
}

/** A value within `chars` characters of JSON: itself, or shortened step by step (`shortened` says so). */
export function fit(value: unknown, chars: number): { value: unknown; shortened: boolean } {
  if (JSON.stringify(value).length <= chars) return { value, shortened: false };
  // One long text (an email's HTML) keeps as much of itself as fits; then texts and lists shorten step by step.
  for (const [items, text] of [[1000, chars - 512] as [number, number], ...STEPS]) {
    if (text < 20) continue;
    const short = shorten(value, items, text);
    if (JSON.stringify(short).length <= chars) return { value: short, shortened: true };
  }
  // A lone long text (an email's HTML): its first characters, as many as fit.
  if (typeof value === 'string') return { value: clipText(value, Math.max(1, chars - 16)), shortened: true };
  return { value: shorten(value, 1, 8), shortened: true };
}

/** Where a tool's list continues: its tool and arguments. */
export type Continuation = { tool: string; arguments: Json; remaining?: number };
type Pagination = { page?: number; offset?: number; limit?: number; total?: number; totalPages?: number; nextCursor?: string | null; hasMore?: boolean };

/** The largest divisor of `limit` that is at most `most` (at least 1). */
function divisorAtMost(limit: number, most: number): number {
  for (let k = Math.min(most, limit); k > 1; k--) if (limit % k === 0) return k;
  return 1;
}

/** The arguments that continue a list after `shown` of the rows this page returned. */
function continueArguments(args: Json, pagination: Pagination, returned: number, shown: number): { args: Json; keep: number } | null {
  const limit = pagination.limit ?? returned;
  if (typeof pagination.offset === 'number') {
    const next = pagination.offset + shown;
    if (shown === returned && (pagination.total === undefined ? pagination.hasMore === false || returned < limit : next >= pagination.total)) return null;
    return { args: { ...args, offset: next, limit }, keep: shown };
  }
  if (typeof pagination.page === 'number') {
    if (shown === returned) return pagination.totalPages !== undefined && pagination.page >= pagination.totalPages ? null : { args: { ...args, page: pagination.page + 1, limit }, keep: shown };
    // A smaller page size dividing the rows read so far, so the next page starts at the first item left out.
    const keep = divisorAtMost(limit, shown);
    const read = (pagination.page - 1) * limit + keep;
    return { args: { ...args, page: read / keep + 1, limit: keep }, keep };
  }
  if ('nextCursor' in pagination) {
    if (shown === returned) return pagination.nextCursor ? { args: { ...args, cursor: pagination.nextCursor }, keep: shown } : null;
    return null; // a cursor page cannot be resumed in its middle: the answer says to ask for fewer rows
  }
  return null;
}

export type ListContext = {
  tool: string;
  /** The arguments of this call as the agent gave them (shaping ones included), for continueWith. */
  args: Json;
  /** Compact form of one item (compactItem when not given). */
  compact?: (item: unknown) => unknown;
  /** The call that answers an item's full record: its tool and the argument that takes the item's id. */
  record?: { tool: string; argument: string };
};

/**
 * A route's JSON envelope within the budget: lists compacted or projected, then cut at a whole item with continueWith;
 * any other answer projected and fitted. Returns the JSON text.
 */
export function shapeEnvelope(envelope: unknown, shaping: Shaping, list: ListContext): string {
  const budget = shaping.maxTokens * CHARS_PER_TOKEN;
  if (!isObject(envelope)) return JSON.stringify(fit(envelope, budget).value);
  const { data, pagination, ...rest } = envelope;
  if (!Array.isArray(data)) {
    const shaped = shaping.fields ? project(data, shaping.fields) : data;
    const { value, shortened } = fit({ ...rest, data: shaped }, budget - MARKER);
    return JSON.stringify(shortened ? { ...(value as Json), shortened: 'texts and lists were shortened to fit maxTokens: ask for fields, or a larger maxTokens' } : value);
  }
  const form = (item: unknown) => (shaping.fields ? project(item, shaping.fields) : shaping.detail === 'compact' ? (list.compact ?? compactItem)(item) : item);
  const items = data.map(form);
  const page = (isObject(pagination) ? pagination : {}) as Pagination;
  const fullRecord = list.record && shaping.detail === 'compact' && !shaping.fields ? { tool: list.record.tool, argument: list.record.argument, from: 'id' } : undefined;
  const answer = (shown: unknown[], continueWith: Continuation | null, cut: boolean) => ({
    ...rest,
    data: shown,
    ...(pagination !== undefined && { pagination }),
    ...(fullRecord && { fullRecord }),
    ...(cut && { cut: { shown: shown.length, of: items.length, reason: `maxTokens ${shaping.maxTokens}` } }),
    ...(continueWith && { continueWith }),
  });
  const continuation = (shown: number): { value: Continuation | null; keep: number } => {
    const next = continueArguments(list.args, page, items.length, shown);
    if (!next) return { value: null, keep: shown };
    const remaining = typeof page.total === 'number' ? Math.max(0, page.total - ((page.offset ?? ((page.page ?? 1) - 1) * (page.limit ?? items.length)) + next.keep)) : undefined;
    return { value: { tool: list.tool, arguments: next.args, ...(remaining !== undefined && { remaining }) }, keep: next.keep };
  };
  const whole = continuation(items.length);
  const full = JSON.stringify(answer(items, whole.value, false));
  if (full.length <= budget) return full;
  // The most whole items that fit, with the continuation of what is left out.
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const next = continuation(mid);
    if (JSON.stringify(answer(items.slice(0, next.keep), next.value, true)).length <= budget) low = mid;
    else high = mid - 1;
  }
  if (low === 0) {
    // Not even one item fits whole: the first one shortened.
    const next = continuation(1);
    const frame = JSON.stringify(answer([], next.value, true)).length;
    return JSON.stringify(answer([fit(items[0], Math.max(64, budget - frame - 16)).value], next.value, true));
  }
  const next = continuation(low);
  const shown = items.slice(0, next.keep);
  const text = JSON.stringify(answer(shown, next.value, true));
  if (next.value || !('nextCursor' in page)) return text;
  return JSON.stringify({ ...answer(shown, null, true), hint: `A cursor page cannot resume in its middle: ask for limit ${shown.length}, then continue with pagination.nextCursor.` });
}
