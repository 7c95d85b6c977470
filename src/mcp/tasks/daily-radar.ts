import { compactAd, continuation, type AdRow } from './compact.js';
import type { TaskDefinition } from './frame.js';

// daily_radar: what changed in the last 24 hours for the workspace's brandtrackers. The brands with new ads
// (GET /v1/brandtrackers), each one's newest ads (GET /v1/advertisers/{advertiserId}/ads), then the rank movers
// (GET /v1/workspace/scaling-ads, the metered call, last): every row it is charged for is a mover it shows.

const DAY_MS = 86_400_000;

const params = {
  brands: { type: 'integer', description: 'Brandtrackers with new ads to include, most new ads first, 1..25.', minimum: 1, maximum: 25, default: 10 },
  adsPerBrand: { type: 'integer', description: 'Newest ads to show per brand, 1..5.', minimum: 1, maximum: 5, default: 3 },
  movers: { type: 'integer', description: 'Rank movers to include, 1..50 (each one costs a credit).', minimum: 1, maximum: 50, default: 10 },
} as const;

type BrandtrackerRow = {
  id: string; name: string; facebookPageId: string | null;
  advertising: { activeAds: number; newAdsLastDay: number; newAdsLast7Days: number };
  websites: { domain: string }[];
};
type MoverRow = {
  brandtracker: { id: string; name: string };
  ad: AdRow;
  metrics: { currentRank: number | null; previousRank: number | null; rankDelta: number | null };
};
type PagePagination = { total: number };

export const dailyRadar: TaskDefinition<typeof params> = {
  name: 'daily_radar',
  summary:
    "What changed in the last 24 hours for the workspace's active brandtrackers, in one call: the brands with ads first seen since then (GET /v1/brandtrackers), each with its newest ads (GET /v1/advertisers/{advertiserId}/ads), and the ads that climbed in their page's ranking over 7 days (GET /v1/workspace/scaling-ads). Compact JSON; continueWith pages on.",
  params,
  calls: [
    { field: 'Query.brandtrackers' },
    { field: 'Query.advertiserAds', repeatFrom: 'brands' },
    { field: 'Query.workspaceScalingAds', rowsFrom: 'movers' },
  ],
  async run(api, { brands, adsPerBrand, movers }) {
    const since = new Date(Date.now() - DAY_MS).toISOString();
    const listArgs = { hasNewAdsSince: since, sortBy: 'newAdsLastDay' };
    const list = await api.call('Query.brandtrackers', { ...listArgs, limit: brands });
    const tracked = list.data as BrandtrackerRow[];
    const withAds = await Promise.all(
      tracked.map(async (brand) => {
        const page = brand.facebookPageId ? await api.find('Query.advertiserAds', { advertiserId: brand.facebookPageId, sortBy: 'newest', limit: adsPerBrand }) : null;
        const fresh = ((page?.data ?? []) as AdRow[]).filter((ad) => ad.firstSeenAt >= since);
        return {
          id: brand.id, name: brand.name, facebookPageId: brand.facebookPageId, domain: brand.websites[0]?.domain ?? null,
          newAdsLastDay: brand.advertising.newAdsLastDay, newAdsLast7Days: brand.advertising.newAdsLast7Days, activeAds: brand.advertising.activeAds,
          newAds: fresh.map(compactAd),
        };
      }),
    );
    const moved = await api.call('Query.workspaceScalingAds', { limit: movers });
    const moverRows = moved.data as MoverRow[];
    return {
      since,
      brandsWithNewAds: {
        data: withAds,
        continueWith: continuation('brandtrackers', { ...listArgs, page: 2, limit: brands }, tracked.length, (list.pagination as PagePagination).total),
      },
      movers: {
        data: moverRows.map((row) => ({ brandtracker: row.brandtracker, ...row.metrics, ad: compactAd(row.ad) })),
        continueWith: continuation('workspace_scaling_ads', { page: 2, limit: movers }, moverRows.length, (moved.pagination as PagePagination).total),
      },
    };
  },
};
