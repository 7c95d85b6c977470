import { z } from 'zod';
import { tiktokAds } from '../../data/import/tiktok-ads.js';
import { sourceConfig } from '../config.js';
import { SourceError, type Answer, type SourceHttp, type Verdict } from '../http.js';
import { cursorOf, isRealDay, queryOf } from '../query.js';
import type { Connector, Page, SourceIO } from '../types.js';

// TikTok Commercial Content API: a client-credentials token from `POST {TIKTOK_API_URL}/v2/oauth/token/` (renewed a
// minute before it expires, and once more when the API calls it invalid), then `POST /v2/research/adlib/ad/query/`
// with the fields the importer maps, one call per country (`filters.country_code` takes one), the published-date
// range, the search term or advertiser ids, `max_count` ≤ 50, and `search_id` from the previous page while
// `has_more`. The answer's `error.code` decides: `ok`, a throttle to wait out (`rate_limit_exceeded`, HTTP 429), a
// failure to retry (`internal_error`, 5xx), or a stop (bad parameters, a refused client); `log_id` goes with it.

export const TIKTOK_FIELDS = [
  'ad.id', 'ad.first_shown_date', 'ad.last_shown_date', 'ad.status', 'ad.status_statement', 'ad.videos', 'ad.image_urls', 'ad.reach',
  'advertiser.business_id', 'advertiser.business_name', 'advertiser.paid_for_by',
];

/** The library starts on 2022-10-01: the API refuses an earlier date. */
const FIRST_DAY = '20221001';
const ymd = z
  .string()
  .regex(/^\d{4}-?\d{2}-?\d{2}$/, 'from and to must be dates like 2026-11-01')
  .transform((value) => value.replaceAll('-', ''))
  .refine((value) => isRealDay(`${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`), 'from and to must be real days')
  .refine((value) => value >= FIRST_DAY, 'from and to must be 2022-10-01 or later (the library starts then)');

const querySchema = z
  .object({
    countries: z.array(z.string().regex(/^(?:[A-Z]{2}|ALL)$/, 'countries must be ISO codes like FR, or ALL')).min(1, 'countries needs at least one country'),
    search: z.string().trim().min(1).max(50, 'search is at most 50 characters').optional(),
    advertiserIds: z.array(z.string().regex(/^\d{1,20}$/, 'advertiserIds must be numeric business ids')).min(1).max(10).optional(),
    from: ymd.optional(),
    to: ymd.optional(),
    maxCount: z.number().int().min(1).max(50, 'maxCount is at most 50').default(50),
  })
  .strict()
  .refine((q) => q.search !== undefined || q.advertiserIds !== undefined, 'give search or advertiserIds')
  .refine((q) => !q.from || !q.to || q.from <= q.to, 'from is after to');

export type TikTokQuery = z.infer<typeof querySchema>;
/** Where a run is: the country (its index in the query) and the API's search id within it. */
const cursorSchema = z.object({ leg: z.number(), searchId: z.string().nullable() });
type Cursor = z.infer<typeof cursorSchema>;

/**
 * The token of a client, renewed before it expires: a minute before, or a tenth of its life for a short one, its life
 * counted from when it was asked for (the API's clock starts no earlier).
 */
class ClientToken {
  private token: { value: string; renewAt: number } | null = null;
  constructor(private readonly http: SourceHttp) {}

  invalidate() {
    this.token = null;
  }

  async get(): Promise<string> {
    if (this.token && this.token.renewAt > Date.now()) return this.token.value;
    const { url, clientKey, clientSecret } = sourceConfig().tiktok;
    let askedAt = Date.now();
    const answer = await this.http.send(
      'TikTok oauth/token',
      () => {
        askedAt = Date.now();
        return {
          url: `${url}/v2/oauth/token/`,
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache' },
            body: new URLSearchParams({ client_key: clientKey ?? '', client_secret: clientSecret ?? '', grant_type: 'client_credentials' }),
          },
        };
      },
      (response, body): Verdict<{ value: string; expiresIn: number }> => {
        const b = (body ?? {}) as Record<string, unknown>;
        if (response.status === 200 && typeof b.access_token === 'string') {
          return { ok: { value: b.access_token, expiresIn: Number(b.expires_in) || 7200 } };
        }
        if (response.status === 429) return { wait: null, reason: 'TikTok token endpoint throttled (HTTP 429)' };
        if (response.status >= 500 || body === undefined) return { retry: `TikTok token endpoint answered HTTP ${response.status}` };
        const reason = typeof b.error === 'string' ? `${b.error}: ${String(b.error_description ?? '')}` : `HTTP ${response.status}`;
        return { stop: new SourceError('auth', `TikTok refused the client credentials (${reason}, log_id ${String(b.log_id ?? '-')}). Check TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET.`, response.status) };
      },
    );
    const life = answer.expiresIn * 1000;
    this.token = { value: answer.value, renewAt: askedAt + life - Math.min(60_000, life / 10) };
    return answer.value;
  }
}

