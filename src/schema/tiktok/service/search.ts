import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { onDomain } from '../../shared/domains.js';
import type { SortOrderValue } from '../../shared/enums.js';
import { findPage, tsQuery, type OrderKey, type PageRequest, type TextSearch } from '../../shared/list.js';
import { range, type Range } from '../../shared/ranges.js';
import { EXPORTED_TIKTOK_ITEMS } from './export.js';
import type { TikTokItemTypeFilter, TikTokLibrarySort, TikTokMediaTypeFilter, TikTokSearchArea, TikTokStatusFilter, YesNo } from '../enums.js';

// The TikTok library engine: SQL finds the page of item ids and the total of matches (findPage, shared/list.ts);
// Prisma then loads exactly the fields the request selected for those ids.

export type SearchArea = typeof TikTokSearchArea.$inferType;
export type TikTokSortValue = typeof TikTokLibrarySort.$inferType;

export type TikTokFilter = {
  /** `websearch` is a user query string (GET); `terms` are keywords combined by `keywordMode` (POST). */
  search?: TextSearch & { area: SearchArea };
  type?: typeof TikTokItemTypeFilter.$inferType | null;
  status?: typeof TikTokStatusFilter.$inferType | null;
  mediaTypes?: (typeof TikTokMediaTypeFilter.$inferType)[] | null;
  languages?: string[] | null;
  countries?: string[] | null;
  categories?: string[] | null;
  hashtags?: string[] | null;
  profileId?: string;
  profileIds?: string[] | null;
  shopId?: string;
  domain?: string;
  handle?: string;
  hasShopLinked?: typeof YesNo.$inferType | null;
  published?: Range<Date>;
  updated?: Range<Date>;
  daysRunning?: Range<number>;
  views?: Range<number>;
  likes?: Range<number>;
  shares?: Range<number>;
  engagementRate?: Range<number>;
  followers?: Range<number>;
  profileViews?: Range<number>;
  isPinned?: boolean | null;
};

export type TikTokSort = { sortBy: TikTokSortValue; order: SortOrderValue };

const sql = Prisma.sql;
const DAYS_RUNNING = daysRunningSql({ alias: 'i', start: 'publishedAt', since2018: false });
const VECTORS: Record<Exclude<SearchArea, 'all'>, Prisma.Sql> = {
  caption: Prisma.raw('i."searchCaption"'),
  hashtag: Prisma.raw('i."searchHashtags"'),
  profile: Prisma.raw('p."searchProfile"'),
  music: Prisma.raw('m."searchMusic"'),
};
const AREAS = Object.keys(VECTORS) as Exclude<SearchArea, 'all'>[];

const areasOf = (search: NonNullable<TikTokFilter['search']>) => (search.area === 'all' ? AREAS : [search.area]);

/**
 * The items whose area matches, each area a condition on the items themselves: the profiles and sounds that match
 * are read first (few), so that the areas are one BitmapOr of the items' indexes (text, profile, sound), which a
 * capped count stops early on, instead of a join of every item with its profile and sound tested row by row.
 */
const MATCHES: Record<Exclude<SearchArea, 'all'>, (query: Prisma.Sql) => Prisma.Sql> = {
  caption: (query) => sql`i."searchCaption" @@ ${query}`,
  hashtag: (query) => sql`i."searchHashtags" @@ ${query}`,
  profile: (query) => sql`i."profileId" = ANY(ARRAY(SELECT x."id" FROM "tiktok_profiles" x WHERE x."searchProfile" @@ ${query}))`,
  music: (query) => sql`i."musicId" = ANY(ARRAY(SELECT x."id" FROM "tiktok_music" x WHERE x."searchMusic" @@ ${query}))`,
};

function searchCondition(search: NonNullable<TikTokFilter['search']>): Prisma.Sql {
  const query = tsQuery(search);
  // A NULL text (no caption, no sound) is no match: in a WHERE clause, NULL OR false keeps no row.
  return sql`(${Prisma.join(areasOf(search).map((area) => MATCHES[area](query)), ' OR ')})`;
}

function relevance(search: NonNullable<TikTokFilter['search']>): Prisma.Sql {
  const query = tsQuery(search);
  return Prisma.join(areasOf(search).map((area) => sql`coalesce(ts_rank(${VECTORS[area]}, ${query}), 0)`), ' + ');
}

