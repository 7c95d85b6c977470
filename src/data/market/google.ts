import type { Rng } from '../random.js';
import { allocateAdCounts, type LinkSeed, type ShopSeed, type AdvertiserSeed } from './advertisers.js';
import { brandName, shopDomain } from './names.js';
import { childrenOf, GOOGLE_TAXONOMY, taxonomyId } from './taxonomy.js';
import { DAY, EARLIEST_AD, HOUR } from './time.js';
import { CATEGORY_WEIGHTS, COUNTRY_WEIGHTS, VOCABULARY } from './words.js';

// Shop figures the other sources show (country, traffic growth, catalogue size, category ids), and the
// synthetic Google Ads library: Transparency Center advertisers, most of them market shops, and their ads.

export const GOOGLE_NETWORKS = ['search', 'shopping', 'maps', 'youtube', 'other'] as const;
export type GoogleNetwork = (typeof GOOGLE_NETWORKS)[number];

export type GoogleAdvertiserSeed = {
  id: string;
  name: string;
  shopName: string | null;
  domain: string;
  shop: ShopSeed | null;
  categoryIds: number[];
  home: string;
  liveAds: Record<GoogleNetwork | 'all', number>;
};

export type GoogleAdSeed = {
  id: string;
  googleAdId: string;
  advertiser: GoogleAdvertiserSeed;
  status: 'active' | 'inactive';
  network: GoogleNetwork;
  firstSeenAt: number;
  lastSeenAt: number;
  mediaType: 'image' | 'video';
  mediaUrl: string | null;
  format: string;
  reach: number;
  reachLowerBound: number;
  reachUpperBound: number;
  countryShares: { countryCode: string; share: number }[];
  remarketing: boolean;
  interest: boolean;
};

const NETWORK_WEIGHTS: readonly (readonly [GoogleNetwork, number])[] = [['search', 45], ['shopping', 20], ['youtube', 20], ['maps', 5], ['other', 10]];
const FORMATS: Record<GoogleNetwork, string> = { search: 'text', shopping: 'shopping', maps: 'text', youtube: 'video', other: 'image' };
const LEGAL_SUFFIXES = ['LLC', 'Ltd', 'Inc.', 'GmbH', 'SAS', 'B.V.', 'S.L.'];

/** Country, 30-day traffic growth, products count and taxonomy ids of every shop; a linked page's home country wins. */
export function describeShops(rng: Rng, shops: ShopSeed[], links: LinkSeed[], advertisers: AdvertiserSeed[]): void {
  const homeOf = new Map(advertisers.map((advertiser) => [advertiser.id, advertiser.home]));
  const shopHome = new Map<string, string>();
  for (const link of links) if (link.isPrimary || !shopHome.has(link.shopId)) shopHome.set(link.shopId, homeOf.get(link.advertiserId)!);
  for (const shop of shops) {
    shop.countryCode = shopHome.get(shop.id) ?? rng.weighted(COUNTRY_WEIGHTS);
    shop.trafficGrowth30d = Math.round(Math.max(-0.9, Math.min(3, rng.normal() * 0.18 + 0.02)) * 1000) / 1000;
    shop.productsCount = Math.max(1, Math.round(rng.logNormal(60, 1.3)));
    shop.categoryIds = shop.categories.map((name) => taxonomyId(name)).filter((id): id is number => id !== undefined);
  }
}

function countryShares(rng: Rng, home: string): GoogleAdSeed['countryShares'] {
  const codes = [...new Set([rng.chance(0.8) ? home : rng.weighted(COUNTRY_WEIGHTS), ...rng.weightedSample(COUNTRY_WEIGHTS, rng.int(0, 4))])];
  const weights = codes.map((_, i) => (i === 0 ? 2 : 0) + rng.float(0.05, 1));
  const total = weights.reduce((a, b) => a + b, 0);
  // Percent points: shares add up to exactly 1 and stay largest first.
  const points = weights.map((w) => Math.max(1, Math.floor((w / total) * 100)));
  points[0] += 100 - points.reduce((a, b) => a + b, 0);
  return codes
    .map((countryCode, i) => ({ countryCode, share: points[i] / 100 }))
    .sort((a, b) => b.share - a.share || (a.countryCode < b.countryCode ? -1 : 1));
}

/** Google shows reach as a range: one significant digit down and up around the estimate. */
function reachRange(value: number): [number, number] {
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  const lower = Math.floor(value / magnitude) * magnitude;
  return [lower, lower + magnitude];
}

export type GoogleAdsPlan = {
  advertisers: GoogleAdvertiserSeed[];
  /** Ads per advertiser, in advertiser order. */
  adCounts: number[];
  /** Draws the ads of advertisers `start`..`end - 1` (and completes their live-ad counts); call it on consecutive runs from 0. */
  advertisersBetween(start: number, end: number): { advertisers: GoogleAdvertiserSeed[]; ads: GoogleAdSeed[] };
};

