-- Issue #19: the workspace's hooks, ad copies and landing pages (GET /v1/workspace/hooks, /ad-copies,
-- /landing-pages) grouped every ad of every tracked brand per request (at medium, 50 brands with up to 2,400 ads
-- each: 1.2 s a page), and top-ads counted every active group lead. These tables hold the groups and counts per
-- Facebook page, precomputed from the market data; a workspace page is then a merge of each tracked brand's first
-- rows in the requested order (an index scan per brand) and its total a sum of per-page counts.
-- Both are written only by "refresh_advertiser_ad_groups": the market load (seedMarket) and the Meta ads importer
-- call it when they finish, for every page or the pages they touched.

-- One row per page, kind ('hook', 'adCopy', 'landingPage'), EU subset (euOnly: of the page's EU ads only) and key
-- (the hook text, the copy, the landing page id), with the figures the routes return. keyRank is the key's
-- position in key order among its page's groups of that kind, so that an index gives a page's groups in the order
-- the routes use (the figure, then the key) without holding the key (copies can be long). Days running depend on
-- now() for active ads: the longest running figure is greatest(inactiveLongestRunning, the days since activeSince),
-- computed when read; floor((now - start) / 1 day) is largest for the earliest start, so this equals the largest
-- days running of the group's ads at any moment.
CREATE TABLE "advertiser_ad_groups" (
  "advertiserId" text NOT NULL,
  "kind" text NOT NULL,
  "euOnly" boolean NOT NULL,
  "keyRank" integer NOT NULL,
  "key" text NOT NULL,
  "usageCount" integer NOT NULL,
  "activeAdsCount" integer NOT NULL,
  -- Days running of the longest-running ad that is not active (null when every ad is active).
  "inactiveLongestRunning" integer,
  -- The earliest start (not before 2018-01-01) of its active ads (null when none is active).
  "activeSince" timestamptz(3),
  "totalImpressions" bigint NOT NULL,
  "firstUsedAt" timestamptz(3) NOT NULL,
  "lastUsedAt" timestamptz(3) NOT NULL,
  -- The ad with the most reach (then the smallest id).
  "sampleAdId" text NOT NULL,
  CONSTRAINT "advertiser_ad_groups_pkey" PRIMARY KEY ("advertiserId", "kind", "euOnly", "keyRank")
);

-- Per page and EU subset: its groups of each kind, and its duplicate-group leads (all, and the active ones), the
-- totals of the workspace routes.
CREATE TABLE "advertiser_ad_counts" (
  "advertiserId" text NOT NULL,
  "euOnly" boolean NOT NULL,
  "hookGroups" integer NOT NULL,
  "adCopyGroups" integer NOT NULL,
  "landingPageGroups" integer NOT NULL,
  "groupLeads" integer NOT NULL,
  "activeGroupLeads" integer NOT NULL,
  CONSTRAINT "advertiser_ad_counts_pkey" PRIMARY KEY ("advertiserId", "euOnly")
);

-- Top-ads in its default order (current rank, then reach) per page: its active duplicate-group leads. The predicate
-- is the route's own condition: with only "isGroupLead" the planner, expecting 5 ads per page, preferred sorting each
-- page's ads found by ("advertiserId", "status") (29 ms at medium against 7 ms).
CREATE INDEX "ads_active_group_leads_rank_idx" ON "ads" ("advertiserId", "currentRank", "reach" DESC NULLS LAST, "id") WHERE "isGroupLead" AND "status" = 'active';

-- Recomputes the groups and counts of the given pages (every page when null) from "ads" and "ad_hooks". The
-- grouping is the one src/schema/workspace-analytics/aggregates.ts (groupPage) runs on the fly for the
-- per-brandtracker routes; test/brandtrackers/workspace-precomputed.test.ts checks that both give the same rows.
CREATE FUNCTION "refresh_advertiser_ad_groups"(pages text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "advertiser_ad_groups" WHERE pages IS NULL OR "advertiserId" = ANY(pages);
  DELETE FROM "advertiser_ad_counts" WHERE pages IS NULL OR "advertiserId" = ANY(pages);
  INSERT INTO "advertiser_ad_groups"
  SELECT g."advertiserId", g."kind", g."euOnly", row_number() OVER (PARTITION BY g."advertiserId", g."kind", g."euOnly" ORDER BY g."key")::int,
         g."key", g."usageCount", g."activeAdsCount", g."inactiveLongestRunning", g."activeSince", g."totalImpressions", g."firstUsedAt",
         g."lastUsedAt", g."sampleAdId"
  FROM (
    SELECT a."advertiserId", u."kind", e."euOnly", u."key", count(*)::int AS "usageCount",
           count(*) FILTER (WHERE a."status" = 'active')::int AS "activeAdsCount",
           max(floor(extract(epoch FROM a."lastSeenAt" - greatest(a."firstSeenAt", timestamptz '2018-01-01')) / 86400))
             FILTER (WHERE a."status" <> 'active')::int AS "inactiveLongestRunning",
           min(greatest(a."firstSeenAt", timestamptz '2018-01-01')) FILTER (WHERE a."status" = 'active') AS "activeSince",
           coalesce(sum(a."reach"), 0)::bigint AS "totalImpressions", min(a."firstSeenAt") AS "firstUsedAt", max(a."lastSeenAt") AS "lastUsedAt",
           (array_agg(a."id" ORDER BY a."reach" DESC, a."id"))[1] AS "sampleAdId"
    FROM "ads" a
    LEFT JOIN "ad_hooks" h ON h."adId" = a."id"
    CROSS JOIN LATERAL (VALUES ('hook', CASE WHEN btrim(h."text") <> '' THEN h."text" END),
                               ('adCopy', CASE WHEN btrim(a."body") <> '' THEN a."body" END),
                               ('landingPage', a."landingPageId"::text)) AS u("kind", "key")
    CROSS JOIN LATERAL (VALUES (false), (true)) AS e("euOnly")
    WHERE (pages IS NULL OR a."advertiserId" = ANY(pages)) AND u."key" IS NOT NULL AND (a."isEuAd" OR NOT e."euOnly")
    GROUP BY 1, 2, 3, 4
  ) g;
  INSERT INTO "advertiser_ad_counts"
  SELECT coalesce(g."advertiserId", l."advertiserId"), coalesce(g."euOnly", l."euOnly"), coalesce(g."hookGroups", 0), coalesce(g."adCopyGroups", 0),
         coalesce(g."landingPageGroups", 0), coalesce(l."groupLeads", 0), coalesce(l."activeGroupLeads", 0)
  FROM (
    SELECT "advertiserId", "euOnly", count(*) FILTER (WHERE "kind" = 'hook')::int AS "hookGroups",
           count(*) FILTER (WHERE "kind" = 'adCopy')::int AS "adCopyGroups", count(*) FILTER (WHERE "kind" = 'landingPage')::int AS "landingPageGroups"
    FROM "advertiser_ad_groups" WHERE pages IS NULL OR "advertiserId" = ANY(pages) GROUP BY 1, 2
  ) g
  FULL JOIN (
    SELECT a."advertiserId", e."euOnly", count(*)::int AS "groupLeads", count(*) FILTER (WHERE a."status" = 'active')::int AS "activeGroupLeads"
    FROM "ads" a CROSS JOIN LATERAL (VALUES (false), (true)) AS e("euOnly")
    WHERE (pages IS NULL OR a."advertiserId" = ANY(pages)) AND a."isGroupLead" AND (a."isEuAd" OR NOT e."euOnly")
    GROUP BY 1, 2
  ) l ON l."advertiserId" = g."advertiserId" AND l."euOnly" = g."euOnly";
END
$$;

SELECT "refresh_advertiser_ad_groups"(NULL);

-- Built after the fill, so that they are built in one sort each.
CREATE INDEX "advertiser_ad_groups_usage_desc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "usageCount" DESC, "keyRank");
CREATE INDEX "advertiser_ad_groups_usage_asc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "usageCount", "keyRank");
CREATE INDEX "advertiser_ad_groups_impressions_desc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "totalImpressions" DESC, "keyRank");
CREATE INDEX "advertiser_ad_groups_impressions_asc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "totalImpressions", "keyRank");
CREATE INDEX "advertiser_ad_groups_first_desc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "firstUsedAt" DESC, "keyRank");
CREATE INDEX "advertiser_ad_groups_first_asc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "firstUsedAt", "keyRank");
CREATE INDEX "advertiser_ad_groups_last_desc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "lastUsedAt" DESC, "keyRank");
CREATE INDEX "advertiser_ad_groups_last_asc_idx" ON "advertiser_ad_groups" ("advertiserId", "kind", "euOnly", "lastUsedAt", "keyRank");

-- Statistics now: the first requests after the migration are planned on the filled tables.
ANALYZE "advertiser_ad_groups";
ANALYZE "advertiser_ad_counts";
