import { Rng } from '../random.js';
import { makeAds, type AdSeed } from './ads.js';
import { makeAdvertisers, makeShops, type AdvertiserSeed, type LinkSeed, type ShopSeed } from './advertisers.js';
import { describeShops, makeGoogleAds, type GoogleAdSeed, type GoogleAdvertiserSeed } from './google.js';
import { rankPage, simulateReach, type PageTotals } from './snapshots.js';
import { makeTikTokLibrary, type TikTokLibrary } from './tiktok.js';
import { makeWindow, type Window } from './time.js';

export type MarketScale = 'tiny' | 'small';

export const SCALES: Record<MarketScale, { ads: number; advertisers: number; shops: number; tiktokItems: number; googleAds: number }> = {
  tiny: { ads: 3_000, advertisers: 600, shops: 1_000, tiktokItems: 2_000, googleAds: 2_000 },
  small: { ads: 30_000, advertisers: 6_000, shops: 10_000, tiktokItems: 20_000, googleAds: 20_000 },
};

/** The whole generated market, in memory, before it is turned into rows. */
export type Market = {
  window: Window;
  advertisers: AdvertiserSeed[];
  totals: Map<AdvertiserSeed, PageTotals>;
  shops: ShopSeed[];
  links: LinkSeed[];
  ads: AdSeed[];
  tiktok: TikTokLibrary;
  google: { advertisers: GoogleAdvertiserSeed[]; ads: GoogleAdSeed[] };
  /** Drawn from while the page metric rows stream out. */
  metricsRng: Rng;
};

/** Each concern draws from its own stream of the seed, in a fixed order. */
export function generateMarket(scale: MarketScale, seed: number, asOf: Date): Market {
  const size = SCALES[scale];
  const root = new Rng(seed);
  const window = makeWindow(asOf);
  const advertisers = makeAdvertisers(root.fork('advertisers'), size.advertisers, size.ads);
  const { shops, links } = makeShops(root.fork('shops'), advertisers, size.shops, window.asOf);
  const groups = makeAds(root.fork('ads'), advertisers, window.asOf);
  simulateReach(root.fork('reach'), groups, window);
  const ads = groups.flat();

  const byAdvertiser = new Map<AdvertiserSeed, AdSeed[]>(advertisers.map((advertiser) => [advertiser, []]));
  for (const ad of ads) byAdvertiser.get(ad.advertiser)!.push(ad);
  const pagesRng = root.fork('pages');
  const totals = new Map<AdvertiserSeed, PageTotals>();
  for (const advertiser of advertisers) totals.set(advertiser, rankPage(pagesRng, byAdvertiser.get(advertiser)!));
  describeShops(root.fork('shop-profiles'), shops, links, advertisers);
  const tiktok = makeTikTokLibrary(root.fork('tiktok'), size.tiktokItems, shops, window.asOf);
  const google = makeGoogleAds(root.fork('google'), size.googleAds, shops, window.asOf);
  return { window, advertisers, totals, shops, links, ads, tiktok, google, metricsRng: root.fork('metrics') };
}
