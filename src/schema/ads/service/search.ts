import { latestHistoryDay } from '../../../db/partitions.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { hostOf } from '../../shared/codes.js';
import type { CountryFilter } from '../../shared/countries.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { onDomain } from '../../shared/domains.js';
import type { SortOrderValue } from '../../shared/enums.js';
import { growthMatch, growthPercent, latestPageDay, pagesByAdsGrowth, pagesByReachGrowth, shopTrafficGrowth, type GrowthFilter } from '../../shared/growth-filter.js';
import { columns, coverage, jsonObject, jsonRowSet, reviver } from '../../shared/json-rows.js';
import { escapeLike } from '../../shared/like.js';
import { findPage, inBulkExport, orderBySql, tsQuery, type ExportRows, type ListQuery, type OrderKey, type PageOf, type PageRequest, type TextSearch } from '../../shared/list.js';
import { range, type Range } from '../../shared/ranges.js';
import { shopInCategories, shopUsesApps, shopUsesPixels, shopUsesTechnologies } from '../../shared/shop-facets.js';
import { inWorkspace } from '../../shared/workspace.js';
import type { AdRankBasis, AdRankMode, RankDirection } from '../args.js';
import { adExportRows, carryingFrom } from './export.js';
import {
  AD_SUMMARY_INCLUDE, withCpm, type AdMediaTypeFilter, type AdQuerySearchType, type AdQuerySort, type AdStatusFilter, type AdSummaryRow,
  type AudienceGender, type ReachPeriod,
} from '../types.js';

// The ads lists (GET /v1/ads, POST /v1/ads/query, and the lists of other domains built on them): the filter, its
// conditions on the ad (a), its page (v), the page's primary shop (s) and the growths, the order, then the page of
// group-lead ids and the total of matches (findPage, shared/list.ts), and the ads of those ids loaded with the fields the
// request selected (adsByIds).

const sql = Prisma.sql;

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
  /** Growth of the ad's reach, and of its page's ads and reach (growthConditions). */
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

// Filters on the advertiser's primary shop: its traffic, catalogue size, and the facet values it carries
// (categories, theme, pixels, Shopify apps, technologies; GET /v1/facets/*), where it is based, its storefront
// (language, currency, Shopify Plus), Trustpilot figures, best seller's price and traffic growth. An exclusion keeps
// ads whose advertiser has no primary shop at all.

export type PrimaryShopFilter = {
  traffic?: Range<number>;
  products?: Range<number>;
  categoryIds?: number[] | null;
  themes?: string[] | null;
  pixels?: string[] | null;
  excludePixels?: string[] | null;
  shopifyApps?: number[] | null;
  excludeShopifyApps?: number[] | null;
  /** Technology slugs: the shop uses one of them. */
  technologies?: string[] | null;
  /** The country the shop is based in (`countryCode`). */
  country?: CountryFilter | null;
  languages?: string[] | null;
  currencies?: string[] | null;
  shopifyPlus?: boolean | null;
  trustpilotRating?: Range<number>;
  trustpilotReviews?: Range<number>;
  bestSellerPrice?: Range<number>;
  /** Its monthly visits' growth (`trafficGrowth`). */
  trafficGrowth?: GrowthFilter | null;
};

const primaryShopOf = (conditions: Prisma.Sql[]) => sql`EXISTS (SELECT 1 FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId"
  WHERE l."advertiserId" = a."advertiserId" AND l."isPrimary" AND ${Prisma.join(conditions, ' AND ')})`;

