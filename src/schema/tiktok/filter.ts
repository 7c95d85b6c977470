import { hostOf } from '../shared/codes.js';
import { pageRequest, termsOf } from '../shared/list.js';
import type { FilterArgs, LibraryArgs, LibraryQueryArgs } from './args.js';
import type { TikTokFilter, TikTokSort } from './service.js';

// The arguments of the TikTok lists as the list's filter, sort and page (service.ts runs them).

const blank = (value: string | null | undefined) => (value?.trim() ? value.trim() : undefined);

function common(args: FilterArgs): TikTokFilter {
  return {
    type: args.type,
    status: args.status,
    mediaTypes: args.mediaTypes,
    languages: args.languages,
    countries: args.countries,
    hashtags: args.hashtags,
    profileId: blank(args.tiktokPageId),
    domain: blank(args.domain) && hostOf(args.domain!),
    handle: blank(args.handle)?.replace(/^@/, '').toLowerCase(),
    published: { min: args.publishedAfter, max: args.publishedBefore },
    views: { min: args.minViews, max: args.maxViews },
    engagementRate: { min: args.minEngagementRate, max: args.maxEngagementRate },
  };
}

const pageOf = (args: FilterArgs) => pageRequest(args, 25);
const sortOf = (args: FilterArgs): TikTokSort => ({ sortBy: args.sortBy ?? 'newest', order: args.order ?? 'desc' });

/** GET /v1/tiktok/library (and the shop-scoped list): one search string. */
export function filterFromLibraryArgs(args: LibraryArgs) {
  const search = blank(args.search);
  const filter: TikTokFilter = { ...common(args), search: search ? { websearch: search, area: args.searchArea ?? 'all' } : undefined };
  return { filter, sort: sortOf(args), page: pageOf(args) };
}

/** POST /v1/tiktok/library/query: search terms and the whole body. */
export function filterFromQueryArgs(args: LibraryQueryArgs) {
  const terms = termsOf(args.search);
  const filter: TikTokFilter = {
    ...common(args),
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', area: args.searchArea ?? 'all' } : undefined,
    categories: args.categories?.map((category) => category.trim().toLowerCase()),
    profileIds: args.tiktokPageIds,
    shopId: blank(args.websiteId),
    hasShopLinked: args.hasShopLinked,
    updated: { min: args.updatedAfter, max: args.updatedBefore },
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    likes: { min: args.minLikes },
    shares: { min: args.minShares },
    followers: { min: args.minFollowers },
    profileViews: { min: args.minProfileViews },
    isPinned: args.isPinned,
  };
  return { filter, sort: sortOf(args), page: pageOf(args) };
}
