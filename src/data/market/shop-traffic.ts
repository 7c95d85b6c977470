import type { Rng } from '../random.js';
import { COUNTRY_WEIGHTS } from './words.js';

// A shop's traffic breakdown: twelve monthly visit totals ending with the current month, and its visitor countries.

export const TRAFFIC_MONTHS = 12;
const INT_MAX = 2_147_483_647;
/** Seasonal log-offsets by calendar month (0 = January): the holiday peak and the January dip. */
const SEASON = [-0.06, -0.04, 0, 0, 0, -0.02, -0.03, 0, 0.01, 0.03, 0.1, 0.14];

export type TrafficHistory = { visits: Int32Array; growth90d: number; growth180d: number };

export const growthBetween = (now: number, before: number) => Math.round((before > 0 ? now / before - 1 : 0) * 1000) / 1000;

/**
 * Monthly visits, oldest first, drawn backwards from the current month (`current` visits, calendar month
 * `month`): the previous month follows from `growth30d`, earlier ones from a per-shop trend, noise and season.
 */
export function trafficHistory(rng: Rng, current: number, growth30d: number, month: number): TrafficHistory {
  const visits = new Int32Array(TRAFFIC_MONTHS);
  visits[TRAFFIC_MONTHS - 1] = current;
  visits[TRAFFIC_MONTHS - 2] = Math.min(INT_MAX, Math.max(1, Math.round(current / (1 + growth30d))));
  // Monthly log-growth: partly the shop's recent momentum, partly its own long-run trend.
  const trend = 0.25 * Math.log1p(growth30d) + 0.035 * rng.normal() + 0.005;
  let level = visits[TRAFFIC_MONTHS - 2];
  for (let i = TRAFFIC_MONTHS - 3; i >= 0; i--) {
    const later = (month - (TRAFFIC_MONTHS - 2 - i) + 12 * 12) % 12;
    const earlier = (later + 11) % 12;
    const step = trend + 0.07 * rng.normal() + SEASON[later] - SEASON[earlier];
    level = level / Math.exp(step);
    visits[i] = Math.min(INT_MAX, Math.max(1, Math.round(level)));
  }
  const now = visits[TRAFFIC_MONTHS - 1];
  return {
    visits,
    growth90d: growthBetween(now, visits[TRAFFIC_MONTHS - 4]),
    growth180d: growthBetween(now, visits[TRAFFIC_MONTHS - 7]),
  };
}

export type CountryShare = { countryCode: string; share: number };

/**
 * One to five visitor countries with their share of traffic (three decimals, adding up to at most 1), largest
 * first; `main` gets the largest share. Bigger shops reach more countries.
 */
export function trafficCountries(rng: Rng, main: string, monthlyVisits: number): CountryShare[] {
  const reach = Math.log10(Math.max(10, monthlyVisits)) - 3;
  const count = Math.max(1, Math.min(5, Math.round(1 + reach + rng.float(-0.8, 1.6))));
  const others = rng.weightedSample(
    COUNTRY_WEIGHTS.filter(([code]) => code !== main),
    count - 1,
  );
  const mainShare = count === 1 ? rng.float(0.7, 0.98) : rng.float(0.4, 0.88);
  // The others split part of the rest ("other countries" keep the remainder), each below the main share.
  const weights = others.map(() => rng.float(0.2, 1)).sort((a, b) => b - a);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const spread = (1 - mainShare) * rng.float(0.55, 0.95);
  const shares: CountryShare[] = [{ countryCode: main, share: Math.floor(mainShare * 1000) / 1000 }];
  others.forEach((countryCode, i) => {
    const share = Math.min(shares[0].share, Math.floor(((spread * weights[i]) / total) * 1000) / 1000);
    if (share > 0) shares.push({ countryCode, share });
  });
  return shares.sort((a, b) => b.share - a.share || (a.countryCode === main ? -1 : b.countryCode === main ? 1 : 0));
}
