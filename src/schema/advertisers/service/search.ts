import type { Context } from '../../../context.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { hostOf } from '../../shared/codes.js';
import { onDomain } from '../../shared/domains.js';
import { escapeLike } from '../../shared/like.js';
import { findPage, tsQuery, type ListMeta, type OffsetPageOf, type OffsetRequest, type OrderKey } from '../../shared/list.js';
import { range, type Range } from '../../shared/ranges.js';
import type { AdsWindow, LaunchedPeriod, ReachPeriodValue } from '../enums.js';
import { EXPORTED_ADVERTISERS } from './export.js';
import { pageConditions, type PageFilter } from './page-conditions.js';
import { activeAds, adsLaunched, euAdsShare, Figures, reachOver } from './reach.js';

// The advertisers list engine (GET /v1/advertisers, POST /v1/advertisers/query): SQL finds the page of advertiser ids and the total (findPage, shared/list.ts); Prisma
// loads the selected fields for them. A search over ads (their copy or landing pages) first collects the
// advertisers it matches, at most STAGE_CAP of them: past that the list is cut, and `meta.isTruncated` says so.

export const STAGE_CAP = 10_000;

export type AdvertiserSearch = { terms: string[]; keywordMode: 'any' | 'all'; type: 'brand' | 'domain' | 'adCopy' | 'websiteCopy' | 'urlContains' };

export type AdvertiserFilter = PageFilter & {
  search?: AdvertiserSearch;
  pageCreated?: Range<Date>;
  activeAds?: Range<number> & { window: AdsWindow };
  facebookLikes?: Range<number>;
  instagramFollowers?: Range<number>;
  adsLaunched?: Range<number> & { period: LaunchedPeriod };
  reach?: Range<number> & { period: ReachPeriodValue };
  pageTypes?: string[] | null;
  gender?: 'male' | 'female' | 'all' | null;
};

export type AdvertiserSortValue = 'relevance' | 'newest' | 'activeAds' | 'newAds' | 'euAdsShare' | 'reach' | 'reach14d' | 'followers';
export type AdvertiserSort = { sortBy: AdvertiserSortValue; order?: 'asc' | 'desc' | null; reachWindow: ReachPeriodValue; launchedPeriod: LaunchedPeriod };

const sql = Prisma.sql;
const anyOrAll = (conditions: Prisma.Sql[], mode: 'any' | 'all') => sql`(${Prisma.join(conditions, mode === 'all' ? ' AND ' : ' OR ')})`;

