import { z } from 'zod';
import { metaAds } from '../../data/import/meta-ads.js';
import { sourceConfig } from '../config.js';
import { SourceError, type Answer, type Verdict } from '../http.js';
import { cursorOf, isRealDay, queryOf } from '../query.js';
import type { Connector, Page, SourceIO } from '../types.js';

// Meta Ad Library API: `GET {META_GRAPH_URL}/{version}/ads_archive` with the access token, the reached countries,
// search terms or up to 10 page ids per call, the active status and delivery-date bounds, the fields the importer
// maps and a page size. Pages follow `paging.cursors.after` while `paging.next` is there. Throttling (error codes 4,
// 17, 32, 613, the 80000–80014 business-use-case range, HTTP 429) is waited out, for as long as the
// `x-business-use-case-usage` header's `estimated_time_to_regain_access` says (minutes) when it says; an
// `x-app-usage` or business usage at 90 % or more slows the next call down before Meta has to refuse it.
// The records go to the `meta-ads` import format unchanged: an ad whose record did not change writes only its
// day's reach snapshot.

/** The fields the `meta-ads` format reads (see src/data/import/meta-ads.ts). */
export const META_FIELDS = [
  'id', 'page_id', 'page_name', 'ad_creation_time', 'ad_delivery_start_time', 'ad_delivery_stop_time', 'ad_creative_bodies',
  'ad_creative_link_titles', 'ad_creative_link_descriptions', 'ad_creative_link_captions', 'eu_total_reach',
  'age_country_gender_reach_breakdown', 'target_locations', 'target_gender', 'target_ages', 'languages', 'publisher_platforms',
  'beneficiary_payers',
];

const PAGE_IDS_PER_CALL = 10;
const ymd = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'deliveredFrom and deliveredTo must be dates like 2026-11-01')
  .refine(isRealDay, 'deliveredFrom and deliveredTo must be real days');

const querySchema = z
  .object({
    countries: z.array(z.string().regex(/^(?:[A-Z]{2}|ALL)$/, 'countries must be ISO codes like FR, or ALL')).min(1, 'countries needs at least one country'),
    search: z.string().trim().min(1).max(100, 'search is at most 100 characters').optional(),
    pageIds: z.array(z.string().regex(/^\d{1,20}$/, 'pageIds must be numeric page ids')).min(1).max(1000).optional(),
    activeStatus: z.enum(['ALL', 'ACTIVE', 'INACTIVE']).default('ALL'),
    deliveredFrom: ymd.optional(),
    deliveredTo: ymd.optional(),
    limit: z.number().int().min(1).max(1000).default(500),
  })
  .strict()
  .refine((q) => (q.search === undefined) !== (q.pageIds === undefined), 'give search or pageIds (one of them)')
  .refine((q) => !q.deliveredFrom || !q.deliveredTo || q.deliveredFrom <= q.deliveredTo, 'deliveredFrom is after deliveredTo');

export type MetaQuery = z.infer<typeof querySchema>;

/** Where a run is: the call (a search, or a group of 10 page ids) and Meta's cursor within it. */
const cursorSchema = z.object({ leg: z.number(), after: z.string().nullable() });
type Cursor = z.infer<typeof cursorSchema>;

const THROTTLE_CODES = new Set([4, 17, 32, 613]);
const isThrottle = (code: number) => THROTTLE_CODES.has(code) || (code >= 80000 && code <= 80014);
const AUTH_CODES = new Set([102, 190, 200, 10]);

