import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { hostOf } from '../shared/codes.js';
import { findIdPage, orderBySql, type OrderKey } from '../shared/id-page.js';
import { offsetOf, type PageRequest } from '../shared/pagination.js';
import { onDomain } from '../shared/domains.js';
import { escapeLike } from '../shared/like.js';
import { daysRunningSql } from '../shared/days-running.js';
import { range, type Range } from '../shared/ranges.js';
import { tsQuery, type TextSearch } from '../shared/text-search.js';

// The ads list engine: SQL finds the page of group-lead ids and the total of matches (shared/id-page.ts);
// Prisma then loads exactly the fields the request selected for those ids.

export type ReachPeriodValue = 'total' | 'last24h' | 'last7d' | 'last30d';
export type AdSortValue =
  | 'createdAt' | 'longestRunning' | 'relevance' | 'relevanceScore' | 'newest' | 'mostDuplicates' | 'reach'
  | 'reachDelta1d' | 'reachDelta7d' | 'reachDelta30d' | 'rankDelta7d' | 'rankDelta14d' | 'rankDelta30d' | 'adOrder';

export type AdFilter = {
  /** `websearch` is a user query string (GET); `terms` are keywords combined by `keywordMode` (POST). */
  search?: TextSearch & { type: 'adCopy' | 'brand' | 'website' | 'domain' | 'urlContains' };
  status?: 'active' | 'inactive' | 'all' | null;
  mediaType?: 'image' | 'video' | 'carousel' | null;
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
  sex?: 'men' | 'women' | 'all' | null;
  adCountries?: { include?: string[] | null; exclude?: string[] | null } | null;
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
  shop?: { traffic?: Range<number>; products?: Range<number>; categoryIds?: number[] | null };
  rank?: RankFilter;
  /** At most this many rows per advertiser (its best ones by the requested sort). */
  maxAdsPerBrand?: number | null;
};

export type RankFilter = {
  window: 7 | 14 | 30;
  minDelta?: number | null;
  directions?: ('rising' | 'falling' | 'stable')[] | null;
  hideDeclining?: boolean | null;
  max?: { value: number; mode: 'rank' | 'percentile'; basis: 'current' | 'alltime' } | null;
};

export type AdSort = { sortBy: AdSortValue; order?: 'asc' | 'desc' | null; reachPeriod?: ReachPeriodValue | null };

