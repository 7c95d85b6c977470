import type { Context } from '../../../context.js';
import { apiError } from '../../../errors.js';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import { workspaceDb } from '../../shared/workspace.js';
import { activeLink, loadLink } from './links.js';

// The detail of one brandtracker beyond its summary: its page's profile and the statistics of its ads, loaded in one
// statement and carried with the loaded link to the fields that show them.

export type PageProfile = {
  about: string | null;
  category: string | null;
  facebookLikes: number | null;
  instagramFollowers: number | null;
  instagramUsername: string | null;
  profileUri: string | null;
  runningAds: number | null;
};

export type Statistics = {
  urlCount: Record<string, number>;
  ctaCount: Record<string, number>;
  liveAdCount: { activeCount: number; inactiveCount: number };
  formatCount: Record<string, number>;
  euData: { adsCount: number; activeAdsCount: number; reach: number } | null;
};

export type DetailExtras = { pageProfile: PageProfile; statistics: Statistics };

const EXTRAS = Symbol('detailExtras');

function withExtras<T extends object>(link: T, extras: DetailExtras): T {
  (link as { [EXTRAS]?: DetailExtras })[EXTRAS] = extras;
  return link;
}

export function extrasOf(link: object): DetailExtras {
  const extras = (link as { [EXTRAS]?: DetailExtras })[EXTRAS];
  if (!extras) throw apiError('internal_error', 'Brandtracker detail figures were not loaded.');
  return extras;
}

/**
 * The page profile and ad statistics of a brandtracker's Facebook page, in one statement: landing-page URLs,
 * calls to action and formats counted over the page's active ads (the 20 most used URLs and CTAs), active and
 * inactive counts, and the EU ads' figures (null when the page has none).
 */
async function loadDetailExtras(prisma: PrismaClient, pageId: string | null): Promise<DetailExtras> {
  const [row] = await prisma.$queryRaw<(DetailExtras & { found: boolean })[]>`
    WITH page_ads AS (SELECT * FROM "ads" WHERE "advertiserId" = ${pageId})
    SELECT
      (SELECT jsonb_build_object('about', v."about", 'category', v."category", 'facebookLikes', v."facebookLikes",
         'instagramFollowers', v."instagramFollowers", 'instagramUsername', v."instagramUsername",
         'profileUri', 'https://www.facebook.com/' || v."id", 'runningAds', v."liveAdsCount")
       FROM "advertisers" v WHERE v."id" = ${pageId}) AS "pageProfile",
      jsonb_build_object(
        'urlCount', (SELECT coalesce(jsonb_object_agg(u.url, u.n), '{}') FROM (
           SELECT "landingPageUrl" AS url, count(*)::int AS n FROM page_ads WHERE "status" = 'active' AND "landingPageUrl" IS NOT NULL
           GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20) u),
        'ctaCount', (SELECT coalesce(jsonb_object_agg(c.cta, c.n), '{}') FROM (
           SELECT "callToAction" AS cta, count(*)::int AS n FROM page_ads WHERE "status" = 'active' AND "callToAction" IS NOT NULL
           GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20) c),
        'liveAdCount', (SELECT jsonb_build_object('activeCount', count(*) FILTER (WHERE "status" = 'active'),
           'inactiveCount', count(*) FILTER (WHERE "status" <> 'active')) FROM page_ads),
        'formatCount', (SELECT coalesce(jsonb_object_agg(f.format, f.n), '{}') FROM (
           SELECT "mediaType"::text AS format, count(*)::int AS n FROM page_ads WHERE "status" = 'active' GROUP BY 1) f),
        'euData', (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE jsonb_build_object('adsCount', count(*),
           'activeAdsCount', count(*) FILTER (WHERE "status" = 'active'), 'reach', coalesce(sum("reach"), 0)) END
           FROM page_ads WHERE "isEuAd")
      ) AS "statistics"`;
  const empty: PageProfile = { about: null, category: null, facebookLikes: null, instagramFollowers: null, instagramUsername: null, profileUri: null, runningAds: null };
  return { pageProfile: row?.pageProfile ?? empty, statistics: row.statistics };
}


/** One active brandtracker of the workspace with the fields `query` selects, its figures and its detail extras. */
export async function brandtrackerDetail(context: Context, brandtrackerId: string, query: object) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const found = await activeLink(db, workspace.id, brandtrackerId);
  const [link, extras] = await Promise.all([loadLink(db, workspace.id, found.id, query), loadDetailExtras(context.prisma, found.pageId)]);
  return withExtras(link, extras);
}
