import { pageRequest, termsOf } from '../shared/list.js';
import { endOfDay } from '../shared/time.js';
import type { GoogleAdsArgs } from './args.js';
import type { GoogleAdsFilter, GoogleAdsSort as Sort } from './service.js';

// The arguments of POST /v1/google-ads/query as the list's filter, sort and page (service.ts runs them).

/** Turns the POST /v1/google-ads/query body into the engine's filter, sort and page. */
export function filterFromGoogleArgs(args: GoogleAdsArgs) {
  const terms = termsOf(args.search);
  const filter: GoogleAdsFilter = {
    search: terms.length ? terms : undefined,
    status: args.status,
    networks: args.networks,
    categoryIds: args.categoryIds,
    audienceCountries: args.audienceCountries,
    firstSeen: { min: args.publishedAfter, max: endOfDay(args.publishedBefore) },
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    reach: { min: args.minReach, max: args.maxReach },
  };
  const sort: Sort = { sortBy: args.sortBy ?? 'newest', order: args.order ?? 'desc' };
  return { filter, sort, page: pageRequest(args, 25) };
}