const sql = Prisma.sql;
const DAYS_RUNNING = daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true });
const REACH_COLUMN: Record<ReachPeriodValue, Prisma.Sql> = {
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

function conditions(filter: AdFilter): Prisma.Sql[] {
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
  out.push(...pageConditions(filter));
  return out;
}

const LATEST_PAGE_DAY = sql`(SELECT max("date") FROM "advertiser_metric_days")`;

/** Page impressions over a period: stored totals, or summed daily snapshots for the short windows. */
function pageReach(period: ReachPeriodValue): Prisma.Sql {
  if (period === 'total') return sql`v."totalReach"`;
  if (period === 'last30d') return sql`v."reach30d"`;
  const days = period === 'last24h' ? 1 : 7;
  return sql`(SELECT coalesce(sum(m."totalImpressions"), 0) FROM "advertiser_metric_days" m WHERE m."advertiserId" = a."advertiserId" AND m."date" > ${LATEST_PAGE_DAY} - ${days}::int)`;
}

function rankDeltaFor(window: 7 | 14 | 30): Prisma.Sql {
  return window === 7 ? sql`a."rankDelta"` : rankDeltaOver(window);
}

function pageConditions(filter: AdFilter): Prisma.Sql[] {
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
  const shop = filter.shop;
  if (shop && (shop.traffic?.min != null || shop.traffic?.max != null || shop.products?.min != null || shop.products?.max != null || shop.categoryIds?.length)) {
    const inner: Prisma.Sql[] = [sql`l."advertiserId" = a."advertiserId"`, sql`l."isPrimary"`];
    range(sql`s."monthlyVisits"`, shop.traffic, inner);
    range(sql`s."productsCount"`, shop.products, inner);
    if (shop.categoryIds?.length) inner.push(sql`s."categoryIds" && ${shop.categoryIds}::int[]`);
    out.push(sql`EXISTS (SELECT 1 FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId" WHERE ${Prisma.join(inner, ' AND ')})`);
  }
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
  return sql`((SELECT r."rank" FROM "ad_reach_days" r WHERE r."adId" = a."id" AND r."date" = (SELECT max("date") FROM "ad_reach_days") - ${days}::int) - a."currentRank")`;
}

function orderBy(filter: AdFilter, sort: AdSort): OrderKey[] {
  const direction = (fallback: 'asc' | 'desc') => ((sort.order ?? fallback) === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST');
  const relevance = filter.search && (filter.search.type === 'adCopy' || filter.search.type === 'brand')
    ? sql`ts_rank(${filter.search.type === 'brand' ? sql`v."searchName"` : sql`a."searchText"`}, ${tsQuery(filter.search)})`
    : null;
  const byId: OrderKey = { key: sql`a."id"`, direction: 'ASC' };
  let key: Prisma.Sql;
  let fallback: 'asc' | 'desc' = 'desc';
  switch (sort.sortBy) {
    case 'relevance':
    case 'relevanceScore':
      // Relevance is always ranked descending; without a scored text query it falls back to reach.
      return [...(relevance ? [{ key: relevance, direction: 'DESC' } as const] : []), { key: sql`a."reach"`, direction: 'DESC' }, byId];
    case 'newest': key = sql`a."firstSeenAt"`; break;
    case 'createdAt': key = sql`a."createdAt"`; break;
    case 'longestRunning': key = DAYS_RUNNING; break;
    case 'mostDuplicates': key = sql`a."duplicates"`; break;
    case 'reach': key = REACH_COLUMN[sort.reachPeriod ?? 'total']; break;
    case 'reachDelta1d': key = REACH_COLUMN.last24h; break;
    case 'reachDelta7d': key = REACH_COLUMN.last7d; break;
    case 'reachDelta30d': key = REACH_COLUMN.last30d; break;
    case 'rankDelta7d': key = sql`a."rankDelta"`; break;
    case 'rankDelta14d': key = rankDeltaOver(14); break;
    case 'rankDelta30d': key = rankDeltaOver(30); break;
    case 'adOrder': key = sql`a."positionInPage"`; fallback = 'asc'; break;
  }
  return [{ key, direction: direction(fallback) }, byId];
}

// Every ad has its advertiser (a non-null foreign key), so this LEFT JOIN keeps the rows an inner join would; the
// planner drops it when no condition or order reads the page (v), and turns it inner when one filters on it.
const FROM = sql`FROM "ads" a LEFT JOIN "advertisers" v ON v."id" = a."advertiserId"`;

export async function searchAdIds(prisma: PrismaClient, filter: AdFilter, sort: AdSort, page: PageRequest) {
  let where = Prisma.join(conditions(filter), ' AND ');
  if (filter.maxAdsPerBrand != null) {
    // Keep each advertiser's best rows by the requested order, then page over what is left.
    where = sql`a."id" IN (SELECT ranked."id" FROM (
      SELECT a."id", row_number() OVER (PARTITION BY a."advertiserId" ORDER BY ${orderBySql(orderBy(filter, sort))}) AS n
      ${FROM} WHERE ${where}) ranked WHERE ranked.n <= ${filter.maxAdsPerBrand})`;
  }
  return findIdPage(prisma, {
    id: sql`a."id"`,
    from: sql`${FROM} WHERE ${where}`,
    order: orderBy(filter, sort),
    limit: page.limit,
    offset: offsetOf(page),
    // A text search visits every match (and relevance ranks each); per-brand limits rank every row too.
    scansAllMatches: filter.search !== undefined || filter.maxAdsPerBrand != null,
  });
}
