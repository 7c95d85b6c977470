import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import type { CountryFilter } from '../../shared/countries.js';
import type { SortOrderValue } from '../../shared/enums.js';
import { findIdPage, orderBySql } from '../../shared/id-page.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Range } from '../../shared/ranges.js';
import type { TextSearch } from '../../shared/text-search.js';
import type { AdMediaTypeFilter, AdQuerySearchType, AdQuerySort, AdStatusFilter, AudienceGender, ReachPeriod } from '../enums.js';
import type { AdRankBasis, AdRankMode, RankDirection } from '../inputs.js';
import { conditions } from './conditions.js';
import type { AdGrowthFilter } from './growth.js';
import type { PrimaryShopFilter } from './shop-filter.js';
import { orderBy, textRank } from './order.js';

// The ads list engine: SQL finds the page of group-lead ids and the total of matches (shared/id-page.ts);
// Prisma then loads exactly the fields the request selected for those ids. The conditions are in
// conditions.ts (the ad) and page-conditions.ts (its page, shop and rank), the order in order.ts.

export type ReachPeriodValue = typeof ReachPeriod.$inferType;
export type AdSortValue = typeof AdQuerySort.$inferType;

export type AdFilter = {
  /** `websearch` is a user query string (GET); `terms` are keywords combined by `keywordMode` (POST). */
  search?: TextSearch & { type: typeof AdQuerySearchType.$inferType };
  status?: typeof AdStatusFilter.$inferType | null;
  mediaType?: typeof AdMediaTypeFilter.$inferType | null;
  firstSeen?: Range<Date>;
  lastSeen?: Range<Date>;
  daysRunning?: Range<number>;
  duplicates?: Range<number>;
  reach?: Range<number> & { period: ReachPeriodValue };
  spend?: Range<number> & { period: ReachPeriodValue; cpm: number };
  age?: Range<number>;
  facebookLikes?: Range<number>;
  instagramFollowers?: Range<number>;
  pageCreated?: Range<Date>;
  maxAdOrder?: number | null;
  hideLowReach?: boolean | null;
  euOnly?: boolean | null;
  partnership?: boolean | null;
  /** Partnership ads whose creator page (`partnerPageId`) is one of these. */
  partnerIds?: string[] | null;
  /** Video length in seconds. */
  videoDuration?: Range<number>;
  /** A domain or URL: ads whose landing page is on its host or a subdomain of it. */
  linkedDomain?: string | null;
  sex?: typeof AudienceGender.$inferType | null;
  adCountries?: CountryFilter | null;
  mainCountries?: string[] | null;
  callToActions?: string[] | null;
  landingPages?: string[] | null;
  advertiserIds?: string[] | null;
  languages?: string[] | null;
  descriptionLength?: Range<number>;
  adCopyHashes?: string[] | null;
  market?: { main?: string[] | null; among?: string[] | null; exclude?: string[] | null } | null;
  /** The advertiser's page: reach and spend over a period, and how many ads it runs. */
  page?: { reach?: Range<number> & { period: ReachPeriodValue }; spend?: Range<number> & { period: ReachPeriodValue; cpm: number }; ads?: Range<number> & { since: Date | null } };
  /** The advertiser's primary shop. */
  shop?: PrimaryShopFilter;
  /** Growth of the ad's reach, and of its page's ads and reach (sql/growth.ts). */
  growth?: AdGrowthFilter;
  rank?: RankFilter;
  /** The advertiser's spender segment (`spenderSegment`), or `brandtracker`: a page some brandtracker tracks. */
  spender?: 'big-spender' | 'rising-star' | 'brandtracker' | null;
  /**
   * Leave out the ads the caller saved (board items of type ad: the workspace's, and the delegated user's personal
   * ones), with their duplicate groups.
   */
  hideSavedBy?: { workspaceId: string; userId: string | null } | null;
  /** At most this many rows per advertiser (its best ones by the requested sort). */
  maxAdsPerBrand?: number | null;
  /** Conditions on `a` a caller composes itself (a brandtracker's ads, the status at a snapshot day). */
  where?: readonly Prisma.Sql[];
};

export type RankFilter = {
  window: 7 | 14 | 30;
  minDelta?: number | null;
  directions?: (typeof RankDirection.$inferType)[] | null;
  hideDeclining?: boolean | null;
  max?: { value: number; mode: typeof AdRankMode.$inferType; basis: typeof AdRankBasis.$inferType } | null;
};

export type AdSort = { sortBy: AdSortValue; order?: SortOrderValue | null; reachPeriod?: ReachPeriodValue | null };

// Every ad has its advertiser (a non-null foreign key), so this LEFT JOIN keeps the rows an inner join would; the
// planner drops it when no condition or order reads the page (v), and turns it inner when one filters on it.
export const AD_FROM = Prisma.sql`FROM "ads" a LEFT JOIN "advertisers" v ON v."id" = a."advertiserId"`;

/**
 * `withinBrand`: a brandtracker's lists (one page's ads, a few thousand at most) count exactly and rank every match of
 * a text search, as their count routes do; the market-wide list bounds both (shared/search-page.ts).
 */
export async function searchAdIds(prisma: PrismaClient, filter: AdFilter, sort: AdSort, page: PageRequest, withinBrand = false) {
  let where = Prisma.join(conditions(filter), ' AND ');
  const rank = textRank(filter, sort);
  if (filter.maxAdsPerBrand != null) {
    // Keep each advertiser's best rows by the requested order, then page over what is left.
    const order = [...(rank ? [{ key: rank, direction: 'DESC' } as const] : []), ...orderBy(sort)];
    where = Prisma.sql`a."id" IN (SELECT ranked."id" FROM (
      SELECT a."id", row_number() OVER (PARTITION BY a."advertiserId" ORDER BY ${orderBySql(order)}) AS n
      ${AD_FROM} WHERE ${where}) ranked WHERE ranked.n <= ${filter.maxAdsPerBrand})`;
  }
  return findIdPage(prisma, {
    id: Prisma.sql`a."id"`,
    from: Prisma.sql`${AD_FROM} WHERE ${where}`,
    order: orderBy(sort),
    limit: page.limit,
    offset: offsetOf(page),
    // A text search's page and total cost a bounded amount (shared/search-page.ts); per-brand limits rank every row.
    search: filter.search ? { rank } : undefined,
    scansAllMatches: filter.maxAdsPerBrand != null || (withinBrand && filter.search != null),
    boundedTotal: !withinBrand, // the market-wide list reports meta.totalRelation
  });
}

/** How many ads (group leads) match, in one statement: the count of a list without its page. */
export async function countAds(prisma: PrismaClient, filter: AdFilter): Promise<number> {
  const [{ total }] = await prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total ${AD_FROM} WHERE ${Prisma.join(conditions(filter), ' AND ')}`;
  return total;
}
