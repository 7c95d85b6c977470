import type { Rng } from '../random.js';
import type { ShopSeed } from './advertisers.js';
import { define, type MarketTable, type TableRows } from './define.js';
import { growthSeries } from './snapshots.js';
import { TRAFFIC_MONTHS } from './shop-traffic.js';
import { WINDOW_DAYS, type Window } from './time.js';

// The shop-history slices: each run of shops brings its per-shop rows (apps, technologies, pixels, traffic
// months and countries, see shop-profiles.ts), daily social followers over the snapshot window (shops with a
// Facebook or Instagram profile) and weekly sales readings. A shop's history is drawn from its own fork when its
// slice is pulled.

/** Readings every 7 days back from asOf, within the window: 13 of them. */
export const READING_EVERY = 7;
export const READINGS = Math.floor((WINDOW_DAYS - 1) / READING_EVERY) + 1;
const INT_MAX = 2_147_483_647;

type Series = number[] | null;
export type SocialHistory = { shop: ShopSeed; facebook: Series; instagram: Series; youtube: Series };
export type SalesReading = { shop: ShopSeed; date: string; revenueUsd: number; revenueMinUsd: number; revenueMaxUsd: number; unitsSold: number; ordersCount: number };

export type ShopHistorySlice = { kind: 'shop-history'; window: Window; shops: ShopSeed[]; socials: SocialHistory[]; readings: SalesReading[] };

export type ShopHistoryPlan = {
  /** Rows per shop (its profile rows, socials days and sales readings), in shop order: the slicing weights. */
  rowCounts: number[];
  /** The section's rows per table. */
  totals: Partial<Record<MarketTable, number>>;
  /** The history of shops `start`..`end - 1`; call on consecutive runs from 0. */
  shopsBetween(start: number, end: number): Omit<ShopHistorySlice, 'kind'>;
};

const hasSocialDays = (shop: ShopSeed) => shop.profile!.followers.facebook !== null || shop.profile!.followers.instagram !== null;

/** A shop's rows per table of its shop-history slice. */
function rowsOf(shop: ShopSeed): [MarketTable, number][] {
  const { counts, technologyIds } = shop.profile!;
  return [
    ['shop_apps', counts.apps],
    ['shop_technologies', technologyIds.length],
    ['shop_pixels', counts.pixels],
    ['shop_traffic_months', TRAFFIC_MONTHS],
    ['shop_traffic_countries', counts.countries],
    ['shop_social_days', hasSocialDays(shop) ? WINDOW_DAYS : 0],
    ['shop_sales_readings', READINGS],
  ];
}

/** Revenue and units over the 30 days before asOf: the catalogue's figures, or an estimate from traffic without one. */
function latestSales(rng: Rng, shop: ShopSeed): { revenue: number; units: number; unitsPerOrder: number } {
  const unitsPerOrder = rng.float(1.05, 1.6);
  if (shop.catalog) return { revenue: shop.catalog.monthlyRevenueUsd, units: shop.catalog.monthlyUnitsSold, unitsPerOrder };
  const orders = shop.monthlyVisits * Math.min(0.06, rng.logNormal(0.015, 0.4));
  return { revenue: Math.min(INT_MAX, Math.round(orders * rng.logNormal(55, 0.45))), units: Math.min(INT_MAX, Math.round(orders * unitsPerOrder)), unitsPerOrder };
}

/**
 * Readings oldest first, the last on asOf at exactly the latest figures; earlier ones follow the traffic trend
 * with autocorrelated noise. The range is a band around the estimate; orders never exceed units.
 */
