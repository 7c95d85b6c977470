import type { Rng } from '../random.js';
import type { AdSeed, ReachSeries } from './ads.js';
import { DAY, dayOf, WINDOW_DAYS, type Window } from './time.js';

// Reach histories and everything derived from them: deltas, duplicate-group figures, ranks, page totals.

const LAST = WINDOW_DAYS - 1;
/** Multiplies the per-ad draw so that the median final reach lands near 5k. */
const REACH_SCALE = 4500;
const MAX_REACH = 100_000_000;

/**
 * Draws the final reach and the daily cumulative series over the ad's whole life, and keeps the part inside the
 * window. Daily increments decay from launch (the delivery burst) with weekday and random noise; the series is
 * non-decreasing and ends at `reach` on the ad's last day.
 */
function simulateAd(rng: Rng, ad: AdSeed, window: Window): void {
  const firstDay = dayOf(ad.firstSeenAt);
  const lastDay = ad.status === 'active' ? window.last : dayOf(ad.lastSeenAt);
  const lifeDays = lastDay - firstDay + 1;
  const drawn = REACH_SCALE * ad.advertiser.popularity * rng.logNormal(1, 2.5) * Math.pow(lifeDays / 30, 0.35);
  // Saturates smoothly so that the very top stays in the tens of millions.
  const reach = Math.max(1, Math.round(drawn / (1 + drawn / MAX_REACH)));
  ad.reach = reach;
  const start = Math.max(firstDay, window.first);
  const end = Math.min(lastDay, window.last);
  if (start > end) return;

  const decay = lifeDays * rng.float(0.15, 0.8) + 1;
  const floor = rng.float(0.05, 0.4);
  const cumulative = new Float64Array(lifeDays);
  let sum = 0;
  for (let i = 0; i < lifeDays; i++) {
    const weekday = (firstDay + i + 4) % 7; // day 0 of the epoch was a Thursday
    const weekend = weekday === 0 || weekday === 6 ? 1.15 : 1;
    sum += (Math.exp(-i / decay) + floor) * weekend * Math.exp(0.3 * rng.normal());
    cumulative[i] = sum;
  }
  const at = (i: number) => (i < 0 ? 0 : Math.round((reach * cumulative[i]) / sum));
  const values: number[] = [];
  for (let day = start; day <= end; day++) values.push(at(day - firstDay));
  ad.series = { start: start - window.first, values, before: at(start - firstDay - 1), ranks: new Array<number>(values.length).fill(0) };
}

/** Reach at window day `index`, carrying the last snapshot forward and 0 before the ad started. */
function reachAt(ad: AdSeed, index: number): number {
  const series = ad.series;
  if (!series) return 0;
  if (index < series.start) return 0;
  const offset = index - series.start;
  return offset < series.values.length ? series.values[offset] : series.values[series.values.length - 1];
}

/** The day's reach increment of a running ad. */
function incrementAt(series: ReachSeries, index: number): number {
  const offset = index - series.start;
  return series.values[offset] - (offset > 0 ? series.values[offset - 1] : series.before);
}

/** The reach series, deltas and group figures (aggregated reach, lead) of one duplicate group. */
export function simulateGroup(rng: Rng, group: AdSeed[], window: Window): void {
  for (const ad of group) {
    simulateAd(rng, ad, window);
    const now = reachAt(ad, LAST);
    ad.reachDelta1d = now - reachAt(ad, LAST - 1);
    ad.reachDelta7d = now - reachAt(ad, LAST - 7);
    ad.reachDelta30d = now - reachAt(ad, LAST - 30);
  }
  const total = group.reduce((sum, ad) => sum + ad.reach, 0);
  let lead = group[0];
  for (const ad of group) {
    ad.aggregatedReach = total;
    const hasMedia = ad.mediaUrl !== null;
    if (hasMedia !== (lead.mediaUrl !== null)) {
      if (hasMedia) lead = ad;
    } else if (ad.reach > lead.reach || (ad.reach === lead.reach && ad.id < lead.id)) {
      lead = ad;
    }
  }
  lead.isGroupLead = true;
}

const byId = (a: AdSeed, b: AdSeed) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Ranks `ads` by `score` (higher first), then by `tie` and id; returns rank by ad. */
function rankBy(ads: AdSeed[], score: (ad: AdSeed) => number, tie: (ad: AdSeed) => number): Map<AdSeed, number> {
  const sorted = ads.slice().sort((a, b) => score(b) - score(a) || tie(b) - tie(a) || byId(a, b));
  return new Map(sorted.map((ad, i) => [ad, i + 1]));
}

export type SpenderSegment = 'big-spender' | 'rising-star';

export type PageTotals = {
  liveAdsCount: number;
  reach30d: number;
  totalReach: number;
  countriesCount: number;
  pageCreatedAt: number;
  /** Per window day: the sum of the page's ads' reach increments. */
  impressions: number[];
  audienceGender: 'female' | 'male' | 'all';
  spenderSegment: SpenderSegment | null;
};

/** 30-day reach from which a page is a big spender (about the top 5% of pages). */
export const BIG_SPENDER_REACH30D = 750_000;
/** A page below that is a rising star when its last 7 days bring at least half its 30-day reach of at least this. */
export const RISING_STAR_REACH30D = 20_000;