/** Advertisers whose ads match a search over ads, at most STAGE_CAP + 1 of them (one more tells a cut). */
async function adSearchStage(prisma: PrismaClient, search: AdvertiserSearch): Promise<string[]> {
  const match = search.type === 'adCopy'
    ? sql`a."searchText" @@ ${tsQuery({ terms: search.terms, keywordMode: search.keywordMode })}`
    : anyOrAll(search.terms.map((term) => sql`a."landingPageUrl" ILIKE ${`%${escapeLike(term)}%`}`), search.keywordMode);
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT a."advertiserId" AS id FROM "ads" a WHERE a."isGroupLead" AND ${match} LIMIT ${STAGE_CAP + 1}`;
  return rows.map((row) => row.id);
}

function searchCondition(search: AdvertiserSearch, staged: string[] | null): Prisma.Sql {
  if (staged) return sql`v."id" = ANY(${staged.slice(0, STAGE_CAP)}::text[])`;
  if (search.type === 'brand') return sql`v."searchName" @@ ${tsQuery({ terms: search.terms, keywordMode: search.keywordMode })}`;
  const onShop = (term: string) => sql`EXISTS (SELECT 1 FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId"
    WHERE l."advertiserId" = v."id" AND ${onDomain(sql`s."domain"`, hostOf(term))})`;
  return anyOrAll(search.terms.map(onShop), search.keywordMode);
}

const bounded = (bounds: Range<unknown> | undefined) => bounds !== undefined && (bounds.min != null || bounds.max != null);

function conditions(filter: AdvertiserFilter, staged: string[] | null, figures: Figures): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (filter.search) out.push(searchCondition(filter.search, staged));
  range(sql`v."pageCreatedAt"`, filter.pageCreated, out);
  if (bounded(filter.activeAds)) range(figures.use(activeAds(filter.activeAds!.window)), filter.activeAds, out);
  range(sql`v."facebookLikes"`, filter.facebookLikes, out);
  range(sql`v."instagramFollowers"`, filter.instagramFollowers, out);
  if (bounded(filter.adsLaunched)) range(figures.use(adsLaunched(filter.adsLaunched!.period)), filter.adsLaunched, out);
  if (bounded(filter.reach)) range(figures.use(reachOver(filter.reach!.period)), filter.reach, out);
  if (filter.pageTypes?.length) out.push(sql`v."pageType" = ANY(${filter.pageTypes}::text[])`);
  if (filter.gender && filter.gender !== 'all') out.push(sql`v."audienceGender" = ${filter.gender}`);
  out.push(...pageConditions(filter, figures));
  return out.length ? out : [sql`TRUE`];
}

/** The text rank of a brand search sorted by relevance (how often the words occur in the page's name). */
function textRank(filter: AdvertiserFilter, sort: AdvertiserSort): Prisma.Sql | null {
  return sort.sortBy === 'relevance' && filter.search?.type === 'brand' ? sql`ts_rank(v."searchName", ${tsQuery(filter.search)})` : null;
}

/** The order after the text rank (textRank). */
function orderBy(sort: AdvertiserSort, figures: Figures): { keys: OrderKey[]; computed: boolean } {
  const byId: OrderKey = { key: sql`v."id"`, direction: 'ASC' };
  const direction = sort.order === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST';
  const keys = (key: Prisma.Sql, computed: boolean) => ({ keys: [{ key, direction } as OrderKey, byId], computed });
  switch (sort.sortBy) {
    case 'relevance':
      // Always descending: the brand search's text rank (textRank), then the most active pages.
      return { keys: [{ key: sql`v."liveAdsCount"`, direction: 'DESC' }, { key: sql`v."totalReach"`, direction: 'DESC' }, byId], computed: false };
    case 'newest': return keys(sql`v."pageCreatedAt"`, false);
    case 'activeAds': return keys(sql`v."liveAdsCount"`, false);
    case 'followers': return keys(sql`v."facebookLikes"`, false);
    case 'reach': return keys(figures.use(reachOver(sort.reachWindow)), sort.reachWindow !== 'total' && sort.reachWindow !== 'last30d');
    case 'reach14d': return keys(figures.use(reachOver('last14d')), true);
    case 'newAds': return keys(figures.use(adsLaunched(sort.launchedPeriod)), true);
    case 'euAdsShare': return keys(figures.use(euAdsShare()), true);
  }
}

export type AdvertiserPage = OffsetPageOf<{ id: string }> & { meta: { isTruncated: boolean } & ListMeta };

/** A page of advertiser summaries, each loaded with `select` (Pothos' selection of a row). */
export async function searchAdvertisers(context: Pick<Context, 'prisma'>, select: object, filter: AdvertiserFilter, sort: AdvertiserSort, page: OffsetRequest): Promise<AdvertiserPage> {
  const { prisma } = context;
  const overAds = filter.search && filter.search.type !== 'brand' && filter.search.type !== 'domain';
  const staged = overAds ? await adSearchStage(prisma, filter.search!) : null;
  const isTruncated = staged !== null && staged.length > STAGE_CAP;
  const figures = new Figures();
  const where = conditions(filter, staged, figures);
  const order = orderBy(sort, figures);
  const found = await findPage(prisma, {
    id: sql`v."id"`,
    from: sql`FROM "advertisers" v ${figures.sql()} WHERE ${Prisma.join(where, ' AND ')}`,
    order: order.keys,
    // A brand search's page and total cost a bounded amount (shared/list.ts), unless the order is computed.
    search: filter.search?.type === 'brand' ? { rank: textRank(filter, sort) } : undefined,
    scansAllMatches: order.computed,
    boundedTotal: true, // the list reports meta.totalRelation
    page,
    rows: { load: (ids) => prisma.advertiser.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }), exported: EXPORTED_ADVERTISERS },
  });
  // A cut search over ads counts no further than its cap either: the total is a lower bound.
  return { ...found, meta: { isTruncated, totalRelation: isTruncated ? 'gte' : found.meta.totalRelation } };
}
