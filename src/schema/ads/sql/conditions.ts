import { Prisma } from '../../../generated/prisma/client.js';
import { hostOf } from '../../shared/codes.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { onDomain } from '../../shared/domains.js';
import { escapeLike } from '../../shared/like.js';
import { range } from '../../shared/ranges.js';
import { tsQuery } from '../../shared/text-search.js';
import { inWorkspace } from '../../shared/workspace.js';
import { pageConditions } from './page-conditions.js';
import type { AdFilter, ReachPeriodValue } from './search.js';

// The conditions on the ad itself (a) and its page's own columns (v); page-conditions.ts adds the rest.

const sql = Prisma.sql;
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