function conditions(filter: TikTokFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (filter.search) out.push(searchCondition(filter.search));
  if (filter.type && filter.type !== 'all') out.push(sql`i."type" = ${filter.type}::"TikTokItemType"`);
  if (filter.status && filter.status !== 'all') out.push(sql`i."status" = ${filter.status}::"TikTokItemStatus"`);
  if (filter.mediaTypes?.length) out.push(sql`i."mediaType"::text = ANY(${filter.mediaTypes}::text[])`);
  if (filter.languages?.length) out.push(sql`i."language" = ANY(${filter.languages}::text[])`);
  if (filter.countries?.length) out.push(sql`i."countries" && ${filter.countries}::text[]`);
  if (filter.categories?.length) out.push(sql`lower(i."category") = ANY(${filter.categories}::text[])`);
  if (filter.hashtags?.length) out.push(sql`i."hashtags" && ${filter.hashtags}::text[]`);
  if (filter.profileId) out.push(sql`i."profileId" = ${filter.profileId}`);
  if (filter.profileIds?.length) out.push(sql`i."profileId" = ANY(${filter.profileIds}::text[])`);
  if (filter.shopId) out.push(sql`i."shopId"::text = ${filter.shopId.toLowerCase()}`);
  if (filter.domain) out.push(onDomain(sql`s."domain"`, filter.domain));
  if (filter.handle) out.push(sql`lower(p."handle") = ${filter.handle}`);
  if (filter.hasShopLinked) out.push(filter.hasShopLinked === 'yes' ? sql`i."shopId" IS NOT NULL` : sql`i."shopId" IS NULL`);
  range(sql`i."publishedAt"`, filter.published, out);
  range(sql`i."updatedAt"`, filter.updated, out);
  range(DAYS_RUNNING, filter.daysRunning, out);
  range(sql`i."views"`, filter.views, out);
  range(sql`i."likes"`, filter.likes, out);
  range(sql`i."shares"`, filter.shares, out);
  range(sql`i."engagementRate"`, filter.engagementRate, out);
  range(sql`p."followers"`, filter.followers, out);
  range(sql`p."views"`, filter.profileViews, out);
  if (filter.isPinned != null) out.push(sql`i."isPinned" = ${filter.isPinned}`);
  return out.length ? out : [sql`TRUE`];
}

const SORT_KEYS: Record<Exclude<TikTokSortValue, 'relevance' | 'daysRunning'>, string> = {
  newest: 'i."publishedAt"',
  updatedAt: 'i."updatedAt"',
  views: 'i."views"',
  likes: 'i."likes"',
  comments: 'i."comments"',
  shares: 'i."shares"',
  saves: 'i."saves"',
  engagementRate: 'i."engagementRate"',
  followers: 'p."followers"',
};

/** The order after the text rank (relevance sorts rank the search's matches by `relevance` first). */
function orderBy(sort: TikTokSort): OrderKey[] {
  const byId: OrderKey = { key: sql`i."id"`, direction: 'ASC' };
  // Relevance is always descending: the text rank of a search, then the stored relevance score.
  if (sort.sortBy === 'relevance') return [{ key: sql`i."relevanceScore"`, direction: 'DESC' }, byId];
  const key = sort.sortBy === 'daysRunning' ? DAYS_RUNNING : Prisma.raw(SORT_KEYS[sort.sortBy]);
  return [{ key, direction: sort.order === 'asc' ? 'ASC' : 'DESC' }, byId];
}

/** A page of the TikTok library: finds the page of ids, then loads the selected fields for them in the same order. */
export async function searchTikTokItems(context: Pick<Context, 'prisma'>, select: object, filter: TikTokFilter, sort: TikTokSort, page: PageRequest) {
  const { prisma } = context;
  const where = Prisma.join(conditions(filter), ' AND ');
  // Every item has its profile (a required key): a LEFT JOIN gives the same rows, and lets the planner drop the join
  // where nothing reads the profile (a search's capped count).
  const from = sql`FROM "tiktok_items" i
    LEFT JOIN "tiktok_profiles" p ON p."id" = i."profileId"
    LEFT JOIN "tiktok_music" m ON m."id" = i."musicId"
    LEFT JOIN "shops" s ON s."id" = i."shopId"
    WHERE ${where}`;
  const search = filter.search;
  return findPage(prisma, {
    id: sql`i."id"`,
    from,
    order: orderBy(sort),
    // A text search's page and total cost a bounded amount (shared/list.ts).
    search: search ? { rank: sort.sortBy === 'relevance' ? relevance(search) : null } : undefined,
    scansAllMatches: false,
    boundedTotal: true, // the list reports meta.totalRelation
    page,
    rows: { load: (ids) => prisma.tikTokItem.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }), exported: EXPORTED_TIKTOK_ITEMS },
  });
}
