import { Rng } from '../random.js';
import { describeAds, makeAdsOf, partnerPool, type AdSeed } from './ads.js';
import { makeAdvertisers, makeShops, rankShopPages, type AdvertiserSeed, type LinkSeed, type ShopSeed } from './advertisers.js';
import { startLandingPages, type LandingPageSeed } from './landing-pages.js';
import { describeShops, startGoogleAds, type GoogleAdSeed, type GoogleAdvertiserSeed } from './google.js';
import { growthSeries, rankPage, simulateGroup, type PageTotals } from './snapshots.js';
import { GOOGLE_TAXONOMY } from './taxonomy.js';
import { startTikTokLibrary, type TikTokItemSeed, type TikTokMusicSeed, type TikTokProfileSeed, type TikTokSnapshotSeed } from './tiktok.js';
import { makeWindow, WINDOW_DAYS, type Window } from './time.js';
import type { MarketTable } from './define.js';
import { makeBrandtrackers, type BrandtrackerSlice } from './brandtrackers.js';
import { drawDemography } from './demography.js';
import { startEmails, type EmailSlice } from './emails.js';
import { startProducts, type ProductSlice } from './products.js';
import { describeShopProfiles, startShopHistory, type ShopHistorySlice } from './shop-profiles.js';

export type MarketScale = 'tiny' | 'small' | 'medium' | 'large';

export type ScaleSize = {
  ads: number;
  advertisers: number;
  shops: number;
  products: number;
  tiktokItems: number;
  googleAds: number;
  emails: number;
};

/** large: 1M ads, the rest in medium's proportions. */
export const SCALES: Record<MarketScale, ScaleSize> = {
  tiny: { ads: 3_000, advertisers: 600, shops: 1_000, products: 10_000, tiktokItems: 2_000, googleAds: 2_000, emails: 1_000 },
  small: { ads: 30_000, advertisers: 6_000, shops: 10_000, products: 100_000, tiktokItems: 20_000, googleAds: 20_000, emails: 10_000 },
  medium: { ads: 300_000, advertisers: 60_000, shops: 100_000, products: 1_000_000, tiktokItems: 200_000, googleAds: 200_000, emails: 100_000 },
  large: {
    ads: 1_000_000,
    advertisers: 200_000,
    shops: 333_000,
    products: 3_333_000,
    tiktokItems: 667_000,
    googleAds: 667_000,
    emails: 333_000,
  },
};

/** The ads of a run of consecutive pages, with everything derived from them. */
export type AdSlice = {
  kind: 'ads';
  window: Window;
  advertisers: AdvertiserSeed[];
  links: LinkSeed[];
  totals: Map<AdvertiserSeed, PageTotals>;
  /** The landing pages these pages' ads introduce (each URL belongs to one page). */
  landingPages: LandingPageSeed[];
  ads: AdSeed[];
  /** Per advertiser of the slice, in order: daily likes, followers (WINDOW_DAYS values each). */
  metrics: { likes: number[]; followers: number[] }[];
};

/** A run of consecutive TikTok profiles with their items, pins and snapshots; `music` is the tracks first used here. */
export type TikTokSlice = { kind: 'tiktok'; music: TikTokMusicSeed[]; profiles: TikTokProfileSeed[]; items: TikTokItemSeed[]; snapshots: TikTokSnapshotSeed[] };
export type GoogleSlice = { kind: 'google'; advertisers: GoogleAdvertiserSeed[]; ads: GoogleAdSeed[] };
export type SetupSlice = { kind: 'setup'; shops: ShopSeed[] };

/** `fraction`: the share of its section (ads, shop histories, products, emails, TikTok items, Google rows) generated once this slice is done. */
export type MarketSlice = (
  | SetupSlice
  | AdSlice
  | BrandtrackerSlice
  | ShopHistorySlice
  | ProductSlice
  | EmailSlice
  | TikTokSlice
  | GoogleSlice
) & { fraction: number };

export type MarketPlan = {
  /** Row counts known before generating; the others (transcripts, hooks, reach days, demography, music, pins) are estimated as slices arrive. */
  totals: Partial<Record<MarketTable, number>>;
  /** Of the tables estimated, rows that come in full with their section's first slice (the music catalogue), not in proportion. */
  upfront: Partial<Record<MarketTable, number>>;
  /** The market in slices of about `sliceSize` ads (or items, or rows), in foreign-key order; each slice is generated when pulled. */
  slices: Generator<MarketSlice>;
};

/** Cuts `weights` (in order) into consecutive runs whose sum reaches `size` (the last run may be smaller). */
function* runs(weights: readonly number[], size: number): Generator<[start: number, end: number]> {
  let start = 0;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i];
    if (sum >= size) {
      yield [start, i + 1];
      start = i + 1;
      sum = 0;
    }
  }
  if (start < weights.length) yield [start, weights.length];
}

/**
 * Plans the market of (scale, seed, asOf). Each concern draws from its own stream of the seed, in a fixed order,
 * so the data does not depend on `sliceSize` (only the memory held at once does): the pages, shops, TikTok
 * profiles and Google advertisers are drawn up front (they are few); ads, reach series, items and Google ads
 * are drawn slice by slice and can be dropped once inserted.
 */
