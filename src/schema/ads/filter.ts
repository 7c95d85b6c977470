import { pageRequest } from '../shared/pagination.js';
import { termsOf } from '../shared/text-search.js';
import { daysAgo, endOfDay } from '../shared/time.js';
import type { AdsArgs, AdsQueryArgs } from './args.js';
import { DEFAULT_CPM } from './figures.js';
import type { AdFilter, AdSort, RankFilter } from './sql/search.js';

// The arguments of the ads lists as the list's filter, sort and page (sql/search.ts runs them).

const PERIOD_DAYS = { last24h: 1, last7d: 7, last30d: 30 } as const;
const startOfPeriod = (period: keyof typeof PERIOD_DAYS) => daysAgo(PERIOD_DAYS[period]);

const WINDOWS = { '7d': 7, '14d': 14, '30d': 30 } as const;

/** GET /v1/ads: one search string (or its deprecated alias `query`), a few filters. */
export function filterFromListArgs(args: AdsArgs) {
  const filter: AdFilter = { search: { websearch: (args.search ?? args.query)!, type: args.searchType ?? 'adCopy' }, status: args.status, mediaType: args.mediaType };
  const sort: AdSort = { sortBy: args.sortBy ?? 'relevance' };
  return { filter, sort, page: pageRequest(args, 25), cpm: DEFAULT_CPM };
}

function rankFilter(args: AdsQueryArgs): RankFilter {
  const rules = (args.growthRank?.anyOf ?? []).flatMap((group) => group.all);
  const periods = new Set(rules.map((rule) => rule.period));
  const rulePeriod = periods.size === 1 ? [...periods][0] : undefined;
  const requested = args.rankDeltaWindow ?? rulePeriod;
  const window = requested && requested in WINDOWS ? (requested as keyof typeof WINDOWS) : '7d';
  return {
    window: WINDOWS[window],
    minDelta: args.minRankDelta,
    directions: rules.length ? [...new Set(rules.map((rule) => rule.direction))] : null,
    hideDeclining: args.hideDecliningRankAds,
    max: args.maxAdRankValue != null ? { value: args.maxAdRankValue, mode: args.adRankMode ?? 'rank', basis: args.adRankBasis ?? 'current' } : null,
  };
}

/** Turns the POST /v1/ads/query body into the list engine's filter, sort and page. */
export function filterFromQueryArgs(args: AdsQueryArgs, caller?: { workspaceId: string; userId: string | null }) {
  const cpm = args.cpm ?? DEFAULT_CPM;
  const terms = termsOf(args.search);
  const filter: AdFilter = {
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', type: args.searchType ?? 'adCopy' } : undefined,
    status: args.status,
    mediaType: args.mediaType,
    firstSeen: {
      min: args.createdAfter ?? (args.adsTimePeriod ? startOfPeriod(args.adsTimePeriod) : null),
      max: endOfDay(args.createdBefore),
    },
    lastSeen: { min: args.minLastSeenDate, max: endOfDay(args.maxLastSeenDate) },
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    duplicates: { min: args.minDuplicates, max: args.maxDuplicates },
    reach: { min: args.minReach, max: args.maxReach, period: args.reachPeriod ?? 'total' },
    spend: { min: args.minSpend, max: args.maxSpend, period: args.spendPeriod ?? 'total', cpm },
    age: { min: args.minAge, max: args.maxAge },
    facebookLikes: { min: args.minFacebookLikes, max: args.maxFacebookLikes },
    instagramFollowers: { min: args.minInstagramFollowers, max: args.maxInstagramFollowers },
    pageCreated: { min: args.minFbPageCreationDate, max: endOfDay(args.maxFbPageCreationDate) },
    maxAdOrder: args.maxAdOrder,
    hideLowReach: args.hideLowReach,
    euOnly: args.hideNonEuUkAds,
    partnership: args.partners,
    partnerIds: args.partnerIds,
    videoDuration: { min: args.minVideoDuration, max: args.maxVideoDuration },
    spender: args.spender as AdFilter['spender'],
    hideSavedBy: args.hideSavedAds ? caller : null,
    sex: args.sex,
    adCountries: args.adCountries,
    mainCountries: args.mainCountries,
    callToActions: args.cta,
    landingPages: args.landingPages,
    advertiserIds: args.trackedPages,
    languages: args.adLanguage,
    descriptionLength: { min: args.minDescriptionLength, max: args.maxDescriptionLength },
    adCopyHashes: args.adCopyHashes,
    market: args.market,
    page: {
      reach: { min: args.minReachPerPage, max: args.maxReachPerPage, period: args.reachPerPagePeriod ?? 'total' },
      spend: { min: args.minSpendPerPage, max: args.maxSpendPerPage, period: args.spendPerPagePeriod ?? 'total', cpm },
      ads: { min: args.minAds, max: args.maxAds, since: args.adsTimePeriod ? startOfPeriod(args.adsTimePeriod) : null },
    },
    shop: {
      traffic: { min: args.minTraffic, max: args.maxTraffic },
      products: { min: args.minProducts, max: args.maxProducts },
      categoryIds: args.categoryIds,
      themes: args.themes,
      pixels: args.pixels,
      excludePixels: args.excludePixels,
      shopifyApps: args.shopifyApps,
      excludeShopifyApps: args.excludeShopifyApps,
      technologies: args.technologies,
      country: args.creationCountry,
      languages: args.languages,
      currencies: args.currencies,
      shopifyPlus: args.shopifyPlus === 'plus' ? true : args.shopifyPlus === 'non-plus' ? false : null,
      trustpilotRating: { min: args.minTrustpilotScore, max: args.maxTrustpilotScore },
      trustpilotReviews: { min: args.minTrustpilotReviews, max: args.maxTrustpilotReviews },
      bestSellerPrice: { min: args.minBestSellerPrice, max: args.maxBestSellerPrice },
      trafficGrowth: args.trafficGrowth,
    },
    growth: {
      ads: args.adsGrowth,
      pageReach: args.pageReachGrowth,
      adReach: args.adReachGrowth,
    },
    rank: rankFilter(args),
    maxAdsPerBrand: args.maxAdsPerBrand,
  };
  const sort: AdSort = { sortBy: args.sortBy ?? (filter.search ? 'relevance' : 'newest'), order: args.order, reachPeriod: args.reachPeriod };
  return { filter, sort, page: pageRequest(args, 25), cpm };
}