function primaryShopConditions(shop: PrimaryShopFilter | undefined): Prisma.Sql[] {
  if (!shop) return [];
  const required: Prisma.Sql[] = [];
  range(sql`s."monthlyVisits"`, shop.traffic, required);
  range(sql`s."productsCount"`, shop.products, required);
  if (shop.categoryIds?.length) required.push(shopInCategories('s', shop.categoryIds));
  if (shop.themes?.length) required.push(sql`s."themeId" = ANY(${shop.themes}::uuid[])`);
  if (shop.pixels?.length) required.push(shopUsesPixels('s', shop.pixels));
  if (shop.shopifyApps?.length) required.push(shopUsesApps('s', shop.shopifyApps));
  if (shop.technologies?.length) required.push(shopUsesTechnologies('s', shop.technologies));
  if (shop.country?.include?.length) required.push(sql`s."countryCode" = ANY(${shop.country.include}::text[])`);
  if (shop.languages?.length) required.push(sql`s."defaultLanguage" = ANY(${shop.languages}::text[])`);
  if (shop.currencies?.length) required.push(sql`s."currency" = ANY(${shop.currencies}::text[])`);
  if (shop.shopifyPlus != null) required.push(sql`s."isShopifyPlus" = ${shop.shopifyPlus}`);
  range(sql`s."trustpilotRating"`, shop.trustpilotRating, required);
  range(sql`s."trustpilotReviews"`, shop.trustpilotReviews, required);
  range(sql`s."bestSellerPriceUsd"`, shop.bestSellerPrice, required);
  const traffic = growthMatch(shop.trafficGrowth, shopTrafficGrowth, true);
  if (traffic) required.push(traffic);
  const excluded: Prisma.Sql[] = [];
  if (shop.excludePixels?.length) excluded.push(shopUsesPixels('s', shop.excludePixels));
  if (shop.excludeShopifyApps?.length) excluded.push(shopUsesApps('s', shop.excludeShopifyApps));
  if (shop.country?.exclude?.length) excluded.push(sql`s."countryCode" = ANY(${shop.country.exclude}::text[])`);
  const out: Prisma.Sql[] = [];
  if (required.length) out.push(primaryShopOf(required));
  if (excluded.length) out.push(sql`NOT ${primaryShopOf([sql`(${Prisma.join(excluded, ' OR ')})`])}`);
  return out;
}

// The growth filters of POST /v1/ads/query on the ad (a) and its page: the ad's reach, the page's ads and reach.
// The primary shop's traffic growth is a shop condition (primaryShopConditions).

export type AdGrowthFilter = { ads?: GrowthFilter | null; pageReach?: GrowthFilter | null; adReach?: GrowthFilter | null };

/**
 * The ad's reach now against its reach at the period's start, as the stored gains define it (reachDelta7d,
 * reachDelta30d: reach minus the last reach-history row on or before that day; 0 for an ad first seen after it,
 * which then has no growth). Migration 0028 indexes both growths, written exactly as here.
 */
export function adReachGrowth(days: number): Prisma.Sql {
  const gain = days === 7 ? sql`a."reachDelta7d"` : sql`a."reachDelta30d"`;
  return growthPercent(sql`a."reach"`, sql`(a."reach" - ${gain})`);
}

export function growthConditions(growth: AdGrowthFilter | undefined): Prisma.Sql[] {
  if (!growth) return [];
  const out: Prisma.Sql[] = [];
  const adReach = growthMatch(growth.adReach, adReachGrowth);
  if (adReach) out.push(adReach);
  if (growth.ads) out.push(sql`a."advertiserId" IN (${pagesByAdsGrowth(growth.ads)})`);
  if (growth.pageReach) out.push(sql`a."advertiserId" IN (${pagesByReachGrowth(growth.pageReach)})`);
  return out;
}

// Every ad has its advertiser (a non-null foreign key), so this LEFT JOIN keeps the rows an inner join would; the
// planner drops it when no condition or order reads the page (v), and turns it inner when one filters on it.
export const AD_FROM = Prisma.sql`FROM "ads" a LEFT JOIN "advertisers" v ON v."id" = a."advertiserId"`;

// The conditions on the ad itself (a) and its page's own columns (v); pageConditions adds the rest.

export const DAYS_RUNNING = daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true });
export const REACH_COLUMN: Record<ReachPeriodValue, Prisma.Sql> = {
  total: Prisma.raw('a."reach"'),
  last24h: Prisma.raw('a."reachDelta1d"'),
  last7d: Prisma.raw('a."reachDelta7d"'),
  last30d: Prisma.raw('a."reachDelta30d"'),
};

function searchCondition(search: NonNullable<AdFilter['search']>): Prisma.Sql {
  const terms = search.terms ?? (search.websearch !== undefined ? [search.websearch] : []);
  const anyOrAll = (conditions: Prisma.Sql[]) => sql`(${Prisma.join(conditions, search.keywordMode === 'all' ? ' AND ' : ' OR ')})`;
  switch (search.type) {
    case 'adCopy':
      return sql`a."searchText" @@ ${tsQuery(search)}`;
    case 'brand':
      return sql`v."searchName" @@ ${tsQuery(search)}`;
    case 'domain':
      return anyOrAll(terms.map((term) => onDomain(sql`a."landingPageDomain"`, hostOf(term))));
    case 'website':
    case 'urlContains':
      return anyOrAll(terms.map((term) => sql`a."landingPageUrl" ILIKE ${'%' + escapeLike(term) + '%'}`));
  }
}

