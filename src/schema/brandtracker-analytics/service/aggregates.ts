import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { findComputedPage, type PagePagination, type PageRequest } from '../../shared/list.js';
import { adsOfScope, scopeSelect, type AnalyticsScope } from './scope.js';

// Hooks, ad copies, headlines (ad titles), transcripts (of video ads) and landing pages of tracked brands: the ads
// of each brand grouped by the text or page they use, with usage figures, one page of groups in one statement (the
// groups, their count, the page, and what the page's rows show: the sample ad, the landing page with its
// technologies). `window` narrows the ads (the per-brandtracker analytics pass their time window; the workspace
// routes read all ads).

const sql = Prisma.sql;

export type GroupKind = 'hook' | 'adCopy' | 'landingPage' | 'headline' | 'transcript' | 'normalizedLandingPage';
export type GroupSort = 'usageCount' | 'activeAdsCount' | 'longestRunning' | 'totalImpressions' | 'firstUsedAt' | 'lastUsedAt';

type Sample = { adId: string; mediaUrl: string | null; thumbnailUrl: string | null; fullText: string | null };
type LandingPage = { url: string; technologies: { id: string; name: string; iconUrl: string | null }[]; screenshots: { desktop: string | null; mobile: string | null; head: string | null } };

export type GroupRow = {
  brandtracker: { id: string; name: string; facebookPageId: string | null };
  key: string;
  usageCount: number;
  /** Of those ads, the ones running (`active`, default status active). */
  activeAdsCount: number;
  longestRunning: number;
  totalImpressions: bigint;
  firstUsedAt: Date;
  lastUsedAt: Date;
  sample: Sample | null;
  landingPage: LandingPage | null;
};

const GROUPS: Record<GroupKind, { key: Prisma.Sql; join: Prisma.Sql; where: Prisma.Sql }> = {
  hook: { key: sql`h."text"`, join: sql`JOIN "ad_hooks" h ON h."adId" = a."id"`, where: sql`btrim(h."text") <> ''` },
  adCopy: { key: sql`a."body"`, join: sql``, where: sql`a."body" IS NOT NULL AND btrim(a."body") <> ''` },
  landingPage: { key: sql`a."landingPageId"::text`, join: sql``, where: sql`a."landingPageId" IS NOT NULL` },
  headline: { key: sql`a."title"`, join: sql``, where: sql`a."title" IS NOT NULL AND btrim(a."title") <> ''` },
  transcript: { key: sql`gt."fullText"`, join: sql`JOIN "ad_transcripts" gt ON gt."adId" = a."id"`, where: sql`a."mediaType" = 'video' AND btrim(gt."fullText") <> ''` },
  // The landing pages by normalized URL (query, fragment, trailing slash and www. ignored; the host lowercased).
  normalizedLandingPage: { key: sql`glp."normalizedUrl"`, join: sql`JOIN "landing_pages" glp ON glp."id" = a."landingPageId"`, where: sql`TRUE` },
};

/** A landing page `lp` as { url, technologies, screenshots }, its url given. */
function landingPageJson(url: Prisma.Sql): Prisma.Sql {
  return sql`CASE WHEN lp."id" IS NULL THEN NULL ELSE json_build_object('url', ${url},
      'technologies', (SELECT coalesce(json_agg(json_build_object('id', tt."id", 'name', tt."name", 'iconUrl', tt."iconUrl") ORDER BY tt."name", tt."id"), '[]')
                       FROM "landing_page_technologies" lt JOIN "technologies" tt ON tt."id" = lt."technologyId" WHERE lt."landingPageId" = lp."id"),
      'screenshots', json_build_object('desktop', lp."screenshotDesktopUrl", 'mobile', lp."screenshotMobileUrl", 'head', lp."screenshotHeadUrl")) END AS "landingPage"`;
}

