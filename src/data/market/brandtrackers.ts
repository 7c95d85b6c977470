import type { Rng } from '../random.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import { define, type TableRows } from './define.js';
import { DAY, HOUR, isoTimestamp, type Window } from './time.js';

// The global brandtrackers (tracked brands) and their websites: about one page in twenty, the big ones first,
// and about one shop in a hundred tracked as a website.

export type BrandtrackerSeed = {
  id: string;
  targetType: 'page' | 'shop';
  facebookPageId: string | null;
  websiteId: string | null;
  name: string;
  avatarUrl: string;
  isLoaded: boolean;
  lastCrawledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Shop ids, position 0 first: a page's linked shops (its primary shop first), or the tracked shop. */
  websites: string[];
};

export type BrandtrackerSlice = { kind: 'brandtrackers'; brandtrackers: BrandtrackerSeed[] };

const PAGE_SHARE = 0.05;
const SHOP_SHARE = 0.01;

/** `count` indexes drawn without replacement by weight (Efraimidis–Spirakis keys), heaviest keys first. */
function sampleByWeight(rng: Rng, weights: number[], count: number): number[] {
  const keys = Float64Array.from(weights, (w) => (w > 0 ? Math.log(1 - rng.next()) / w : -Infinity));
  const order = Array.from(keys.keys()).sort((a, b) => keys[b] - keys[a] || a - b);
  return order.slice(0, count).filter((i) => keys[i] > -Infinity);
}

/** Draws the tracked brands up front; they are inserted after the ads (their pages' figures come from the ads). */
export function makeBrandtrackers(rng: Rng, advertisers: AdvertiserSeed[], links: LinkSeed[], shops: ShopSeed[], window: Window): Omit<BrandtrackerSlice, 'kind'> {
  const linksOf = new Map<string, LinkSeed[]>();
  const primaryPageOf = new Map<string, string>();
  for (const link of links) {
    const own = linksOf.get(link.advertiserId);
    if (own) own.push(link);
    else linksOf.set(link.advertiserId, [link]);
    if (link.isPrimary && !primaryPageOf.has(link.shopId)) primaryPageOf.set(link.shopId, link.advertiserId);
  }
  const tracked = new Set<string>();
  const dates = () => {
    // Tracked for a few weeks to a few years; the not-yet-loaded ones were added in the last two days.
    const isLoaded = rng.chance(0.95);
    const age = isLoaded ? Math.min(5 * 365, 2 + rng.logNormal(180, 1.1)) * DAY : rng.float(HOUR, 2 * DAY);
    const createdAt = Math.round(window.asOf - age);
    const lastCrawledAt = isLoaded ? Math.round(window.asOf - rng.float(5 * 60_000, DAY)) : null;
    return { isLoaded, createdAt, lastCrawledAt, updatedAt: lastCrawledAt ?? createdAt };
  };

  const pages = sampleByWeight(rng, advertisers.map((a) => a.popularity * Math.sqrt(a.adCount)), Math.round(advertisers.length * PAGE_SHARE));
  const brandtrackers: BrandtrackerSeed[] = pages.map((index) => {
    const advertiser = advertisers[index];
    tracked.add(advertiser.id);
    const own = linksOf.get(advertiser.id) ?? [];
    return {
      id: rng.uuid(),
      targetType: 'page',
      facebookPageId: advertiser.id,
      websiteId: null,
      name: advertiser.name,
      avatarUrl: `/media/pages/${advertiser.id}.png`,
      ...dates(),
      websites: [...own.filter((l) => l.isPrimary), ...own.filter((l) => !l.isPrimary)].map((l) => l.shopId),
    };
  });

  const targets = sampleByWeight(rng, shops.map((s) => Math.pow(s.monthlyVisits, 0.7)), Math.round(shops.length * SHOP_SHARE));
  for (const index of targets) {
    const shop = shops[index];
    const page = primaryPageOf.get(shop.id);
    const facebookPageId = page !== undefined && !tracked.has(page) ? page : null;
    if (facebookPageId) tracked.add(facebookPageId);
    brandtrackers.push({
      id: rng.uuid(),
      targetType: 'shop',
      facebookPageId,
      websiteId: shop.id,
      name: shop.name,
      avatarUrl: `/media/shops/${shop.id}/logo.png`,
      ...dates(),
      websites: [shop.id],
    });
  }
  return { brandtrackers };
}

type WebsiteRow = { brandtrackerId: string; shopId: string; position: number };

export function brandtrackerTables(slice: BrandtrackerSlice): TableRows[] {
  const websites: WebsiteRow[] = slice.brandtrackers.flatMap((b) => b.websites.map((shopId, position) => ({ brandtrackerId: b.id, shopId, position })));
  const timestamp = (ms: number | null) => (ms === null ? null : isoTimestamp(ms));
  return [
    define<BrandtrackerSeed>('brandtrackers', slice.brandtrackers.length, slice.brandtrackers, [
      ['id', 'uuid', (b) => b.id],
      ['targetType', 'text', (b) => b.targetType],
      ['facebookPageId', 'text', (b) => b.facebookPageId],
      ['websiteId', 'uuid', (b) => b.websiteId],
      ['name', 'text', (b) => b.name],
      ['avatarUrl', 'text', (b) => b.avatarUrl],
      ['isLoaded', 'bool', (b) => b.isLoaded],
      ['lastCrawledAt', 'timestamptz', (b) => timestamp(b.lastCrawledAt)],
      ['createdAt', 'timestamptz', (b) => isoTimestamp(b.createdAt)],
      ['updatedAt', 'timestamptz', (b) => isoTimestamp(b.updatedAt)],
    ]),
    define<WebsiteRow>('brandtracker_websites', websites.length, websites, [
      ['brandtrackerId', 'uuid', (w) => w.brandtrackerId],
      ['shopId', 'uuid', (w) => w.shopId],
      ['position', 'int4', (w) => w.position],
    ]),
  ];
}