export function conditions(filter: AdFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [sql`a."isGroupLead"`];
  if (filter.search) out.push(searchCondition(filter.search));
  if (filter.status && filter.status !== 'all') out.push(sql`a."status" = ${filter.status}::"AdStatus"`);
  if (filter.mediaType) out.push(sql`a."mediaType" = ${filter.mediaType}::"AdMediaType"`);
  range(sql`a."firstSeenAt"`, filter.firstSeen, out);
  range(sql`a."lastSeenAt"`, filter.lastSeen, out);
  range(DAYS_RUNNING, filter.daysRunning, out);
  range(sql`a."duplicates"`, filter.duplicates, out);
  if (filter.reach) range(REACH_COLUMN[filter.reach.period], filter.reach, out);
  if (filter.spend) range(sql`round(${REACH_COLUMN[filter.spend.period]} * ${filter.spend.cpm}::float8 / 1000)`, filter.spend, out);
  if (filter.age?.min != null) out.push(sql`coalesce(a."ageMax", 65) >= ${filter.age.min}`);
  if (filter.age?.max != null) out.push(sql`coalesce(a."ageMin", 13) <= ${filter.age.max}`);
  range(sql`v."facebookLikes"`, filter.facebookLikes, out);
  range(sql`v."instagramFollowers"`, filter.instagramFollowers, out);
  range(sql`v."pageCreatedAt"`, filter.pageCreated, out);
  if (filter.maxAdOrder != null) out.push(sql`a."positionInPage" <= ${filter.maxAdOrder}`);
  if (filter.hideLowReach) out.push(sql`NOT a."isLowReach"`);
  if (filter.euOnly) out.push(sql`a."isEuAd"`);
  if (filter.partnership != null) out.push(sql`a."hasPartnerBadge" = ${filter.partnership}`);
  if (filter.partnerIds?.length) out.push(sql`a."partnerPageId" = ANY(${filter.partnerIds}::text[])`);
  range(sql`a."videoDurationSec"`, filter.videoDuration, out);
  if (filter.linkedDomain) out.push(onDomain(sql`a."landingPageDomain"`, hostOf(filter.linkedDomain)));
  if (filter.sex && filter.sex !== 'all') out.push(sql`a."gender" IN (${filter.sex}, 'all')`);
  if (filter.adCountries?.include?.length) out.push(sql`a."targetedCountries" && ${filter.adCountries.include}::text[]`);
  if (filter.adCountries?.exclude?.length) out.push(sql`NOT (a."targetedCountries" && ${filter.adCountries.exclude}::text[])`);
  if (filter.mainCountries?.length) out.push(sql`a."mainCountry" = ANY(${filter.mainCountries}::text[])`);
  if (filter.callToActions?.length) out.push(sql`lower(a."callToAction") = ANY(${filter.callToActions.map((c) => c.toLowerCase())}::text[])`);
  if (filter.landingPages?.length) {
    out.push(sql`(${Prisma.join(filter.landingPages.map((page) => sql`a."landingPageUrl" ILIKE ${'%' + escapeLike(hostOf(page)) + '%'}`), ' OR ')})`);
  }
  if (filter.advertiserIds?.length) out.push(sql`a."advertiserId" = ANY(${filter.advertiserIds}::text[])`);
  if (filter.languages?.length) {
    out.push(sql`EXISTS (SELECT 1 FROM "ad_transcripts" t WHERE t."adId" = a."id" AND t."language" = ANY(${filter.languages.map((l) => l.toLowerCase())}::text[]))`);
  }
  if (filter.spender === 'brandtracker') out.push(sql`EXISTS (SELECT 1 FROM "brandtrackers" b WHERE b."facebookPageId" = a."advertiserId")`);
  else if (filter.spender) out.push(sql`v."spenderSegment" = ${filter.spender}`);
  if (filter.hideSavedBy) {
    const { workspaceId, userId } = filter.hideSavedBy;
    const mine = userId ? sql`(bi."scope" = 'workspace' OR bi."ownerUserId" = ${userId}::uuid)` : sql`bi."scope" = 'workspace'`;
    out.push(sql`NOT EXISTS (SELECT 1 FROM "board_items" bi JOIN "ads" sa ON sa."id" = bi."adId"
      WHERE ${inWorkspace('bi', workspaceId)} AND ${mine} AND bi."itemType" = 'ad' AND sa."collationId" = a."collationId")`);
  }
  out.push(...pageConditions(filter));
  if (filter.where) out.push(...filter.where);
  return out;
}

