-- Issue #38: the landing pages of a shop domain's or some Facebook pages' ads (GET /v1/ads/facets/landing-pages, bench
-- scenario S5) counted every matching ad per request, grouped by its normalised URL: the bench's domain has 331 ads at
-- small and about 6,800 at large for about 12 URLs, and the route's p50 grew 7.5 times from small to large (at medium,
-- 3-10 ms for the largest domain's 2,433 ads). The ads are now counted per page, landing-page domain and normalised URL
-- (the route's grouping: lowercase, without fragment, query string or trailing slashes), by status, and the route sums
-- its scope's rows: a domain's through the reversed-domain index (as migration 0009's on "ads"), some pages' through
-- "advertiserId"; a few rows per URL whatever the number of ads (0.1 ms for that domain; 136,000 rows at medium).
-- Written with the other precomputed per-page tables (refreshAdGroups: the market load for every page, the Meta ads
-- importer for the pages it touched) by "refresh_advertiser_landing_page_counts", whose grouping is the one the route
-- ran; test/ads/landing-pages-precomputed.test.ts checks that both give the same answers.
CREATE TABLE "advertiser_landing_page_counts" (
  "advertiserId" text NOT NULL,
  -- The ads' "landingPageDomain" (null: counted for the page's scope only).
  "domain" text,
  "url" text NOT NULL,
  -- Ads of every status (unknown too: the route's status all), then the active and the inactive ones.
  "ads" integer NOT NULL,
  "activeAds" integer NOT NULL,
  "inactiveAds" integer NOT NULL
);
CREATE INDEX "advertiser_landing_page_counts_advertiserId_idx" ON "advertiser_landing_page_counts" ("advertiserId");
CREATE INDEX "advertiser_landing_page_counts_domain_reversed_idx" ON "advertiser_landing_page_counts" (reverse("domain") text_pattern_ops);

-- Recomputes the counts of the given pages (every page when null) from "ads". Refreshes of the same page wait for each
-- other (an advisory lock per page, and one over all pages for a refresh of every page, held to the end of the
-- transaction, as in migration 0038): two imports that touch the same page in parallel would otherwise each delete the
-- rows they see and insert their own, counting the page twice.
CREATE FUNCTION "refresh_advertiser_landing_page_counts"(pages text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF pages IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('advertiser_landing_page_counts'));
  ELSE
    PERFORM pg_advisory_xact_lock_shared(hashtext('advertiser_landing_page_counts'));
    PERFORM pg_advisory_xact_lock(hashtext('advertiser_landing_page_counts'), hashtext(p)) FROM (SELECT DISTINCT unnest(pages) AS p ORDER BY 1) l;
  END IF;
  DELETE FROM "advertiser_landing_page_counts" WHERE pages IS NULL OR "advertiserId" = ANY(pages);
  INSERT INTO "advertiser_landing_page_counts" ("advertiserId", "domain", "url", "ads", "activeAds", "inactiveAds")
  SELECT a."advertiserId", a."landingPageDomain", rtrim(lower(split_part(split_part(a."landingPageUrl", '#', 1), '?', 1)), '/'),
         count(*)::int, (count(*) FILTER (WHERE a."status" = 'active'))::int, (count(*) FILTER (WHERE a."status" = 'inactive'))::int
  FROM "ads" a
  WHERE (pages IS NULL OR a."advertiserId" = ANY(pages)) AND a."landingPageUrl" IS NOT NULL
  GROUP BY 1, 2, 3
  -- A page's rows together in the table.
  ORDER BY 1, 2, 3;
END
$$;

SELECT "refresh_advertiser_landing_page_counts"(NULL);
ANALYZE "advertiser_landing_page_counts";
