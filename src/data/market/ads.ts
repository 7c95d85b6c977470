import type { Rng } from '../random.js';
import type { AdvertiserSeed } from './advertisers.js';
import { makeCreative, type Creative } from './copy.js';
import type { DemographyCell } from './demography.js';
import type { LandingPageSeed } from './landing-pages.js';
import { DAY, EARLIEST_AD, HOUR } from './time.js';
import { COUNTRY_WEIGHTS, EU_UK, type Category } from './words.js';

export type AdStatus = 'active' | 'inactive' | 'unknown';

/** The reach history of an ad inside the snapshot window (window day indexes `start`..`start + values.length - 1`). */
export type ReachSeries = { start: number; values: number[]; before: number; ranks: number[] };

export type AdSeed = {
  id: string;
  advertiser: AdvertiserSeed;
  collationId: string;
  creative: Creative;
  status: AdStatus;
  firstSeenAt: number;
  createdAt: number;
  lastSeenAt: number;
  thumbnailUrl: string | null;
  mediaUrl: string | null;
  targetedCountries: string[];
  mainCountry: string | null;
  isEuAd: boolean;
  gender: 'all' | 'men' | 'women';
  ageMin: number;
  ageMax: number;
  isMediaChanged: boolean;
  hasPartnerBadge: boolean;
  // Filled in by describeAds and the landing pages:
  videoDurationSec: number | null;
  /** The creator page of a partnership ad (`hasPartnerBadge`). */
  partner: AdvertiserSeed | null;
  landingPage: LandingPageSeed | null;
  // Filled in by the snapshot simulation:
  reach: number;
  series: ReachSeries | null;
  reachDelta1d: number;
  reachDelta7d: number;
  reachDelta30d: number;
  duplicates: number;
  aggregatedReach: number;
  isGroupLead: boolean;
  positionInPage: number;
  currentRank: number | null;
  rankDelta: number | null;
  improvementPct: number | null;
  /** Daily rank 7, 14 and 30 days ago minus the daily rank at asOf (positive = climbed); null unless the ad ran on both days. */
  rankDelta7d: number | null;
  rankDelta14d: number | null;
  rankDelta30d: number | null;
  /** The best (lowest) daily rank in the window; null without a series. */
  bestRank: number | null;
  /** The EU delivery breakdown, drawn once the reach is known; empty for a non-EU ad. */
  demography: DemographyCell[];
};

const STATUSES: readonly (readonly [AdStatus, number])[] = [
  ['active', 45],
  ['inactive', 54],
  ['unknown', 1],
];

const GROUP_SIZES: readonly (readonly [number, number])[] = [
  [2, 35],
  [3, 25],
  [4, 15],
  [5, 10],
  [6, 7],
  [7, 5],
  [8, 3],
];

const COUNTRY_COUNTS: readonly (readonly [number, number])[] = [
  [1, 40],
  [2, 15],
  [3, 12],
  [4, 10],
  [5, 8],
  [6, 6],
  [7, 5],
  [8, 4],
];

type Gender = AdSeed['gender'];
const GENDERS: readonly (readonly [Gender, number])[] = [['all', 80], ['men', 10], ['women', 10]];
const GENDERS_BY_CATEGORY: Partial<Record<Category, readonly (readonly [Gender, number])[]>> = {
  Beauty: [['all', 70], ['men', 3], ['women', 27]],
  Jewelry: [['all', 72], ['men', 4], ['women', 24]],
};

/** Share of creatives that start a duplicate group: tuned so that about a quarter of ads are duplicates. */
const GROUP_START = 0.12;

