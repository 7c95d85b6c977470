import type { Rng } from '../random.js';
import { COUNTRY_WEIGHTS, EU_UK } from './words.js';

// The Meta ads promoting a product: counts, countries, EU/UK delivery and 13 weeks of history. Spend is EU
// reach priced at the API's default CPM, so a caller's own `cpm` rescales it: spend × cpm / EU_CPM_USD.

export const PRODUCT_WEEKS = 13;
export const EU_CPM_USD = 9;
const INT_MAX = 2_147_483_647;

/** One week of a product's ads, oldest first; `euDailyReach` and `euDailySpendUsd` are daily averages. */
export type ProductWeekSeed = { activeAds: number; euDailyReach: number; euDailySpendUsd: number };

export type ProductAdsSeed = {
  activeAds: number;
  totalAds: number;
  adsLaunched7d: number;
  adsLaunched14d: number;
  adsLaunched30d: number;
  weekOverWeekGrowth: number | null;
  advertisersCount: number;
  hasPartnershipAds: boolean;
  previewUrls: string[];
  activeByCountry: { countryCode: string; activeAds: number }[];
  sellingCountries: string[];
  mainSellingCountry: string;
  euReach: number;
  euSpendUsd: number;
  euDailySpendUsd: number;
  euSpend14dUsd: number;
  euReachByCountry: { countryCode: string; reach: number }[];
  weeks: ProductWeekSeed[];
  /** Percent of the shop's active ads and of its EU spend; set by `shareAds` once the shop's products are drawn. */
  adShare: number;
  spendShare: number;
};

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Splits the integer `total` in proportion to `weights` (largest remainders), so the parts add up to it exactly. */
export function splitInteger(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (sum > 0 ? (total * w) / sum : 0));
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k].i]++;
  return parts;
}

function sellingCountries(rng: Rng, home: string): string[] {
  const first = rng.chance(0.75) ? home : rng.weighted(COUNTRY_WEIGHTS);
  const more = rng.weighted([[0, 35], [1, 25], [2, 20], [3, 12], [4, 8]] as const);
  return [first, ...rng.weightedSample(COUNTRY_WEIGHTS.filter(([code]) => code !== first), more)];
}

/** The weekly active ads ending at `activeAds`, none before the product existed (week `firstWeek`). */
function weeklyActive(rng: Rng, activeAds: number, totalAds: number, firstWeek: number): number[] {
  const active = new Array<number>(PRODUCT_WEEKS).fill(0);
  active[PRODUCT_WEEKS - 1] = activeAds;
  let level = activeAds > 0 ? activeAds : Math.max(1, totalAds * 0.4);
  for (let k = PRODUCT_WEEKS - 2; k >= firstWeek; k--) {
    level *= Math.exp(0.3 * rng.normal() - 0.04);
    active[k] = Math.min(totalAds, Math.round(level));
  }
  return active;
}

/**
 * The ads of a product that has some. `lift` (≥ 1) scales the campaign for the shop's best sellers;
 * `ageDays` bounds the launch counts (a product a week old launched all its ads this week).
 */
export function drawProductAds(rng: Rng, home: string, lift: number, ageDays: number, firstWeek: number, previewBase: string): ProductAdsSeed {
  const totalAds = Math.min(800, 1 + Math.floor(rng.logNormal(2.2, 1.1) * lift));
  const activeAds = rng.chance(0.82) ? Math.max(1, Math.round(totalAds * rng.float(0.15, 0.95))) : 0;
  let launched30d = Math.round(totalAds * rng.float(0, 0.6));
  let launched14d = Math.round(launched30d * rng.float(0.3, 0.75));
  let launched7d = Math.round(launched14d * rng.float(0.3, 0.75));
  if (ageDays < 30) launched30d = totalAds;
  if (ageDays < 14) launched14d = totalAds;
  if (ageDays < 7) launched7d = totalAds;
  const hasPartnershipAds = rng.chance(0.12);
  const advertisersCount = hasPartnershipAds ? 1 + rng.int(1, 3) : 1;

  const countries = sellingCountries(rng, home);
  const split = splitInteger(activeAds, countries.map((_, i) => (i === 0 ? 3 : 0) + rng.float(0.2, 1)));
  const activeByCountry = countries
    .map((countryCode, i) => ({ countryCode, activeAds: split[i] }))
    .filter((entry) => entry.activeAds > 0)
    .sort((a, b) => b.activeAds - a.activeAds);
  const ordered = [...activeByCountry.map((entry) => entry.countryCode), ...countries.filter((code) => !activeByCountry.some((e) => e.countryCode === code))];

  const active = weeklyActive(rng, activeAds, totalAds, firstWeek);
  const previous = active[PRODUCT_WEEKS - 2];
  const euCodes = ordered.filter((code) => EU_UK.has(code));
  const perAd = euCodes.length === 0 ? 0 : rng.logNormal(350, 0.9) * (euCodes.length / ordered.length);
  const weeks = active.map((ads) => {
    const euDailyReach = ads > 0 && perAd > 0 ? Math.min(INT_MAX, Math.max(1, Math.round(ads * perAd * Math.exp(0.15 * rng.normal())))) : 0;
    return { activeAds: ads, euDailyReach, euDailySpendUsd: round2((euDailyReach * EU_CPM_USD) / 1000) };
  });
  const euReach = weeks.reduce((sum, week) => sum + 7 * week.euDailyReach, 0);
  const reachSplit = splitInteger(euReach, euCodes.map((code) => (activeByCountry.find((e) => e.countryCode === code)?.activeAds ?? 0) + 0.5));
  const last = weeks[PRODUCT_WEEKS - 1];
  return {
    activeAds,
    totalAds,
    adsLaunched7d: launched7d,
    adsLaunched14d: launched14d,
    adsLaunched30d: launched30d,
    weekOverWeekGrowth: previous > 0 ? round1((100 * (activeAds - previous)) / previous) : null,
    advertisersCount,
    hasPartnershipAds,
    previewUrls: Array.from({ length: Math.min(3, totalAds) }, (_, i) => `${previewBase}/${i + 1}.jpg`),
    activeByCountry,
    sellingCountries: ordered,
    mainSellingCountry: ordered[0],
    euReach,
    euSpendUsd: round2((euReach * EU_CPM_USD) / 1000),
    euDailySpendUsd: last.euDailySpendUsd,
    euSpend14dUsd: round2((7 * (last.euDailyReach + weeks[PRODUCT_WEEKS - 2].euDailyReach) * EU_CPM_USD) / 1000),
    euReachByCountry: euCodes
      .map((countryCode, i) => ({ countryCode, reach: reachSplit[i] }))
      .filter((entry) => entry.reach > 0)
      .sort((a, b) => b.reach - a.reach),
    weeks,
    adShare: 0,
    spendShare: 0,
  };
}

/** Each product's share (percent) of its shop's active ads and EU spend. */
export function shareAds(ads: readonly (ProductAdsSeed | null)[]): void {
  let active = 0;
  let spend = 0;
  for (const a of ads) {
    active += a?.activeAds ?? 0;
    spend += a?.euSpendUsd ?? 0;
  }
  for (const a of ads) {
    if (!a) continue;
    a.adShare = active > 0 ? round1((100 * a.activeAds) / active) : 0;
    a.spendShare = spend > 0 ? round1((100 * a.euSpendUsd) / spend) : 0;
  }
}