class TokenRejected extends SourceError {}

type QueryPage = { ads: unknown[]; hasMore: boolean; searchId: string | null };

function judge(answer: Answer, body: unknown): Verdict<QueryPage> {
  const b = body && typeof body === 'object' ? (body as { data?: Record<string, unknown>; error?: Record<string, unknown> }) : undefined;
  const code = typeof b?.error?.code === 'string' ? b.error.code : null;
  const what = `TikTok answered HTTP ${answer.status}, ${code ?? 'no error code'}: ${String(b?.error?.message ?? '')} (log_id ${String(b?.error?.log_id ?? '-')})`;
  if (answer.status === 429 || code === 'rate_limit_exceeded') {
    const retryAfter = Number(answer.headers.get('retry-after'));
    return { wait: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null, reason: `throttled: ${what}` };
  }
  if (code === 'access_token_invalid' || code === 'access_token_expired' || (answer.status === 401 && code !== 'scope_not_authorized')) {
    return { stop: new TokenRejected('auth', what, answer.status) };
  }
  if (answer.status >= 500 || code === 'internal_error') return { retry: what };
  if (body === undefined) return { retry: `TikTok answered HTTP ${answer.status} with a body that is not JSON (cut or not JSON)` };
  if (code !== 'ok') {
    const kind = code === 'scope_not_authorized' || answer.status === 403 ? 'auth' : 'request';
    return { stop: new SourceError(kind, what, answer.status) };
  }
  const data = b?.data;
  if (!data || !Array.isArray(data.ads)) return { stop: new SourceError('protocol', `TikTok answered without data.ads (log_id ${String(b?.error?.log_id ?? '-')})`, answer.status) };
  return { ok: { ads: data.ads, hasMore: data.has_more === true, searchId: typeof data.search_id === 'string' ? data.search_id : null } };
}

const day = (date: Date) => date.toISOString().slice(0, 10).replaceAll('-', '');

/** The body as JSON, the business ids as number literals: 19 digits, more than a double holds exactly. */
function queryBody(body: Record<string, unknown>, advertiserIds: string[] | undefined): string {
  const text = JSON.stringify(body);
  if (!advertiserIds) return text;
  const ids = JSON.stringify(advertiserIds);
  return text.replace(`"advertiser_business_ids":${ids}`, `"advertiser_business_ids":[${advertiserIds.join(',')}]`);
}

export const tiktokAdsConnector: Connector<TikTokQuery> = {
  name: 'tiktok-ads',
  parse: (query) => queryOf('tiktok-ads', querySchema, query),
  ready() {
    const { clientKey, clientSecret } = sourceConfig().tiktok;
    if (!clientKey || !clientSecret) throw new SourceError('auth', 'TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET are not set: the Commercial Content API needs a client');
  },
  secrets: () => [sourceConfig().tiktok.clientSecret ?? '', sourceConfig().tiktok.clientKey ?? ''],
  async *pages(query, cursor, io: SourceIO): AsyncIterable<Page> {
    const { url } = sourceConfig().tiktok;
    const token = new ClientToken(io.http);
    const to = query.to ?? day(io.asOf);
    const from = query.from ?? day(new Date(io.asOf.getTime() - 30 * 86_400_000));
    let at: Cursor = cursorOf(cursorSchema, cursor) ?? { leg: 0, searchId: null };
    let n = 0;
    while (at.leg < query.countries.length) {
      const body: Record<string, unknown> = {
        filters: {
          ad_published_date_range: { min: from, max: to },
          country_code: query.countries[at.leg],
          ...(query.advertiserIds ? { advertiser_business_ids: query.advertiserIds } : {}),
        },
        ...(query.search !== undefined ? { search_term: query.search } : {}),
        max_count: query.maxCount,
        ...(at.searchId ? { search_id: at.searchId } : {}),
      };
      let page: QueryPage | undefined;
      for (let renewed = false; !page; ) {
        const bearer = await token.get();
        try {
          page = await io.http.send(
            'TikTok ad query',
            () => ({
              url: `${url}/v2/research/adlib/ad/query/?fields=${TIKTOK_FIELDS.join(',')}`,
              init: { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: queryBody(body, query.advertiserIds) },
            }),
            judge,
          );
        } catch (error) {
          if (!(error instanceof TokenRejected) || renewed) throw error;
          renewed = true;
          token.invalidate();
        }
      }
      n++;
      const next: Cursor | null = page.hasMore && page.searchId ? { leg: at.leg, searchId: page.searchId } : at.leg + 1 < query.countries.length ? { leg: at.leg + 1, searchId: null } : null;
      yield { format: tiktokAds, batch: { origin: `ad query ${query.countries[at.leg]}, page ${n}`, records: page.ads }, next };
      // Resumed only once the page is stored: a country whose last page that was is done.
      if (next?.leg !== at.leg) io.progress(at.leg + 1, query.countries.length);
      if (!next) return;
      at = next;
    }
  },
};