export function planMarket(scale: MarketScale, seed: number, asOf: Date, sliceSize = 5000): MarketPlan {
  const size = SCALES[scale];
  const root = new Rng(seed);
  const window = makeWindow(asOf);
  const advertisers = makeAdvertisers(root.fork('advertisers'), size.advertisers, size.ads);
  const { shops, links } = makeShops(root.fork('shops'), advertisers, size.shops, window.asOf);
  rankShopPages(links, advertisers);
  const adsRng = root.fork('ads');
  const reachRng = root.fork('reach');
  const pagesRng = root.fork('pages');
  const adDetailsRng = root.fork('ad-details');
  const demographyRng = root.fork('demography');
  const partners = partnerPool(advertisers);
  const landing = startLandingPages(root.fork('landing-pages'), shops, links);
  describeShops(root.fork('shop-profiles'), shops, links, advertisers);
  // The catalogues first: a shop's profile and sales readings follow from its products' figures.
  const products = startProducts(root.fork('products'), shops, size.products, window);
  describeShopProfiles(root.fork('shop-details'), shops, links, advertisers, window);
  const histories = startShopHistory(root.fork('shop-history'), shops, window);
  const emails = startEmails(root.fork('emails'), shops, size.emails, window);
  const brandtrackers = makeBrandtrackers(root.fork('brandtrackers'), advertisers, links, shops, window);
  const tiktok = startTikTokLibrary(root.fork('tiktok'), size.tiktokItems, shops, window.asOf);
  // A shop's TikTok handle is the one of its account in the library, where it has one (the first, by profile order).
  const tiktokShops = new Set<ShopSeed>();
  for (const profile of tiktok.profiles) {
    if (!profile.shop?.profile || tiktokShops.has(profile.shop)) continue;
    tiktokShops.add(profile.shop);
    profile.shop.profile.handles.tiktok = profile.handle;
  }
  const google = startGoogleAds(root.fork('google'), size.googleAds, shops, window.asOf);
  const metricsRng = root.fork('metrics');
  // The metric series are drawn page by page (likes, then followers).
  const growth = (current: number) => growthSeries(metricsRng, current);

  const totals: Partial<Record<MarketTable, number>> = {
    categories: GOOGLE_TAXONOMY.length,
    shops: shops.length,
    advertisers: advertisers.length,
    advertiser_shops: links.length,
    ads: size.ads,
    advertiser_metric_days: advertisers.length * WINDOW_DAYS,
    tiktok_profiles: tiktok.profiles.length,
    tiktok_items: size.tiktokItems,
    tiktok_page_snapshots: tiktok.snapshotCount,
    google_advertisers: google.advertisers.length,
    google_ads: size.googleAds,
    ...emails.totals,
    ...histories.totals,
  };

  /**
   * A section's slices: runs of its entities (shops, TikTok profiles, Google advertisers) by a per-entity weight
   * (rows, products, emails, items, ads), each with the fraction of the section it completes.
   */
  function* weightedSlices<S>(weights: number[], between: (start: number, end: number) => S): Generator<S & { fraction: number }> {
    const total = weights.reduce((sum, n) => sum + n, 0);
    let done = 0;
    for (const [start, end] of runs(weights, sliceSize)) {
      for (let i = start; i < end; i++) done += weights[i];
      yield { ...between(start, end), fraction: total === 0 ? 1 : done / total };
    }
  }

  function* slices(): Generator<MarketSlice> {
    yield { kind: 'setup', shops, fraction: 1 };

    const linksOf = new Map<string, LinkSeed[]>();
    for (const link of links) {
      const own = linksOf.get(link.advertiserId);
      if (own) own.push(link);
      else linksOf.set(link.advertiserId, [link]);
    }
    const adIds = new Set<string>();
    const collationIds = new Set<string>();
    let adsDone = 0;
    for (const [start, end] of runs(advertisers.map((a) => a.adCount), sliceSize)) {
      const pages = advertisers.slice(start, end);
      const ads: AdSeed[] = [];
      const landingPages: LandingPageSeed[] = [];
      const totalsOf = new Map<AdvertiserSeed, PageTotals>();
      for (const advertiser of pages) {
        const groups = makeAdsOf(adsRng, advertiser, window.asOf, adIds, collationIds);
        describeAds(adDetailsRng, groups, partners);
        for (const page of landing.pagesOf(advertiser, groups)) landingPages.push(page);
        for (const group of groups) simulateGroup(reachRng, group, window);
        const own = groups.flat();
        totalsOf.set(advertiser, rankPage(pagesRng, own));
        for (const ad of own) {
          ad.demography = drawDemography(demographyRng, ad);
          ads.push(ad);
        }
      }
      adsDone += ads.length;
      yield {
        kind: 'ads',
        window,
        advertisers: pages,
        links: pages.flatMap((advertiser) => linksOf.get(advertiser.id) ?? []),
        totals: totalsOf,
        landingPages,
        ads,
        metrics: pages.map((advertiser) => ({ likes: growth(advertiser.facebookLikes), followers: growth(advertiser.instagramFollowers) })),
        fraction: adsDone / size.ads,
      };
    }

    yield { kind: 'brandtrackers', ...brandtrackers, fraction: 1 };
    for (const slice of weightedSlices(histories.rowCounts, histories.shopsBetween)) yield { kind: 'shop-history', ...slice };
    for (const slice of weightedSlices(products.productCounts, products.shopsBetween)) yield { kind: 'products', ...slice };
    for (const slice of weightedSlices(emails.emailCounts, emails.shopsBetween)) yield { kind: 'emails', ...slice };

    for (const slice of weightedSlices(tiktok.itemCounts, tiktok.profilesBetween)) yield { kind: 'tiktok', ...slice };
    for (const slice of weightedSlices(google.adCounts, google.advertisersBetween)) yield { kind: 'google', ...slice };
  }

  return { totals, upfront: { tiktok_music: tiktok.trackCount }, slices: slices() };
}