function groupSizes(rng: Rng, adCount: number): number[] {
  const sizes: number[] = [];
  for (let left = adCount; left > 0; ) {
    const size = left >= 2 && rng.chance(GROUP_START) ? Math.min(left, rng.weighted(GROUP_SIZES)) : 1;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/** When a creative first ran: active ads are mostly recent, stopped ones spread back to 2018 with most in the last year. */
function anchorStart(rng: Rng, status: AdStatus, asOf: number): number {
  if (status === 'active') {
    const days = Math.min(Math.max(rng.logNormal(25, 1.1), 0.75), (asOf - EARLIEST_AD) / DAY);
    return asOf - days * DAY;
  }
  const yearAgo = asOf - 365 * DAY;
  return rng.chance(0.65) ? rng.float(yearAgo, asOf - 2 * DAY) : rng.float(EARLIEST_AD, yearAgo);
}

type Audience = Pick<AdSeed, 'targetedCountries' | 'mainCountry' | 'isEuAd' | 'gender' | 'ageMin' | 'ageMax'>;

function audience(rng: Rng, advertiser: AdvertiserSeed): Audience {
  const count = rng.weighted(COUNTRY_COUNTS);
  const first = rng.chance(0.75) ? advertiser.home : rng.weighted(COUNTRY_WEIGHTS);
  const rest = rng.weightedSample(COUNTRY_WEIGHTS.filter(([code]) => code !== first), count - 1);
  const targetedCountries = [first, ...rest];
  const mainCountry = targetedCountries.find((code) => EU_UK.has(code)) ?? null;
  return {
    targetedCountries,
    mainCountry,
    isEuAd: mainCountry !== null,
    gender: rng.weighted(GENDERS_BY_CATEGORY[advertiser.category] ?? GENDERS),
    ageMin: rng.int(18, 25),
    ageMax: rng.int(45, 65),
  };
}

function mediaUrls(rng: Rng, id: string, mediaType: Creative['mediaType']): { thumbnailUrl: string | null; mediaUrl: string | null } {
  if (mediaType === 'unknown') return { thumbnailUrl: null, mediaUrl: null };
  const base = `/media/ads/${id}`;
  const mediaUrl = rng.chance(0.03) ? null : `${base}${mediaType === 'video' ? '.mp4' : '.jpg'}`;
  return { thumbnailUrl: `${base}-thumb.jpg`, mediaUrl };
}

/**
 * The ads of one page, as duplicate groups (a singleton is a group of one). Pages are drawn one after the other on
 * the same stream; `adIds` and `collationIds` hold the ids already taken in the market.
 */
export function makeAdsOf(rng: Rng, advertiser: AdvertiserSeed, asOf: number, adIds: Set<string>, collationIds: Set<string>): AdSeed[][] {
  const groups: AdSeed[][] = [];
  for (const size of groupSizes(rng, advertiser.adCount)) {
    let collationId: string;
    do collationId = `col_${rng.hex(16)}`;
    while (collationIds.has(collationId));
    collationIds.add(collationId);
    const creative = makeCreative(rng, advertiser);
    const base = rng.weighted(STATUSES);
    const anchor = anchorStart(rng, base, asOf);
    const group: AdSeed[] = [];
    for (let member = 0; member < size; member++) {
      let id: string;
      do id = `facebook_${rng.digits(rng.weighted([[15, 20], [16, 60], [17, 20]] as const))}`;
      while (adIds.has(id));
      adIds.add(id);
      const status = member === 0 || rng.chance(0.75) ? base : rng.weighted(STATUSES);
      let firstSeenAt = anchor + (member === 0 ? 0 : rng.float(0, 7 * DAY));
      let lastSeenAt = asOf;
      if (status === 'active') {
        firstSeenAt = Math.min(firstSeenAt, asOf - 12 * HOUR);
      } else {
        firstSeenAt = Math.min(firstSeenAt, asOf - 2 * DAY);
        const runDays = Math.max(1, rng.logNormal(18, 1));
        lastSeenAt = Math.min(firstSeenAt + runDays * DAY, asOf - rng.float(HOUR, 23 * HOUR));
      }
      firstSeenAt = Math.round(firstSeenAt);
      group.push({
        id,
        advertiser,
        collationId,
        creative,
        status,
        firstSeenAt,
        createdAt: firstSeenAt + Math.round(rng.float(20 * 60_000, 8 * HOUR)),
        lastSeenAt: Math.round(lastSeenAt),
        ...mediaUrls(rng, id, creative.mediaType),
        ...audience(rng, advertiser),
        isMediaChanged: rng.chance(0.05),
        hasPartnerBadge: rng.chance(0.04),
        videoDurationSec: null,
        partner: null,
        landingPage: null,
        reach: 0,
        series: null,
        reachDelta1d: 0,
        reachDelta7d: 0,
        reachDelta30d: 0,
        duplicates: size,
        aggregatedReach: 0,
        isGroupLead: false,
        positionInPage: 0,
        currentRank: null,
        rankDelta: null,
        improvementPct: null,
        rankDelta7d: null,
        rankDelta14d: null,
        rankDelta30d: null,
        bestRank: null,
        demography: [],
      });
    }
    groups.push(group);
  }
  return groups;
}

/** The pages partnership ads name as their partner: mostly creators, sometimes any other page. */
export type PartnerPool = { influencers: AdvertiserSeed[]; all: AdvertiserSeed[] };

export function partnerPool(advertisers: AdvertiserSeed[]): PartnerPool {
  return { influencers: advertisers.filter((a) => a.pageType === 'influencer'), all: advertisers };
}

function pickPartner(rng: Rng, advertiser: AdvertiserSeed, pool: PartnerPool): AdvertiserSeed | null {
  const from = pool.influencers.length > 1 && rng.chance(0.85) ? pool.influencers : pool.all;
  if (from.length < 2) return null;
  for (;;) {
    const partner = rng.pick(from);
    if (partner !== advertiser) return partner;
  }
}

/** Seconds of video: mostly 15–60 s, from 5 s to 3 min, never shorter than the transcript. */
function videoDuration(rng: Rng, creative: Creative): number {
  const spoken = creative.transcript?.segments.at(-1)?.end ?? 0;
  const drawn = Math.min(180, Math.max(5, rng.logNormal(30, 0.55)));
  return Math.round(Math.max(drawn, Math.min(180, spoken + rng.float(0.5, 6))) * 10) / 10;
}

/**
 * What the ads stream leaves out, drawn from a stream of its own so the rest of the market does not move: the
 * length of each video creative and, per duplicate group, the partner page its partnership ads name.
 */
export function describeAds(rng: Rng, groups: AdSeed[][], partners: PartnerPool): void {
  for (const group of groups) {
    const creative = group[0].creative;
    const duration = creative.mediaType === 'video' ? videoDuration(rng, creative) : null;
    const partner = group.some((ad) => ad.hasPartnerBadge) ? pickPartner(rng, group[0].advertiser, partners) : null;
    for (const ad of group) {
      ad.videoDurationSec = duration;
      ad.partner = ad.hasPartnerBadge ? partner : null;
    }
  }
}
