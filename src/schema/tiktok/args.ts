import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { bigCount, count, percent } from '../shared/ranges.js';
import { countryCode, languageCode } from '../shared/codes.js';
import { pageArgs } from '../shared/list.js';
import { TikTokItemTypeFilter, TikTokLibrarySort, TikTokMediaTypeFilter, TikTokSearchArea, TikTokStatusFilter, YesNo } from './enums.js';

// Arguments of the TikTok library lists and their validation; filter.ts turns them into the list's filter.
// Array filters take at most 20 values (the specification's limit).

const MAX_VALUES = 20;
const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_VALUES);
const text = (max: number) => z.string().max(max);
const hashtag = z.string().trim().min(1).max(100).transform((tag) => tag.replace(/^#+/, '').toLowerCase());

/** The filters GET /v1/tiktok/library and POST /v1/tiktok/library/query share. */
export const filterArgs = () =>
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

export type FilterArgs = InputShapeFromFields<ReturnType<typeof filterArgs>>;
export type LibraryArgs = InputShapeFromFields<ReturnType<typeof libraryArgs>>;
export type LibraryQueryArgs = InputShapeFromFields<ReturnType<typeof libraryQueryArgs>>;