/**
 * Big spenders by 30-day reach; rising stars by the share of it the last 7 days bring (a quarter of the month
 * would be flat).
 */
function spenderSegment(reach30d: number, impressions: number[]): SpenderSegment | null {
  if (reach30d >= BIG_SPENDER_REACH30D) return 'big-spender';
  if (reach30d < RISING_STAR_REACH30D) return null;
  const last7d = impressions.slice(-7).reduce((sum, n) => sum + n, 0);
  return 2 * last7d >= reach30d ? 'rising-star' : null;
}

/** The gender a page's ads lean to: at least 30% of them target it, and more than target the other. */
function audienceGender(ads: AdSeed[]): PageTotals['audienceGender'] {
  let women = 0;
  let men = 0;
  for (const ad of ads) {
    if (ad.gender === 'women') women++;
    else if (ad.gender === 'men') men++;
  }
  if (women > men && women >= 0.3 * ads.length) return 'female';
  if (men > women && men >= 0.3 * ads.length) return 'male';
  return 'all';
}

/** The rank on window day `index`, when the ad ran that day. */
function rankAt(series: ReachSeries, index: number): number | null {
  const offset = index - series.start;
  return offset >= 0 && offset < series.ranks.length ? series.ranks[offset] : null;
}

/** Rank `days` ago minus the rank at asOf, when the ad ran on both days. */
function rankDelta(series: ReachSeries, days: number): number | null {
  const now = rankAt(series, LAST);
  const before = rankAt(series, LAST - days);
  return now === null || before === null ? null : before - now;
}

/** Positions, ranks (current, 7 days ago and per snapshot day) and the page totals of one advertiser's ads. */
export function rankPage(rng: Rng, ads: AdSeed[]): PageTotals {
  ads.slice()
    .sort((a, b) => b.firstSeenAt - a.firstSeenAt || byId(a, b))
    .forEach((ad, i) => (ad.positionInPage = i + 1));

  const current = rankBy(ads.filter((ad) => ad.status === 'active'), (ad) => ad.reachDelta7d, (ad) => ad.reach);
  const weekAgo = LAST - 7;
  const runningWeekAgo = ads.filter((ad) => ad.series && ad.series.start <= weekAgo && weekAgo < ad.series.start + ad.series.values.length);
  const previous = rankBy(runningWeekAgo, (ad) => reachAt(ad, weekAgo) - reachAt(ad, weekAgo - 7), (ad) => reachAt(ad, weekAgo));
  for (const ad of ads) {
    const rank = current.get(ad);
    if (rank === undefined) continue;
    ad.currentRank = rank;
    const before = previous.get(ad);
    if (before === undefined) continue;
    ad.rankDelta = before - rank;
    ad.improvementPct = ((before - rank) / before) * 100;
  }

  const impressions = new Array<number>(WINDOW_DAYS).fill(0);
  const running: { ad: AdSeed; increment: number }[][] = Array.from({ length: WINDOW_DAYS }, () => []);
  for (const ad of ads) {
    const series = ad.series;
    if (!series) continue;
    for (let offset = 0; offset < series.values.length; offset++) {
      const index = series.start + offset;
      const increment = incrementAt(series, index);
      impressions[index] += increment;
      running[index].push({ ad, increment });
    }
  }
  running.forEach((day, index) => {
    day.sort((a, b) => b.increment - a.increment || byId(a.ad, b.ad));
    day.forEach(({ ad }, i) => {
      const series = ad.series!;
      series.ranks[index - series.start] = i + 1;
    });
  });

  for (const ad of ads) {
    const series = ad.series;
    if (!series) continue;
    ad.rankDelta7d = rankDelta(series, 7);
    ad.rankDelta14d = rankDelta(series, 14);
    ad.rankDelta30d = rankDelta(series, 30);
    ad.bestRank = Math.min(...series.ranks);
  }

  const countries = new Set<string>();
  let earliest = Infinity;
  for (const ad of ads) {
    for (const code of ad.targetedCountries) countries.add(code);
    earliest = Math.min(earliest, ad.firstSeenAt);
  }
  const latestCreation = Math.min(Date.UTC(2024, 11, 31), earliest - 30 * DAY);
  const reach30d = ads.reduce((sum, ad) => sum + ad.reachDelta30d, 0);
  return {
    liveAdsCount: ads.filter((ad) => ad.status === 'active').length,
    reach30d,
    totalReach: ads.reduce((sum, ad) => sum + ad.reach, 0),
    countriesCount: countries.size,
    pageCreatedAt: Math.round(rng.float(Date.UTC(2010, 0, 1), latestCreation)),
    impressions,
    audienceGender: audienceGender(ads),
    spenderSegment: spenderSegment(reach30d, impressions),
  };
}

/** A slowly growing daily series of `WINDOW_DAYS` values that ends at `current`. */
export function growthSeries(rng: Rng, current: number): number[] {
  if (current === 0) return new Array<number>(WINDOW_DAYS).fill(0);
  const growth = current * rng.float(0.003, 0.06);
  const steps = [0];
  for (let i = 1; i < WINDOW_DAYS; i++) steps.push(steps[i - 1] + rng.float(0.2, 1.8));
  const total = steps[WINDOW_DAYS - 1];
  return steps.map((step) => Math.round(current - growth + (growth * step) / total));
}