// The conditions on the ad's advertiser page (v): its reach, spend and ads over a period, its primary shop, the
// growth filters, and the ad's rank among the page's ads.

/** Page impressions over a period: stored totals, or summed daily snapshots for the short windows. */
function pageReach(period: ReachPeriodValue): Prisma.Sql {
  if (period === 'total') return sql`v."totalReach"`;
  if (period === 'last30d') return sql`v."reach30d"`;
  const days = period === 'last24h' ? 1 : 7;
  return sql`(SELECT coalesce(sum(m."totalImpressions"), 0) FROM "advertiser_metric_days" m WHERE m."advertiserId" = a."advertiserId" AND m."date" > ${latestPageDay()} - ${days}::int)`;
}

function rankDeltaFor(window: 7 | 14 | 30): Prisma.Sql {
  return window === 7 ? sql`a."rankDelta"` : rankDeltaOver(window);
}

export function pageConditions(filter: AdFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  range(sql`length(coalesce(a."body", ''))`, filter.descriptionLength, out);
  if (filter.adCopyHashes?.length) out.push(sql`left(md5(coalesce(a."body", '')), 12) = ANY(${filter.adCopyHashes.map((h) => h.toLowerCase())}::text[])`);
  if (filter.market?.main?.length) out.push(sql`a."mainCountry" = ANY(${filter.market.main}::text[])`);
  if (filter.market?.among?.length) out.push(sql`a."targetedCountries" && ${filter.market.among}::text[]`);
  if (filter.market?.exclude?.length) out.push(sql`NOT (a."targetedCountries" && ${filter.market.exclude}::text[])`);
  const page = filter.page;
  if (page?.reach) range(pageReach(page.reach.period), page.reach, out);
  if (page?.spend) range(sql`round(${pageReach(page.spend.period)} * ${page.spend.cpm}::float8 / 1000)`, page.spend, out);
  if (page?.ads) {
    const ads = page.ads.since
      ? sql`(SELECT count(*) FROM "ads" o WHERE o."advertiserId" = a."advertiserId" AND o."firstSeenAt" >= ${page.ads.since})`
      : sql`v."liveAdsCount"`;
    range(ads, page.ads, out);
  }
  out.push(...primaryShopConditions(filter.shop));
  out.push(...growthConditions(filter.growth));
  const rank = filter.rank;
  if (rank) {
    const delta = rankDeltaFor(rank.window);
    if (rank.minDelta != null) out.push(sql`${delta} >= ${rank.minDelta}`);
    if (rank.hideDeclining) out.push(sql`coalesce(${delta}, 0) >= 0`);
    if (rank.directions?.length) {
      const byDirection = { rising: sql`${delta} > 0`, falling: sql`${delta} < 0`, stable: sql`${delta} = 0` };
      out.push(sql`(${Prisma.join(rank.directions.map((d) => byDirection[d]), ' OR ')})`);
    }
    if (rank.max) {
      const value = rank.max.basis === 'alltime' ? sql`(SELECT min(r."rank") FROM "ad_reach_days" r WHERE r."adId" = a."id")` : sql`a."currentRank"`;
      out.push(rank.max.mode === 'percentile'
        ? sql`${value} * 100.0 / greatest(v."liveAdsCount", 1) <= ${rank.max.value}::float8`
        : sql`${value} <= ${rank.max.value}::float8`);
    }
  }
  return out;
}

function rankDeltaOver(days: number): Prisma.Sql {
  return sql`((SELECT r."rank" FROM "ad_reach_days" r WHERE r."adId" = a."id" AND r."date" = ${latestHistoryDay('ad_reach_days')} - ${days}::int) - a."currentRank")`;
}

/**
 * The text rank of a relevance sort (ts_rank of the ad copy, or of the page name for a brand search: how often
 * the query's words occur), or null when the list is not sorted by a text rank.
 */
