import type { PrismaClient } from '../../generated/prisma/client.js';
import { apiError } from '../../errors.js';
import { builder } from '../builder.js';
import { brandtrackerSelect, BrandtrackerSummary, globalOf } from './types.js';

// The detail of one brandtracker: the summary plus its page's profile and the statistics of its ads.

type PageProfile = {
  about: string | null;
  category: string | null;
  facebookLikes: number | null;
  instagramFollowers: number | null;
  instagramUsername: string | null;
  profileUri: string | null;
  runningAds: number | null;
};

type Statistics = {
  urlCount: Record<string, number>;
  ctaCount: Record<string, number>;
  liveAdCount: { activeCount: number; inactiveCount: number };
  formatCount: Record<string, number>;
  euData: { adsCount: number; activeAdsCount: number; reach: number } | null;
};

export type DetailExtras = { pageProfile: PageProfile; statistics: Statistics };

const EXTRAS = Symbol('detailExtras');

export function withExtras<T extends object>(link: T, extras: DetailExtras): T {
  (link as { [EXTRAS]?: DetailExtras })[EXTRAS] = extras;
  return link;
}

function extrasOf(link: object): DetailExtras {
  const extras = (link as { [EXTRAS]?: DetailExtras })[EXTRAS];
  if (!extras) throw apiError('internal_error', 'Brandtracker detail figures were not loaded.');
  return extras;
}

/**
 * The page profile and ad statistics of a brandtracker's Facebook page, in one statement: landing-page URLs,
 * calls to action and formats counted over the page's active ads (the 20 most used URLs and CTAs), active and
 * inactive counts, and the EU ads' figures (null when the page has none).
 */
export async function loadDetailExtras(prisma: PrismaClient, pageId: string | null): Promise<DetailExtras> {
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

const PageProfileRef = builder.objectRef<PageProfile>('BrandtrackerPageProfile').implement({
  description: "The brand's Facebook page (all null for a website tracked without a page).",
  fields: (t) => ({
    about: t.exposeString('about', { nullable: true }),
    category: t.exposeString('category', { nullable: true }),
    facebookLikes: t.exposeInt('facebookLikes', { nullable: true }),
    instagramFollowers: t.exposeInt('instagramFollowers', { nullable: true }),
    instagramUsername: t.exposeString('instagramUsername', { nullable: true }),
    profileUri: t.exposeString('profileUri', { nullable: true }),
    runningAds: t.exposeInt('runningAds', { nullable: true }),
  }),
});

const LiveAdCount = builder.objectRef<Statistics['liveAdCount']>('BrandtrackerLiveAdCount').implement({
  fields: (t) => ({ activeCount: t.exposeInt('activeCount'), inactiveCount: t.exposeInt('inactiveCount') }),
});

const StatisticsRef = builder.objectRef<Statistics>('BrandtrackerStatistics').implement({
  fields: (t) => ({
    urlCount: t.field({ type: 'JSON', description: 'Active ads per landing-page URL (the 20 most used).', resolve: (s) => s.urlCount }),
    ctaCount: t.field({ type: 'JSON', description: 'Active ads per call to action (the 20 most used).', resolve: (s) => s.ctaCount }),
    liveAdCount: t.field({ type: LiveAdCount, resolve: (s) => s.liveAdCount }),
    formatCount: t.field({ type: 'JSON', description: 'Active ads per media type.', resolve: (s) => s.formatCount }),
    euData: t.field({ type: 'JSON', nullable: true, description: '`{ adsCount, activeAdsCount, reach }` of the EU ads; null when there are none.', resolve: (s) => s.euData }),
  }),
});

export const BrandtrackerDetail = builder.prismaObject('BrandtrackerLink', {
  variant: 'BrandtrackerDetail',
  interfaces: [BrandtrackerSummary],
  description: 'One tracked brand with its page profile and ad statistics.',
  fields: (t) => ({
    createdAt: t.field({ type: 'DateTime', description: 'When the brand was first tracked (by any workspace).', select: brandtrackerSelect, resolve: (link) => globalOf(link).createdAt }),
    updatedAt: t.field({ type: 'DateTime', select: brandtrackerSelect, resolve: (link) => globalOf(link).updatedAt }),
    pageProfile: t.field({ type: PageProfileRef, resolve: (link) => extrasOf(link).pageProfile }),
    statistics: t.field({ type: StatisticsRef, resolve: (link) => extrasOf(link).statistics }),
  }),
});