const EXTRAS: Record<GroupKind, { columns: Prisma.Sql; joins: Prisma.Sql }> = {
  hook: {
    columns: sql`CASE WHEN sa."id" IS NULL THEN NULL ELSE json_build_object('adId', sa."id", 'mediaUrl', sa."mediaUrl", 'thumbnailUrl', sa."thumbnailUrl",
      'fullText', coalesce(tr."fullText", sa."body")) END AS sample, NULL::json AS "landingPage"`,
    joins: sql`LEFT JOIN "ads" sa ON sa."id" = p."sampleAdId" LEFT JOIN "ad_transcripts" tr ON tr."adId" = sa."id"`,
  },
  adCopy: { columns: sql`NULL::json AS sample, NULL::json AS "landingPage"`, joins: sql`` },
  headline: { columns: sql`NULL::json AS sample, NULL::json AS "landingPage"`, joins: sql`` },
  transcript: {
    columns: sql`CASE WHEN sa."id" IS NULL THEN NULL ELSE json_build_object('adId', sa."id", 'mediaUrl', sa."mediaUrl", 'thumbnailUrl', sa."thumbnailUrl",
      'fullText', p."key") END AS sample, NULL::json AS "landingPage"`,
    joins: sql`LEFT JOIN "ads" sa ON sa."id" = p."sampleAdId"`,
  },
  landingPage: {
    columns: sql`NULL::json AS sample, ${landingPageJson(sql`lp."url"`)}`,
    joins: sql`LEFT JOIN "landing_pages" lp ON lp."id" = p."key"::uuid`,
  },
  // The group's representative page: the one of its most-reached ad, its URL without query, fragment or trailing slash.
  normalizedLandingPage: {
    columns: sql`NULL::json AS sample, ${landingPageJson(sql`regexp_replace(split_part(split_part(lp."url", '#', 1), '?', 1), '/+$', '')`)}`,
    joins: sql`LEFT JOIN "ads" sa ON sa."id" = p."sampleAdId" LEFT JOIN "landing_pages" lp ON lp."id" = sa."landingPageId"`,
  },
};

export function orderOf(sort: GroupSort, order: 'asc' | 'desc', prefix: string): Prisma.Sql {
  const direction = order === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST';
  return Prisma.raw(`${prefix}"${sort}" ${direction}, ${prefix}"brandtrackerId" ASC, ${prefix}"key" ASC`);
}

export type GroupQuery = {
  scope: AnalyticsScope; kind: GroupKind; euOnly: boolean; window?: Prisma.Sql; sort: GroupSort; order: 'asc' | 'desc'; page: PageRequest;
  /** Which ads `activeAdsCount` counts (a condition on `a`; default status active). */
  active?: Prisma.Sql;
};

/**
 * One page of groups and their total, in one statement: the groups computed once (`m`), counted and paged, then the
 * page's rows joined to their brand (`s`) and to what they show (the sample ad, the landing page with its
 * technologies), for the page's rows only.
 */
export async function groupPage(prisma: PrismaClient, query: GroupQuery): Promise<GroupPage> {
  const group = GROUPS[query.kind];
  const days = daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true });
  const found = await findComputedPage<GroupStatementRow>(prisma, {
    with: sql`s AS (${scopeSelect(query.scope)})`,
    rows: sql`
      SELECT s."brandtrackerId", ${group.key} AS "key", count(*)::int AS "usageCount",
             count(*) FILTER (WHERE ${query.active ?? sql`a."status" = 'active'`})::int AS "activeAdsCount", max(${days})::int AS "longestRunning",
             coalesce(sum(a."reach"), 0)::bigint AS "totalImpressions", min(a."firstSeenAt") AS "firstUsedAt", max(a."lastSeenAt") AS "lastUsedAt",
             (array_agg(a."id" ORDER BY a."reach" DESC, a."id"))[1] AS "sampleAdId"
      FROM s ${adsOfScope({ euOnly: query.euOnly, window: query.window })} ${group.join}
      WHERE ${group.where}
      GROUP BY 1, 2`,
    order: (prefix) => orderOf(query.sort, query.order, prefix),
    after: groupShows(query.kind),
    page: query.page,
  });
  return { data: found.data.map(groupRow), pagination: found.pagination };
}

/** What a page of groups shows, joined to its rows `p`: their brand (`s`, the scope) and the extras of their kind. */
export function groupShows(kind: GroupKind): { columns: Prisma.Sql; joins: Prisma.Sql } {
  const extras = EXTRAS[kind];
  return { columns: sql`s."name", s."pageId", ${extras.columns}`, joins: sql`LEFT JOIN s ON s."brandtrackerId" = p."brandtrackerId" ${extras.joins}` };
}

export type GroupPage = { data: GroupRow[]; pagination: PagePagination };

export type GroupStatementRow = Omit<GroupRow, 'brandtracker'> & { brandtrackerId: string; name: string; pageId: string | null };

/** A row of a groups statement as the group, its brand an object. */
export function groupRow({ brandtrackerId, name, pageId, ...row }: GroupStatementRow): GroupRow {
  return { ...row, brandtracker: { id: brandtrackerId, name, facebookPageId: pageId } };
}