export function textRank(filter: AdFilter, sort: AdSort): Prisma.Sql | null {
  if (sort.sortBy !== 'relevance' && sort.sortBy !== 'relevanceScore') return null;
  if (!filter.search || (filter.search.type !== 'adCopy' && filter.search.type !== 'brand')) return null;
  return sql`ts_rank(${filter.search.type === 'brand' ? sql`v."searchName"` : sql`a."searchText"`}, ${tsQuery(filter.search)})`;
}

/** The list's order after the text rank (textRank); its last key is the id, so pages never overlap. */
export function orderBy(sort: AdSort): OrderKey[] {
  // Nulls last; a NOT NULL column says plain ASC/DESC, which its B-tree index serves in either direction.
  const direction = (fallback: SortOrderValue, nullable: boolean): OrderKey['direction'] =>
    (sort.order ?? fallback) === 'asc' ? (nullable ? 'ASC NULLS LAST' : 'ASC') : nullable ? 'DESC NULLS LAST' : 'DESC';
  const byId: OrderKey = { key: sql`a."id"`, direction: 'ASC' };
  let key: Prisma.Sql;
  let fallback: SortOrderValue = 'desc';
  let nullable = false;
  switch (sort.sortBy) {
    case 'relevance':
    case 'relevanceScore':
      // Relevance is always descending: the text rank, then reach (reach alone without a scored text query).
      return [{ key: sql`a."reach"`, direction: 'DESC' }, byId];
    case 'newest': key = sql`a."firstSeenAt"`; break;
    case 'createdAt': key = sql`a."createdAt"`; break;
    case 'longestRunning': key = DAYS_RUNNING; nullable = true; break;
    case 'mostDuplicates': key = sql`a."duplicates"`; break;
    case 'reach': key = REACH_COLUMN[sort.reachPeriod ?? 'total']; break;
    case 'reachDelta1d': key = REACH_COLUMN.last24h; break;
    case 'reachDelta7d': key = REACH_COLUMN.last7d; break;
    case 'reachDelta30d': key = REACH_COLUMN.last30d; break;
    case 'rankDelta7d': key = sql`a."rankDelta"`; nullable = true; break;
    case 'rankDelta14d': key = rankDeltaOver(14); nullable = true; break;
    case 'rankDelta30d': key = rankDeltaOver(30); nullable = true; break;
    case 'adOrder': key = sql`a."positionInPage"`; fallback = 'asc'; nullable = true; break;
  }
  return [{ key, direction: direction(fallback, nullable) }, byId];
}

/**
 * The list of group leads for `filter` and `sort` (what findPage needs besides the page and how its rows are read).
 * `withinBrand`: a brandtracker's lists (one page's ads, a few thousand at most) count exactly and rank every match of
 * a text search, as their count routes do; the market-wide list bounds both (shared/list.ts). `carrying`: a bulk
 * export's matches, which join what its items carry (export.ts carryingFrom).
 */
export function adsListQuery(filter: AdFilter, sort: AdSort, withinBrand = false, carrying = false): ListQuery {
  let where = Prisma.join(conditions(filter), ' AND ');
  const rank = textRank(filter, sort);
  if (filter.maxAdsPerBrand != null) {
    // Keep each advertiser's best rows by the requested order, then page over what is left.
    const order = [...(rank ? [{ key: rank, direction: 'DESC' } as const] : []), ...orderBy(sort)];
    where = Prisma.sql`a."id" IN (SELECT ranked."id" FROM (
      SELECT a."id", row_number() OVER (PARTITION BY a."advertiserId" ORDER BY ${orderBySql(order)}) AS n
      ${AD_FROM} WHERE ${where}) ranked WHERE ranked.n <= ${filter.maxAdsPerBrand})`;
  }
  return {
    id: Prisma.sql`a."id"`,
    from: Prisma.sql`${carrying ? carryingFrom(AD_FROM) : AD_FROM} WHERE ${where}`,
    order: orderBy(sort),
    // A text search's page and total cost a bounded amount (shared/list.ts); per-brand limits rank every row.
    search: filter.search ? { rank } : undefined,
    scansAllMatches: filter.maxAdsPerBrand != null || (withinBrand && filter.search != null),
    boundedTotal: !withinBrand, // the market-wide list reports meta.totalRelation
  };
}

