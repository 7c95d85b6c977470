import { compactAd, compactShop, continuation, type AdRow, type ShopRow } from './compact.js';
import type { Json, TaskApi, TaskDefinition } from './frame.js';

// brief_competitor: lookup → advertiser → shop → the advertiser's top ads → its landing pages, the metered call
// last so that an error of any earlier call ends the task before anything is charged.

type LookupRow = {
  type: string; matchType: string; score: number;
  brandtracker: { facebookPageId: string | null } | null; advertiser: { id: string } | null; shop: { id: string } | null;
  signals: { hasBrandtracker: boolean };
};
type AdvertiserDetail = {
  id: string; name: string;
  profile: { likes: number; instagramFollowers: number; createdAt: string | null };
  linkedShops: { shopId: string; domain: string; isPrimary: boolean }[];
  advertising: { activeAds: number; reach30d: number; countryDistribution: { countryCode: string; share: number }[] };
};
type ShopDetail = ShopRow & {
  catalog: { bestSellers: { title: string; price: number; currency: string }[] };
  traffic: { topCountries: { countryCode: string; share: number }[] };
  advertising: { linkedAdvertisers: { id: string; isPrimary: boolean }[] };
  technology: { theme: string | null; apps: { label: string }[] };
  similarShops: { shop: { domain: string }; similarityScore: number }[];
};

const params = {
  q: { type: 'string', description: 'A brand name, shop domain or URL, Facebook page id or Instagram handle (as GET /v1/lookup takes it).', maxLength: 200 },
  ads: { type: 'integer', description: 'Top ads by reach to include, 1..20.', minimum: 1, maximum: 20, default: 5 },
  landingPages: { type: 'integer', description: 'Landing pages to include, 1..50 (each one costs a credit).', minimum: 1, maximum: 50, default: 10 },
} as const;

const data = <T>(envelope: Json | null) => (envelope ? (envelope.data as T) : null);

function advertiserBrief(advertiser: AdvertiserDetail) {
  const { profile, advertising } = advertiser;
  return {
    id: advertiser.id, name: advertiser.name, likes: profile.likes, instagramFollowers: profile.instagramFollowers, pageCreatedAt: profile.createdAt,
    activeAds: advertising.activeAds, reach30d: advertising.reach30d, topCountries: advertising.countryDistribution.slice(0, 5),
    linkedShops: advertiser.linkedShops.slice(0, 5).map((shop) => shop.domain),
  };
}

function shopBrief(shop: ShopDetail) {
  return {
    ...compactShop(shop),
    bestSellers: shop.catalog.bestSellers.slice(0, 3).map(({ title, price, currency }) => ({ title, price, currency })),
    visitorCountries: shop.traffic.topCountries.slice(0, 5),
    theme: shop.technology.theme,
    apps: shop.technology.apps.slice(0, 10).map((app) => app.label),
    similarShops: shop.similarShops.slice(0, 3).map((similar) => ({ domain: similar.shop.domain, similarityScore: similar.similarityScore })),
  };
}

async function resolve(api: TaskApi, q: string) {
  const match = ((await api.call('Query.lookup', { q, limit: 1 })).data as LookupRow[])[0];
  if (!match) return api.fail('not_found', `Nothing matches "${q}": no brandtracker, advertiser or shop. Try another spelling, a domain or a page id.`);
  let advertiserId = match.advertiser?.id ?? match.brandtracker?.facebookPageId ?? null;
  let advertiser = advertiserId ? data<AdvertiserDetail>(await api.find('Query.advertiser', { advertiserId })) : null;
  const shopId = match.shop?.id ?? advertiser?.linkedShops[0]?.shopId ?? null;
  const shop = shopId ? data<ShopDetail>(await api.find('Query.shop', { shopId })) : null;
  if (!advertiser && shop) {
    advertiserId = (shop.advertising.linkedAdvertisers.find((page) => page.isPrimary) ?? shop.advertising.linkedAdvertisers[0])?.id ?? null;
    advertiser = advertiserId ? data<AdvertiserDetail>(await api.find('Query.advertiser', { advertiserId })) : null;
  }
  return { match, advertiser, shop };
}

export const briefCompetitor: TaskDefinition<typeof params> = {
  name: 'brief_competitor',
  summary:
    'A competitor brief in one call: resolves `q` (GET /v1/lookup), then the advertiser (GET /v1/advertisers/{advertiserId}), its shop (GET /v1/shops/{shopId}), its top ads by reach (GET /v1/advertisers/{advertiserId}/ads) and its landing pages (GET /v1/ads/facets/landing-pages; by shop domain when no Facebook page is known). Compact JSON with the ids to go further.',
  params,
  calls: [
    { field: 'Query.lookup' },
    { field: 'Query.advertiser' },
    { field: 'Query.shop' },
    { field: 'Query.advertiserAds' },
    { field: 'Query.adLandingPages', rowsFrom: 'landingPages' },
  ],
  async run(api, { q, ads, landingPages }) {
    const { match, advertiser, shop } = await resolve(api, q);
    const adsArgs = advertiser ? { advertiserId: advertiser.id, sortBy: 'reach', order: 'desc' } : null;
    const top = adsArgs ? await api.call('Query.advertiserAds', { ...adsArgs, limit: ads }) : null;
    const scope = advertiser ? { scopeTrackedPages: [advertiser.id] } : shop ? { scopeDomain: shop.domain } : null;
    const pages = scope ? await api.call('Query.adLandingPages', { ...scope, limit: landingPages }) : null;
    const topAds = (top?.data ?? []) as AdRow[];
    return {
      query: q,
      match: { type: match.type, matchType: match.matchType, score: match.score, tracked: match.signals.hasBrandtracker },
      advertiser: advertiser && advertiserBrief(advertiser),
      shop: shop && shopBrief(shop),
      topAds: {
        data: topAds.map(compactAd),
        continueWith: adsArgs && continuation('advertiser_ads', { ...adsArgs, offset: topAds.length, limit: 25 }, topAds.length, (top?.pagination as { total: number }).total),
      },
      landingPages: pages && { data: pages.data, isTruncated: (pages.meta as { isTruncated: boolean }).isTruncated },
    };
  },
};