/** Draws the Transparency Center advertisers; their ads follow advertiser run by advertiser run. */
export function startGoogleAds(rng: Rng, rowCount: number, shops: ShopSeed[], asOf: number): GoogleAdsPlan {
  const advertiserCount = Math.max(1, Math.round(rowCount / 7));
  const ids = new Set<string>();
  const newId = (prefix: string) => {
    let id: string;
    do id = prefix + rng.digits(20);
    while (ids.has(id));
    ids.add(id);
    return id;
  };
  const domains = new Set(shops.map((shop) => shop.domain));
  const names = new Set(shops.map((shop) => shop.name));
  const linkedShops = rng.shuffle(shops.slice()).slice(0, Math.round(advertiserCount * 0.6));
  const advertisers: GoogleAdvertiserSeed[] = Array.from({ length: advertiserCount }, (_, i) => {
    const shop = linkedShops[i] ?? null;
    const liveAds = { all: 0, search: 0, shopping: 0, maps: 0, youtube: 0, other: 0 };
    if (shop) {
      const categoryIds = [...(shop.categoryIds ?? [])];
      const narrower = categoryIds.length ? childrenOf(categoryIds[0]) : [];
      if (narrower.length && rng.chance(0.5)) categoryIds.push(rng.pick(narrower));
      const name = rng.chance(0.7) ? shop.name : `${shop.name} ${rng.pick(LEGAL_SUFFIXES)}`;
      return { id: newId('AR'), name, shopName: shop.name, domain: shop.domain, shop, categoryIds, home: shop.countryCode ?? 'US', liveAds };
    }
    const category = rng.weighted(CATEGORY_WEIGHTS);
    const brand = brandName(rng, category, names);
    const top = taxonomyId(VOCABULARY[category].taxonomy)!;
    const categoryIds = rng.chance(0.1) ? [rng.pick(GOOGLE_TAXONOMY.filter((entry) => entry.parentId === null)).id] : [top];
    return {
      id: newId('AR'),
      name: `${brand} ${rng.pick(LEGAL_SUFFIXES)}`,
      shopName: null,
      domain: shopDomain(rng, brand, domains),
      shop: null,
      categoryIds,
      home: rng.weighted(COUNTRY_WEIGHTS),
      liveAds,
    };
  });

  const counts = allocateAdCounts(rng, advertisers.length, rowCount);
  const adsOf = (advertiser: GoogleAdvertiserSeed, count: number, ads: GoogleAdSeed[]) => {
    for (let n = 0; n < count; n++) {
      const googleAdId = newId('CR');
      const network = rng.weighted(NETWORK_WEIGHTS);
      const status = rng.chance(0.4) ? 'active' : 'inactive';
      let firstSeenAt: number;
      let lastSeenAt = asOf;
      if (status === 'active') {
        firstSeenAt = asOf - Math.min(rng.logNormal(30, 1.1), 2000) * DAY - rng.float(HOUR, 12 * HOUR);
      } else {
        firstSeenAt = rng.chance(0.7) ? rng.float(asOf - 365 * DAY, asOf - 2 * DAY) : rng.float(EARLIEST_AD, asOf - 365 * DAY);
        lastSeenAt = Math.min(firstSeenAt + Math.max(1, rng.logNormal(25, 1)) * DAY, asOf - rng.float(HOUR, 23 * HOUR));
      }
      firstSeenAt = Math.round(Math.max(EARLIEST_AD, firstSeenAt));
      const lifeDays = (lastSeenAt - firstSeenAt) / DAY;
      const drawn = rng.logNormal(8000, 1.9) * Math.pow(Math.max(1, lifeDays) / 30, 0.4);
      const reach = Math.max(1, Math.round(drawn / (1 + drawn / 500_000_000)));
      const [reachLowerBound, reachUpperBound] = reachRange(reach);
      const mediaType = network === 'youtube' ? 'video' : 'image';
      if (status === 'active') {
        advertiser.liveAds.all++;
        advertiser.liveAds[network]++;
      }
      ads.push({
        id: `google_${googleAdId}`,
        googleAdId,
        advertiser,
        status,
        network,
        firstSeenAt,
        lastSeenAt: Math.round(lastSeenAt),
        mediaType,
        mediaUrl: rng.chance(0.03) ? null : `/media/google/${googleAdId}.${mediaType === 'video' ? 'mp4' : 'png'}`,
        format: FORMATS[network],
        reach,
        reachLowerBound,
        reachUpperBound,
        countryShares: countryShares(rng, advertiser.home),
        remarketing: rng.chance(0.25),
        interest: rng.chance(0.45),
      });
    }
  };
  let next = 0;
  return {
    advertisers,
    adCounts: counts,
    advertisersBetween(start, end) {
      if (start !== next || end < start || end > advertisers.length) throw new Error(`Google advertisers must be drawn in order (expected ${next}, got ${start}..${end})`);
      next = end;
      const ads: GoogleAdSeed[] = [];
      for (let i = start; i < end; i++) adsOf(advertisers[i], counts[i], ads);
      return { advertisers: advertisers.slice(start, end), ads };
    },
  };
}
