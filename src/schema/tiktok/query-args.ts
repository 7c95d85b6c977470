import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { bigCount, count, percent } from '../shared/ranges.js';
import { termsOf } from '../shared/text-search.js';
import { countryCode, hostOf, languageCode } from '../shared/codes.js';
import { pageArgs } from '../shared/pagination.js';
import { TikTokItemTypeFilter, TikTokLibrarySort, TikTokMediaTypeFilter, TikTokSearchArea, TikTokStatusFilter, YesNo } from './enums.js';
import type { TikTokFilter, TikTokSort } from './search.js';

// Arguments of the TikTok library lists. Array filters take at most 20 values (the specification's limit).

const MAX_VALUES = 20;
const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_VALUES);
const text = (max: number) => z.string().max(max);
const hashtag = z.string().trim().min(1).max(100).transform((tag) => tag.replace(/^#+/, '').toLowerCase());

/** The filters GET /v1/tiktok/library and POST /v1/tiktok/library/query share. */
const filterArgs = () =>
  builder.args((t) => ({
    searchArea: t.field({ type: TikTokSearchArea, defaultValue: 'all' }),
    type: t.field({ type: TikTokItemTypeFilter, defaultValue: 'all' }),
    status: t.field({ type: TikTokStatusFilter, defaultValue: 'all' }),
    mediaTypes: t.field({ type: [TikTokMediaTypeFilter], validate: list(z.string()) }),
    languages: t.stringList({ description: 'ISO 639-1 codes or English language names.', validate: list(languageCode) }),
    countries: t.stringList({ description: 'ISO 3166-1 alpha-2 codes the item targets (ads) or was posted from (organic).', validate: list(countryCode) }),
    hashtags: t.stringList({ description: 'With or without #; matches any of them.', validate: list(hashtag) }),
    tiktokPageId: t.string({ description: 'The TikTok profile id.', validate: text(255) }),
    domain: t.string({ description: 'Domain (or URL) of the linked shop, subdomains included.', validate: text(253) }),
    handle: t.string({ description: 'Profile handle, with or without @.', validate: text(64) }),
    publishedAfter: t.field({ type: 'DateTime' }),
    publishedBefore: t.field({ type: 'DateTime' }),
    minViews: t.float({ validate: bigCount }),
    maxViews: t.float({ validate: bigCount }),
    minEngagementRate: t.float({ description: 'Percentage, 0..100.', validate: percent }),
    maxEngagementRate: t.float({ description: 'Percentage, 0..100.', validate: percent }),
    sortBy: t.field({ type: TikTokLibrarySort, defaultValue: 'newest' }),
    order: t.field({ type: SortOrder, defaultValue: 'desc', description: 'Ignored for relevance, which is always descending.' }),
    ...pageArgs({ defaultLimit: 25, maxLimit: 50 }),
  }));

export const libraryArgs = () =>
  builder.args((t) => ({
    search: t.string({ description: 'Text query (web-search syntax), at most 500 characters.', validate: text(500) }),
    ...filterArgs(),
  }));

export const libraryQueryArgs = () =>
  builder.args((t) => ({
    search: t.stringList({ description: 'Search terms, combined by keywordMode.', validate: list(text(500)) }),
    keywordMode: t.field({ type: KeywordMode, defaultValue: 'any' }),
    ...filterArgs(),
    categories: t.stringList({ description: 'Content categories, case-insensitive.', validate: list(text(100)) }),
    tiktokPageIds: t.stringList({ validate: list(text(255)) }),
    websiteId: t.string({ description: 'Id of the linked shop.', validate: text(64) }),
    hasShopLinked: t.field({ type: YesNo }),
    updatedAfter: t.field({ type: 'DateTime' }),
    updatedBefore: t.field({ type: 'DateTime' }),
    minDaysRunning: t.int({ validate: count }),
    maxDaysRunning: t.int({ validate: count }),
    minLikes: t.float({ validate: bigCount }),
    minShares: t.float({ validate: count }),
    minFollowers: t.float({ description: 'Profile followers.', validate: bigCount }),
    minProfileViews: t.float({ description: 'Views of all the profile items.', validate: bigCount }),
    isPinned: t.boolean(),
  }));

type FilterArgs = InputShapeFromFields<ReturnType<typeof filterArgs>>;
type LibraryArgs = InputShapeFromFields<ReturnType<typeof libraryArgs>>;
type LibraryQueryArgs = InputShapeFromFields<ReturnType<typeof libraryQueryArgs>>;

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

const pageOf = (args: FilterArgs) => ({ page: args.page ?? 1, limit: args.limit ?? 25 });
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
