-- Issue #38: a brandtracker's daily series (GET /v1/brandtrackers/{id}/time-series and the overview's graph) read every
-- ad of the brand's page and every reach row of those ads (the brand's whole history, in every monthly partition of
-- ad_reach_days, probed per ad): 60 ms for the small bench's largest brand (331 ads, 7,114 reach rows), and growing
-- with the brand (several thousand ads at medium and large). What the series sums per day does not depend on the
-- request: the ads first seen that day, the ads that stopped (not active, last seen the day before) and the reach
-- increments of that day's reach rows. They are kept per page, EU subset and day, for the pages a brandtracker tracks
-- (a series is read for those only: every page would hold about as many rows as ad_reach_days, 4.5 million at medium,
-- where the 3,563 tracked pages hold 430,000), written with the other precomputed figures (refreshAdGroups: the market
-- load for every page, the Meta ads importer for the pages it touched) and when a brandtracker of a new page is made
-- (src/schema/brandtrackers/service/targets.ts). A series is then a sum over the page's days (one index range),
-- whatever the number of its ads.
CREATE TABLE "advertiser_series_days" (
  "advertiserId" text NOT NULL,
  -- Of the page's EU ads only.
  "euOnly" boolean NOT NULL,
  "date" date NOT NULL,
  -- Ads first seen that UTC day.
  "started" integer NOT NULL,
  -- Ads not active whose last-seen UTC day is the day before (or, last seen before their first-seen day, that day).
  "ended" integer NOT NULL,
  -- The reach rows of that day: each row's reach minus the ad's previous row's (its whole reach for an ad's first row).
  -- A row dated before its ad's first-seen day (an importer may see an ad's delivery start after the day it read it)
  -- counts on the first-seen day: nothing of an ad is counted before it started.
  "reachLevel" bigint NOT NULL,
  -- The same, but 0 for an ad's first row when it is not on the ad's first-seen day (its reach came before the rows).
  "reachDelta" bigint NOT NULL,
  CONSTRAINT "advertiser_series_days_pkey" PRIMARY KEY ("advertiserId", "euOnly", "date")
);

-- Recomputes the days of the given pages (every page when null) that a brandtracker tracks from "ads" and
-- "ad_reach_days" (a page no brandtracker tracks keeps no days). The sums are those the series statement computed per
-- request (src/schema/brandtracker-analytics/service/series.ts); test/brandtracker-analytics/precomputed.test.ts
-- checks that both give the same series. Refreshes of the same page wait for each other (an advisory lock per page,
-- and one over all pages for a refresh of every page, held to the end of the transaction): a brandtracker made for a
-- page while an import refreshes it computes its days after the import's rows are committed, and the import's
-- recomputation never collides with the brandtracker's rows.
CREATE FUNCTION "refresh_advertiser_series_days"(pages text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF pages IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('advertiser_series_days'));
  ELSE
    PERFORM pg_advisory_xact_lock_shared(hashtext('advertiser_series_days'));
    PERFORM pg_advisory_xact_lock(hashtext('advertiser_series_days'), hashtext(p)) FROM (SELECT DISTINCT unnest(pages) AS p ORDER BY 1) l;
  END IF;
  DELETE FROM "advertiser_series_days" WHERE pages IS NULL OR "advertiserId" = ANY(pages);
  INSERT INTO "advertiser_series_days" ("advertiserId", "euOnly", "date", "started", "ended", "reachLevel", "reachDelta")
  WITH p AS (
    SELECT DISTINCT b."facebookPageId" AS "id" FROM "brandtrackers" b
    WHERE b."facebookPageId" IS NOT NULL AND (pages IS NULL OR b."facebookPageId" = ANY(pages))
  )
  SELECT u."advertiserId", e."euOnly", u."date", sum(u."started")::int, sum(u."ended")::int, sum(u."level")::bigint, sum(u."delta")::bigint
  FROM (
    SELECT a."advertiserId", a."isEuAd", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "date", 1 AS "started", 0 AS "ended", 0::bigint AS "level", 0::bigint AS "delta"
    FROM p JOIN "ads" a ON a."advertiserId" = p."id"
    UNION ALL
    SELECT a."advertiserId", a."isEuAd", greatest((a."lastSeenAt" AT TIME ZONE 'UTC')::date + 1, (a."firstSeenAt" AT TIME ZONE 'UTC')::date), 0, 1, 0, 0
    FROM p JOIN "ads" a ON a."advertiserId" = p."id" WHERE a."status" <> 'active'
    UNION ALL
    SELECT x."advertiserId", x."isEuAd", greatest(x."date", x."first"), 0, 0, x."level", CASE WHEN x."previous" IS NULL AND x."date" <> x."first" THEN 0 ELSE x."level" END
    FROM (
      SELECT a."advertiserId", a."isEuAd", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "first", r."date",
             r."reach" - coalesce(lag(r."reach") OVER w, 0) AS "level", lag(r."reach") OVER w AS "previous"
      FROM p JOIN "ads" a ON a."advertiserId" = p."id" JOIN "ad_reach_days" r ON r."adId" = a."id"
      WINDOW w AS (PARTITION BY r."adId" ORDER BY r."date")
    ) x
  ) u
  CROSS JOIN (VALUES (false), (true)) AS e("euOnly")
  WHERE u."isEuAd" OR NOT e."euOnly"
  GROUP BY 1, 2, 3
  -- A page's days together in the table: a series reads a few blocks, not one per day.
  ORDER BY 1, 2, 3;
END
$$;

SELECT "refresh_advertiser_series_days"(NULL);
ANALYZE "advertiser_series_days";

-- The overview's other per-brand counts read every matching ad's row (about 400 heap blocks for the medium bench's
-- largest brand, 7-11 ms each, growing with the brand): the preview's total (its group leads, or those first seen
-- before the snapshot day's end) and the live media mix (its active group leads by format). Both are counted from
-- these partial indexes alone (index-only scans, EU-only too), whose entries are a few bytes per ad; the first also
-- gives the preview's page in its order (newest first). The media mix at a snapshot day reads the reach rows.
CREATE INDEX "ads_group_leads_first_seen_idx" ON "ads" ("advertiserId", "firstSeenAt" DESC, "id") INCLUDE ("isEuAd") WHERE "isGroupLead";
CREATE INDEX "ads_active_group_leads_media_idx" ON "ads" ("advertiserId", "mediaType") INCLUDE ("isEuAd") WHERE "isGroupLead" AND "status" = 'active';