function salesReadings(rng: Rng, shop: ShopSeed, window: Window): SalesReading[] {
  const { revenue, units, unitsPerOrder } = latestSales(rng, shop);
  const dailyTrend = Math.log1p(shop.trafficGrowth30d ?? 0) / 30;
  const band = rng.float(0.12, 0.35);
  const readings: SalesReading[] = [];
  let noise = 0;
  for (let k = 0; k < READINGS; k++) {
    const daysBack = k * READING_EVERY;
    if (k > 0) noise = 0.7 * noise + 0.05 * rng.normal();
    const factor = Math.exp(-dailyTrend * daysBack + noise);
    const revenueUsd = k === 0 ? revenue : Math.min(INT_MAX, Math.round(revenue * factor));
    const unitsSold = k === 0 ? units : Math.min(INT_MAX, Math.round(units * factor * Math.exp(0.02 * rng.normal())));
    readings.push({
      shop,
      date: window.dates[WINDOW_DAYS - 1 - daysBack],
      revenueUsd,
      revenueMinUsd: Math.floor(revenueUsd * (1 - band)),
      revenueMaxUsd: Math.min(INT_MAX, Math.ceil(revenueUsd * (1 + band))),
      unitsSold,
      ordersCount: Math.min(unitsSold, Math.max(unitsSold > 0 ? 1 : 0, Math.round(unitsSold / unitsPerOrder))),
    });
  }
  return readings.reverse();
}

export function startShopHistory(rng: Rng, shops: ShopSeed[], window: Window): ShopHistoryPlan {
  const totals: Partial<Record<MarketTable, number>> = {};
  const rowCounts = shops.map((shop) => {
    let sum = 0;
    for (const [table, count] of rowsOf(shop)) {
      totals[table] = (totals[table] ?? 0) + count;
      sum += count;
    }
    return sum;
  });
  return {
    rowCounts,
    totals,
    shopsBetween(start, end) {
      const run = shops.slice(start, end);
      const socials: SocialHistory[] = [];
      const readings: SalesReading[] = [];
      for (const shop of run) {
        const r = rng.fork(shop.id);
        if (hasSocialDays(shop)) {
          const { facebook, instagram, youtube } = shop.profile!.followers;
          const series = (current: number | null) => (current === null ? null : growthSeries(r, current));
          socials.push({ shop, facebook: series(facebook), instagram: series(instagram), youtube: series(youtube) });
        }
        for (const reading of salesReadings(r, shop, window)) readings.push(reading);
      }
      return { window, shops: run, socials, readings };
    },
  };
}

type SocialDay = { shop: ShopSeed; date: string; facebook: number | null; instagram: number | null; youtube: number | null };

function* socialDays(slice: ShopHistorySlice): Generator<SocialDay> {
  for (const { shop, facebook, instagram, youtube } of slice.socials) {
    for (const [i, date] of slice.window.dates.entries()) {
      yield { shop, date, facebook: facebook?.[i] ?? null, instagram: instagram?.[i] ?? null, youtube: youtube?.[i] ?? null };
    }
  }
}

/** The social days and sales readings of a shop-history slice. */
export function socialAndSalesTables(slice: ShopHistorySlice): TableRows[] {
  return [
    // TikTok followers stay null here: a shop's TikTok account (tiktok_profiles.shopId) carries its own figures.
    define<SocialDay>('shop_social_days', slice.socials.length * WINDOW_DAYS, socialDays(slice), [
      ['shopId', 'uuid', (d) => d.shop.id],
      ['date', 'date', (d) => d.date],
      ['facebook', 'int4', (d) => d.facebook],
      ['instagram', 'int4', (d) => d.instagram],
      ['youtube', 'int4', (d) => d.youtube],
    ]),
    define<SalesReading>('shop_sales_readings', slice.readings.length, slice.readings, [
      ['shopId', 'uuid', (r) => r.shop.id],
      ['date', 'date', (r) => r.date],
      ['revenueUsd', 'int4', (r) => r.revenueUsd],
      ['revenueMinUsd', 'int4', (r) => r.revenueMinUsd],
      ['revenueMaxUsd', 'int4', (r) => r.revenueMaxUsd],
      ['unitsSold', 'int4', (r) => r.unitsSold],
      ['ordersCount', 'int4', (r) => r.ordersCount],
    ]),
  ];
}
