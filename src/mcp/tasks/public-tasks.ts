import { compactItem } from '../shape.js';
import { clip, compactAd, continuation, type AdRow } from './compact.js';
import type { FieldName } from '../../metering/prices.js';
import type { Json, TaskDefinition } from './frame.js';

// The public service's composed tools that are not one route: a tracked brand's analysis, a shop's email patterns,
// a creative inspiration pack from the ads a query finds, and running a saved search. Each calls the API's routes
// through the task frame (src/mcp/tasks/frame.ts), priced as those routes.

const brandParams = {
  brandtracker_id: { type: 'string', description: "One of the workspace's brandtrackers (its id, from list_tracked_brands).", maxLength: 64 },
  ads: { type: 'integer', description: 'Top ads by current rank to include, 1..20.', minimum: 1, maximum: 20, default: 5 },
  hooks: { type: 'integer', description: 'Most used hooks to include, 1..20.', minimum: 1, maximum: 20, default: 5 },
} as const;

export const analyzeTrackedBrand: TaskDefinition<typeof brandParams> = {
  name: 'analyze_tracked_brand',
  summary:
    "A tracked brand in one call: the brandtracker (GET /v1/brandtrackers/{brandtrackerId}), its top ads by current rank (GET /v1/brandtrackers/{brandtrackerId}/top-ads), its media mix (GET /v1/brandtrackers/{brandtrackerId}/media-mix) and its most used hooks (GET /v1/brandtrackers/{brandtrackerId}/hooks). Compact JSON; continueWith pages the ads on.",
  params: brandParams,
  calls: [{ field: 'Query.brandtracker' }, { field: 'Query.brandtrackerTopAds' }, { field: 'Query.brandtrackerMediaMix' }, { field: 'Query.brandtrackerHooks' }],
  async run(api, { brandtracker_id: brandtrackerId, ads, hooks }) {
    const brand = (await api.call('Query.brandtracker', { brandtrackerId })).data;
    const top = await api.call('Query.brandtrackerTopAds', { brandtrackerId, sortBy: 'currentRank', limit: ads });
    const mix = (await api.call('Query.brandtrackerMediaMix', { brandtrackerId })).data;
    const used = await api.call('Query.brandtrackerHooks', { brandtrackerId, sortBy: 'usageCount', limit: hooks });
    const topRows = top.data as unknown[];
    const total = (page: Json) => ((page.pagination as { total?: number } | undefined)?.total ?? 0);
    return {
      brand: compactItem(brand),
      topAds: { data: topRows.map(compactItem), continueWith: continuation('brandtracker_top_ads', { brandtrackerId, sortBy: 'currentRank', page: 2, limit: ads }, topRows.length, total(top)) },
      mediaMix: mix,
      hooks: { data: (used.data as unknown[]).map(compactItem), continueWith: continuation('brandtracker_hooks', { brandtrackerId, sortBy: 'usageCount', page: 2, limit: hooks }, (used.data as unknown[]).length, total(used)) },
    };
  },
};

const emailParams = {
  shop: { type: 'string', description: "The shop: its id, domain or name (resolved as GET /v1/lookup resolves a shop).", maxLength: 200 },
  emails: { type: 'integer', description: 'Newest emails to include, 1..25.', minimum: 1, maximum: 25, default: 10 },
} as const;

type LookupShop = { shop: { id: string; domain: string; name: string } | null };

export const analyzeShopEmails: TaskDefinition<typeof emailParams> = {
  name: 'analyze_shop_emails',
  summary:
    "A shop's email patterns in one call: resolves `shop` (GET /v1/lookup, shops), then its sending frequency by day of week over 90 days and this month's calendar (GET /v1/shops/{shopId}/emails/stats), and its newest emails (GET /v1/shops/{shopId}/emails). Compact JSON; get_email_html gives an email's HTML.",
  params: emailParams,
  calls: [{ field: 'Query.lookup' }, { field: 'Query.shopEmailStats' }, { field: 'Query.shopEmails' }],
  async run(api, { shop, emails }) {
    const match = ((await api.call('Query.lookup', { q: shop, type: 'shop', limit: 1 })).data as LookupShop[])[0];
    if (!match?.shop) return api.fail('not_found', `No shop matches "${shop}". Try its domain.`);
    const shopId = match.shop.id;
    const month = new Date().toISOString().slice(0, 7);
    const stats = (await api.call('Query.shopEmailStats', { shopId, month })).data;
    const page = await api.call('Query.shopEmails', { shopId, sortBy: 'newest', limit: emails });
    const rows = page.data as unknown[];
    return {
      shop: match.shop,
      stats,
      newest: {
        data: rows.map(compactItem),
        fullRecord: { tool: 'get_email_html', argument: 'email_id', from: 'id' },
        continueWith: continuation('shop_emails', { shopId, sortBy: 'newest', page: 2, limit: emails }, rows.length, (page.pagination as { total: number }).total),
      },
    };
  },
};

const packParams = {
  query: { type: 'string', description: 'What to find inspiration for: words of the ad copy, a brand or a niche.', maxLength: 200 },
  ads: { type: 'integer', description: 'Active ads to read, most reach first, 1..50.', minimum: 1, maximum: 50, default: 20 },
} as const;