/** How many ads (group leads) match, in one statement: the count of a list without its page. */
export async function countAds(prisma: PrismaClient, filter: AdFilter): Promise<number> {
  const [{ total }] = await prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total ${AD_FROM} WHERE ${Prisma.join(conditions(filter), ' AND ')}`;
  return total;
}

// Ads by id, for every list that finds a page of ad ids and then loads them (ads, advertiser ads, brandtracker
// analytics, favorites, workspace analytics). Prisma's findMany maps each value of each row in JavaScript, which
// for a page of ads with their advertisers costs more of Node's time than the rest of the request. When the
// request selects no more than an ad summary (the ad's fields, its advertiser, its transcript's text), one statement
// has PostgreSQL write the rows as JSON, which is parsed at once and given Prisma's types back (DateTime as Date,
// BigInt as bigint). Any other selection is Prisma's. The columns come from the Prisma datamodel
// (src/schema/shared/json-rows.ts), so a field added to the schema is loaded without touching this file; a test
// compares both paths row for row.

const SUMMARY = { include: AD_SUMMARY_INCLUDE } as const;
const reviveSummary = reviver('Ad', SUMMARY);

// The advertiser and the transcript's text (AD_SUMMARY_INCLUDE) are LATERAL joins with LIMIT 1, as Prisma writes
// its own: the planner keeps the nested loop and memoizes the advertiser's object, built once per page, not per ad.
const SUMMARY_ROWS = Prisma.raw(`
  SELECT ${columns('Ad', 'a')}, v."json" AS "advertiser", t."json" AS "transcript"
  FROM "ads" a
  LEFT JOIN LATERAL (SELECT ${jsonObject('Advertiser', 'v0')} AS "json" FROM "advertisers" v0 WHERE v0."id" = a."advertiserId" LIMIT 1) v ON TRUE
  LEFT JOIN LATERAL (SELECT ${jsonObject('AdTranscript', 't0', AD_SUMMARY_INCLUDE.transcript)} AS "json" FROM "ad_transcripts" t0 WHERE t0."adId" = a."id" LIMIT 1) t ON TRUE`);

/**
 * How a list of ad summaries (its row `a`) is written in bulk for an export (ExportRows, service/export.ts), at the
 * request's CPM. `carried`: the list's matches are adsListQuery's `carrying` ones (export.ts carryingFrom).
 */
export function exportedAds(cpm: number, carried = false): ExportRows {
  return adExportRows(AD_FROM, cpm, DAYS_RUNNING, carried);
}

/** Whether a Prisma query (Pothos's selection) asks for no more than the summary statement loads. */
export const isSummarySelection = coverage('Ad', SUMMARY);

const summaries = jsonRowSet<AdSummaryRow>(SUMMARY_ROWS, 'a."id"', reviveSummary);

async function summaryRows(prisma: Prisma.TransactionClient, ids: string[]): Promise<AdSummaryRow[]> {
  const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>`SELECT ${summaries.of(Prisma.sql`${ids}::text[]`)} AS "rows"`;
  return summaries.parse(rows);
}

/**
 * The ads of `ids` (in no particular order), loaded with `query`, Pothos's selection for them: it always holds the
 * transcript's text, which the ad object types include (AD_SUMMARY_INCLUDE).
 */
export async function adsByIds(prisma: Prisma.TransactionClient, ids: string[], query: object): Promise<AdSummaryRow[]> {
  if (!ids.length) return [];
  if (isSummarySelection(query)) return summaryRows(prisma, ids);
  return (await prisma.ad.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...query })) as AdSummaryRow[];
}

/**
 * The page of ads of a list: finds the page of ids, then loads the selected fields for them in the same order
 * (the brandtracker ads lists too, `withinBrand`: see adsListQuery).
 */
export async function searchAds(prisma: PrismaClient, select: object, list: { filter: AdFilter; sort: AdSort; page: PageRequest; cpm: number }, withinBrand = false): Promise<PageOf<AdSummaryRow>> {
  // A bulk export's matches carry the addresses of what each item reads besides the ad (export.ts CARRIED).
  const carrying = inBulkExport();
  return findPage(prisma, {
    ...adsListQuery(list.filter, list.sort, withinBrand, carrying),
    page: list.page,
    rows: { load: async (ids) => withCpm(await adsByIds(prisma, ids, select), list.cpm), exported: exportedAds(list.cpm, carrying) },
  });
}
