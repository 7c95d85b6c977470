-- Issue #22: an advertisers page (GET /v1/advertisers, 25 rows) shows each advertiser's main landing pages: where
-- its ads (one per duplicate group) lead, the most used first (ties: the larger reach, then the URL), at most three.
-- Counting them per request read every group lead of the 25 advertisers: the largest brands, a few thousand ads
-- each at medium (40 ms for a search of "studio", growing with the brands). They are now kept per page, written
-- with the other precomputed groups (refreshAdGroups: the market load for every page, the Meta ads importer for the
-- pages it touched) by "refresh_advertiser_main_landing_pages", whose statement is the one the route ran.
CREATE TABLE "advertiser_main_landing_pages" (
  "advertiserId" text NOT NULL,
  "position" integer NOT NULL,
  "landingPage" text NOT NULL,
  "screenshotUrl" text,
  CONSTRAINT "advertiser_main_landing_pages_pkey" PRIMARY KEY ("advertiserId", "position")
);

-- Recomputes the main landing pages of the given pages (every page when null). Counted per landing-page row first,
-- then each used row looked up by key (LATERAL): a join would read every landing page.
CREATE FUNCTION "refresh_advertiser_main_landing_pages"(pages text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "advertiser_main_landing_pages" WHERE pages IS NULL OR "advertiserId" = ANY(pages);
  INSERT INTO "advertiser_main_landing_pages"
  SELECT "advertiserId", n, "landingPage", "screenshotUrl" FROM (
    SELECT u."advertiserId", lp."normalizedUrl" AS "landingPage", max(lp."screenshotDesktopUrl") AS "screenshotUrl",
      row_number() OVER (PARTITION BY u."advertiserId" ORDER BY sum(u.ads) DESC, sum(u.reach) DESC, lp."normalizedUrl")::int AS n
    FROM (
      SELECT a."advertiserId", a."landingPageId", count(*) AS ads, sum(a."reach") AS reach FROM "ads" a
      WHERE (pages IS NULL OR a."advertiserId" = ANY(pages)) AND a."isGroupLead" AND a."landingPageId" IS NOT NULL
      GROUP BY 1, 2) u
    CROSS JOIN LATERAL (SELECT p."normalizedUrl", p."screenshotDesktopUrl" FROM "landing_pages" p WHERE p."id" = u."landingPageId" LIMIT 1) lp
    GROUP BY 1, 2) ranked
  WHERE n <= 3;
END
$$;

SELECT "refresh_advertiser_main_landing_pages"(NULL);
ANALYZE "advertiser_main_landing_pages";
