import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { CountryFilter } from '../../shared/countries.js';
import { daysRunningSql } from '../../shared/days-running.js';
import type { SortOrderValue } from '../../shared/enums.js';
import { findPage, tsQuery, type PageRequest } from '../../shared/list.js';
import { EXPORTED_GOOGLE_ADS } from './export.js';
import { range, type Range } from '../../shared/ranges.js';
import type { GoogleAdsSort as GoogleAdsSortEnum, GoogleAdStatusFilter, GoogleNetwork } from '../enums.js';

// The Google Ads engine: SQL finds the page of ad ids and the total of matches, Prisma loads the selected fields for
// them (findPage, shared/list.ts).

export type GoogleAdsFilter = {
  search?: string[];
  status?: typeof GoogleAdStatusFilter.$inferType | null;
  networks?: GoogleNetwork[] | null;
  categoryIds?: number[] | null;
  audienceCountries?: CountryFilter | null;
  firstSeen?: Range<Date>;
  daysRunning?: Range<number>;
  reach?: Range<number>;
};
export type GoogleAdsSortValue = typeof GoogleAdsSortEnum.$inferType;
export type GoogleAdsSort = { sortBy: GoogleAdsSortValue; order: SortOrderValue };

const sql = Prisma.sql;
const DAYS_RUNNING = daysRunningSql({ alias: 'g', start: 'firstSeenAt', since2018: true });
const SORT_KEYS: Record<GoogleAdsSortValue, Prisma.Sql> = {
  newest: sql`g."firstSeenAt"`,
  reach: sql`g."reach"`,
  longestRunning: DAYS_RUNNING,
};

function conditions(filter: GoogleAdsFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (filter.search?.length) {
    // Any of the terms, against the advertiser name, shop name and domain.
    out.push(sql`v."searchName" @@ ${tsQuery({ terms: filter.search, keywordMode: 'any' })}`);
  }
  if (filter.status && filter.status !== 'all') out.push(sql`g."status" = ${filter.status}::"GoogleAdStatus"`);
  if (filter.networks?.length) out.push(sql`g."network"::text = ANY(${filter.networks}::text[])`);
  if (filter.categoryIds?.length) out.push(sql`v."categoryIds" && ${filter.categoryIds}::int[]`);
  if (filter.audienceCountries?.include?.length) out.push(sql`g."mainCountry" = ANY(${filter.audienceCountries.include}::text[])`);
  if (filter.audienceCountries?.exclude?.length) out.push(sql`(g."mainCountry" IS NULL OR NOT (g."mainCountry" = ANY(${filter.audienceCountries.exclude}::text[])))`);
  range(sql`g."firstSeenAt"`, filter.firstSeen, out);
  range(DAYS_RUNNING, filter.daysRunning, out);
  range(sql`g."reach"`, filter.reach, out);
  return out.length ? out : [sql`TRUE`];
}

/** A page of the Google Ads library: finds the page of ids, then loads the selected fields for them in the same order. */
export async function searchGoogleAds(context: Pick<Context, 'prisma'>, select: object, filter: GoogleAdsFilter, sort: GoogleAdsSort, page: PageRequest) {
  const { prisma } = context;
  const where = Prisma.join(conditions(filter), ' AND ');
  const from = sql`FROM "google_ads" g JOIN "google_advertisers" v ON v."id" = g."advertiserId" WHERE ${where}`;
  return findPage(prisma, {
    id: sql`g."id"`,
    from,
    order: [{ key: SORT_KEYS[sort.sortBy], direction: sort.order === 'asc' ? 'ASC' : 'DESC' }, { key: sql`g."id"`, direction: 'ASC' }],
    // A search on the advertiser's name: its page and total cost a bounded amount (shared/list.ts).
    search: filter.search?.length ? { rank: null } : undefined,
    scansAllMatches: false,
    boundedTotal: true, // the list reports meta.totalRelation
    page,
    rows: { load: (ids) => prisma.googleAd.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }), exported: EXPORTED_GOOGLE_ADS },
  });
}