function header(answer: Answer, name: string): unknown {
  const value = answer.headers.get(name);
  if (!value) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** The business-use-case usage entries: `{ "<business id>": [{ type, call_count, …, estimated_time_to_regain_access }] }`. */
function businessUsage(answer: Answer): { percent: number; regainMinutes: number }[] {
  const usage = header(answer, 'x-business-use-case-usage');
  if (!usage || typeof usage !== 'object') return [];
  return Object.values(usage as Record<string, unknown>).flatMap((entries) =>
    (Array.isArray(entries) ? entries : []).map((entry: Record<string, unknown>) => ({
      percent: Math.max(Number(entry.call_count) || 0, Number(entry.total_cputime) || 0, Number(entry.total_time) || 0),
      regainMinutes: Number(entry.estimated_time_to_regain_access) || 0,
    })),
  );
}

/** How long to hold off before the next call, from the usage headers (0: no need). */
export function usagePause(answer: Answer): number {
  const app = header(answer, 'x-app-usage') as Record<string, unknown> | undefined;
  const appPercent = app ? Math.max(Number(app.call_count) || 0, Number(app.total_cputime) || 0, Number(app.total_time) || 0) : 0;
  const business = businessUsage(answer);
  const regain = Math.max(0, ...business.map((entry) => entry.regainMinutes)) * 60_000;
  if (regain > 0) return regain;
  const percent = Math.max(appPercent, ...business.map((entry) => entry.percent));
  // Near the quota: spread the next calls out (Meta's usage is a rolling hour).
  return percent >= 95 ? 60_000 : percent >= 90 ? 10_000 : 0;
}

type ArchivePage = { data: unknown[]; after: string | null; hasNext: boolean };

function judge(answer: Answer, body: unknown): Verdict<ArchivePage> {
  const error = body && typeof body === 'object' ? (body as { error?: Record<string, unknown> }).error : undefined;
  if (error && typeof error === 'object') {
    const code = Number(error.code);
    const subcode = error.error_subcode === undefined ? '' : `/${String(error.error_subcode)}`;
    const what = `Meta answered HTTP ${answer.status}, error ${code}${subcode}: ${String(error.message ?? '')}`;
    if (answer.status === 429 || isThrottle(code)) {
      const regain = Math.max(0, ...businessUsage(answer).map((entry) => entry.regainMinutes)) * 60_000;
      return { wait: regain > 0 ? regain : null, reason: `throttled: ${what}` };
    }
    if (AUTH_CODES.has(code) || error.type === 'OAuthException' && code === 190) {
      return { stop: new SourceError('auth', `${what}. Check META_ACCESS_TOKEN (a token with Ad Library API access).`, answer.status) };
    }
    if (code === 1 || code === 2 || answer.status >= 500 || error.is_transient === true) return { retry: what };
    return { stop: new SourceError('request', what, answer.status) };
  }
  if (answer.status === 429) return { wait: null, reason: 'throttled: HTTP 429' };
  if (answer.status >= 500) return { retry: `Meta answered HTTP ${answer.status}` };
  if (body === undefined) return { retry: `Meta answered HTTP ${answer.status} with a body that is not JSON (${answer.text.length} bytes, cut or not JSON)` };
  if (answer.status !== 200 || typeof body !== 'object' || body === null || !Array.isArray((body as { data?: unknown }).data)) {
    return { stop: new SourceError('protocol', `Meta answered HTTP ${answer.status} without an ads_archive page`, answer.status) };
  }
  const page = body as { data: unknown[]; paging?: { next?: unknown; cursors?: { after?: unknown } } };
  const after = typeof page.paging?.cursors?.after === 'string' ? page.paging.cursors.after : null;
  return { ok: { data: page.data, after, hasNext: typeof page.paging?.next === 'string' && after !== null } };
}

function legs(query: MetaQuery): { search?: string; pageIds?: string[] }[] {
  if (query.pageIds) {
    const ids = [...new Set(query.pageIds)];
    return Array.from({ length: Math.ceil(ids.length / PAGE_IDS_PER_CALL) }, (_, i) => ({ pageIds: ids.slice(i * PAGE_IDS_PER_CALL, (i + 1) * PAGE_IDS_PER_CALL) }));
  }
  return [{ search: query.search }];
}

export const metaAdsConnector: Connector<MetaQuery> = {
  name: 'meta-ads',
  parse: (query) => queryOf('meta-ads', querySchema, query),
  ready() {
    if (!sourceConfig().meta.token) throw new SourceError('auth', 'META_ACCESS_TOKEN is not set: the Ad Library API needs an access token');
  },
  secrets: () => [sourceConfig().meta.token ?? ''],
  async *pages(query, cursor, io: SourceIO): AsyncIterable<Page> {
    const config = sourceConfig().meta;
    const all = legs(query);
    let at: Cursor = cursorOf(cursorSchema, cursor) ?? { leg: 0, after: null };
    let pause = 0;
    let n = 0;
    while (at.leg < all.length) {
      const leg = all[at.leg];
      const params = new URLSearchParams({
        ad_reached_countries: JSON.stringify(query.countries),
        ad_type: 'ALL',
        ad_active_status: query.activeStatus,
        fields: META_FIELDS.join(','),
        limit: String(query.limit),
      });
      if (leg.search !== undefined) params.set('search_terms', leg.search);
      if (leg.pageIds) params.set('search_page_ids', JSON.stringify(leg.pageIds));
      if (query.deliveredFrom) params.set('ad_delivery_date_min', query.deliveredFrom);
      if (query.deliveredTo) params.set('ad_delivery_date_max', query.deliveredTo);
      if (at.after) params.set('after', at.after);
      await io.http.pause(pause, 'Meta usage at its limit: slowing down');
      const page = await io.http.send(
        'Meta ads_archive',
        () => {
          params.set('access_token', sourceConfig().meta.token ?? '');
          return { url: `${config.url}/${config.version}/ads_archive?${params}` };
        },
        (answer, body) => {
          const verdict = judge(answer, body);
          if ('ok' in verdict) pause = usagePause(answer);
          return verdict;
        },
      );
      n++;
      const next: Cursor | null = page.hasNext ? { leg: at.leg, after: page.after } : at.leg + 1 < all.length ? { leg: at.leg + 1, after: null } : null;
      yield { format: metaAds, batch: { origin: `ads_archive call ${at.leg + 1}/${all.length}, page ${n}`, records: page.data }, next };
      // Resumed only once the page is stored: a call whose last page that was is done.
      if (next?.leg !== at.leg) io.progress(at.leg + 1, all.length);
      if (!next) return;
      at = next;
    }
  },
};