const hookOf = (text: string | null) => (text ? clip(text.split(/(?<=[.!?])\s|\n/)[0].trim(), 120) : null);

/** Counts of values, most frequent first. */
function tally(values: (string | null)[], top = 10) {
  const counts = new Map<string, number>();
  for (const value of values) if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([value, count]) => ({ value, count }));
}

export const creativeInspirationPack: TaskDefinition<typeof packParams> = {
  name: 'creative_inspiration_pack',
  summary:
    "Creative inspiration for `query` in one call, from the active ads with the most reach that match it (POST /v1/ads/query): their hooks (each ad's first line), landing-page domains, formats, calls to action and running days, with the ads themselves compact. scan_ad gives an ad in full.",
  params: packParams,
  calls: [{ field: 'Query.adsQuery' }],
  async run(api, { query, ads }) {
    const args = { search: [query], status: 'active', sortBy: 'reach', order: 'desc', limit: ads };
    const page = await api.call('Query.adsQuery', args);
    const rows = page.data as AdRow[];
    const days = rows.map((ad) => ad.daysRunning).sort((a, b) => a - b);
    const domain = (url: string | null) => {
      try {
        return url ? new URL(url).hostname.replace(/^www\./, '') : null;
      } catch {
        return null;
      }
    };
    return {
      query,
      adsRead: rows.length,
      hooks: rows.flatMap((ad) => {
        const hook = hookOf(ad.content.body ?? ad.content.title);
        return hook ? [{ hook, adId: ad.id, reach: ad.metrics.aggregatedReach, daysRunning: ad.daysRunning }] : [];
      }),
      landingPages: tally(rows.map((ad) => domain(ad.content.landingPageUrl))),
      formats: tally(rows.map((ad) => ad.media.type)),
      callsToAction: tally(rows.map((ad) => ad.content.callToAction)),
      daysRunning: days.length ? { min: days[0], median: days[Math.floor(days.length / 2)], max: days[days.length - 1] } : null,
      ads: rows.map(compactAd),
      fullRecord: { tool: 'scan_ad', argument: 'ad_id', from: 'id' },
      continueWith: continuation('search_ads', { ...args, query, page: 2 }, rows.length, (page.pagination as { total: number }).total),
    };
  },
};

/** The market lists a saved search may hold (POST /v1/saved-searches), by method and path. */
const SAVED_LISTS: Record<string, FieldName> = {
  'GET /v1/ads': 'Query.ads', 'POST /v1/ads/query': 'Query.adsQuery', 'GET /v1/advertisers': 'Query.advertisers', 'POST /v1/advertisers/query': 'Query.advertisersQuery',
  'GET /v1/shops': 'Query.shops', 'POST /v1/shops/query': 'Query.shopsQuery', 'GET /v1/products': 'Query.products', 'POST /v1/products/query': 'Query.productsQuery',
  'POST /v1/emails/query': 'Query.emailsQuery', 'GET /v1/tiktok/library': 'Query.tiktokLibrary', 'POST /v1/tiktok/library/query': 'Query.tiktokLibraryQuery', 'POST /v1/google-ads/query': 'Query.googleAdsQuery',
};

const savedParams = {
  saved_search_id: { type: 'string', description: "One of the workspace's saved searches (list_saved_searches).", maxLength: 64 },
  limit: { type: 'integer', description: 'Rows to return, 1..100 (metered lists charge each row, as their route does).', minimum: 1, maximum: 100, default: 25 },
} as const;

export const runSavedSearch: TaskDefinition<typeof savedParams> = {
  name: 'run_saved_search',
  summary:
    "The rows a saved search matches now, in one call: reads it (GET /v1/saved-searches/{savedSearchId}) and calls its list route (one of those below) with its params and `limit` (its first page). Compact items; continueWith pages on with the route's tool.",
  params: savedParams,
  calls: [{ field: 'Query.savedSearch' }, ...Object.values(SAVED_LISTS).map((field) => ({ field, rowsFrom: 'limit', oneOf: 'list' }))],
  async run(api, { saved_search_id: savedSearchId, limit }) {
    const search = (await api.call('Query.savedSearch', { savedSearchId })).data as { id: string; name: string; method: string; path: string; params: Json | null; matches: number };
    const field = SAVED_LISTS[`${search.method} ${search.path}`];
    if (!field) return api.fail('validation_error', `The saved search's route ${search.method} ${search.path} is not a market list this tool runs.`);
    const { limit: _limit, page: _page, offset: _offset, cursor: _cursor, ...params } = search.params ?? {};
    const page = await api.call(field, { ...params, limit });
    const rows = page.data as unknown[];
    const tool = field.slice('Query.'.length).replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    const pagination = page.pagination as { total?: number; nextCursor?: string | null };
    const following = 'offset' in pagination ? { offset: rows.length } : { page: 2 };
    const next = pagination.nextCursor ? { tool, arguments: { ...params, limit, cursor: pagination.nextCursor } } : continuation(tool, { ...params, limit, ...following }, rows.length, pagination.total ?? 0);
    return { savedSearch: { id: search.id, name: search.name, method: search.method, path: search.path, matches: search.matches }, data: rows.map(compactItem), pagination, continueWith: next ?? null };
  },
};
