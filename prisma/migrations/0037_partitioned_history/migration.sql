-- Issue #38: the day-snapshot tables grow by a row per ad, page, shop or TikTok profile and day, forever. Each becomes
-- partitioned by month on its "date" (PostgreSQL's declarative partitioning, PARTITION BY RANGE): a read of a window of
-- days scans only the months of the window, and retention (HISTORY_RETENTION_MONTHS) drops a whole old month at once
-- (DETACH + DROP) instead of deleting its rows one by one.
--   ad_reach_days, advertiser_metric_days, shop_social_days, tiktok_page_snapshots, shop_sales_readings
-- Their primary keys already end with "date" (the partition key must be in every unique constraint), so the keys,
-- the ON CONFLICT targets of the writers and Prisma's models are unchanged; no foreign key points at these tables.
-- Partitions are named <table>_pYYYYMM (the month's first day to the next month's, exclusive) and <table>_default.
-- The DEFAULT partition takes a row of a month that has no partition yet (a backfill, a test's fixed date, a demo
-- load older than the partitions): a write never fails for want of a partition. It is kept empty: the maintenance
-- (src/db/partitions.ts, at each start and every few hours where workers run) creates the current and next months
-- ahead and moves any row found in the default into its month's partition.
-- Here, each table is renamed aside, recreated partitioned with its months (those of its rows) and the default, its
-- rows copied over in one INSERT … SELECT, and the old table dropped; the keys, indexes and foreign keys are then
-- created once on the parent (PostgreSQL builds them on every partition) under their former names.

ALTER TABLE "ad_reach_days" RENAME TO "ad_reach_days_unpartitioned";
ALTER TABLE "ad_reach_days_unpartitioned" DROP CONSTRAINT "ad_reach_days_pkey";
DROP INDEX "ad_reach_days_date_idx";
CREATE TABLE "ad_reach_days" (
    "adId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "reach" BIGINT NOT NULL,
    "rank" INTEGER,
    "fetchedAt" TIMESTAMPTZ(3)
) PARTITION BY RANGE ("date");

ALTER TABLE "advertiser_metric_days" RENAME TO "advertiser_metric_days_unpartitioned";
ALTER TABLE "advertiser_metric_days_unpartitioned" DROP CONSTRAINT "advertiser_metric_days_pkey";
DROP INDEX "advertiser_metric_days_date_advertiserId_totalImpressions_idx";
CREATE TABLE "advertiser_metric_days" (
    "advertiserId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "facebookLikes" INTEGER NOT NULL,
    "instagramFollowers" INTEGER NOT NULL,
    "totalImpressions" BIGINT NOT NULL
) PARTITION BY RANGE ("date");

ALTER TABLE "shop_social_days" RENAME TO "shop_social_days_unpartitioned";
ALTER TABLE "shop_social_days_unpartitioned" DROP CONSTRAINT "shop_social_days_pkey";
CREATE TABLE "shop_social_days" (
    "shopId" UUID NOT NULL,
    "date" DATE NOT NULL,
    "facebook" INTEGER,
    "instagram" INTEGER,
    "tiktok" INTEGER,
    "youtube" INTEGER
) PARTITION BY RANGE ("date");

ALTER TABLE "shop_sales_readings" RENAME TO "shop_sales_readings_unpartitioned";
ALTER TABLE "shop_sales_readings_unpartitioned" DROP CONSTRAINT "shop_sales_readings_pkey";
CREATE TABLE "shop_sales_readings" (
    "shopId" UUID NOT NULL,
    "date" DATE NOT NULL,
    "revenueUsd" INTEGER NOT NULL,
    "revenueMinUsd" INTEGER NOT NULL,
    "revenueMaxUsd" INTEGER NOT NULL,
    "unitsSold" INTEGER NOT NULL,
    "ordersCount" INTEGER NOT NULL
) PARTITION BY RANGE ("date");

ALTER TABLE "tiktok_page_snapshots" RENAME TO "tiktok_page_snapshots_unpartitioned";
ALTER TABLE "tiktok_page_snapshots_unpartitioned" DROP CONSTRAINT "tiktok_page_snapshots_pkey";
CREATE TABLE "tiktok_page_snapshots" (
    "profileId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "recordedAt" TIMESTAMPTZ(3) NOT NULL,
    "adsCount" INTEGER NOT NULL,
    "organicCount" INTEGER NOT NULL,
    "totalTikToks" INTEGER NOT NULL,
    "dailyViews" BIGINT NOT NULL,
    "dailyLikes" BIGINT NOT NULL,
    "dailyFollowers" INTEGER NOT NULL
) PARTITION BY RANGE ("date");

-- Each table's default partition and a partition per month its rows cover; then the rows, by column name.
DO $$
DECLARE
  history text;
  month date;
  columns text;
BEGIN
  FOREACH history IN ARRAY ARRAY['ad_reach_days', 'advertiser_metric_days', 'shop_social_days', 'shop_sales_readings', 'tiktok_page_snapshots'] LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', history || '_default', history);
    FOR month IN EXECUTE format('SELECT DISTINCT date_trunc(''month'', "date")::date FROM %I ORDER BY 1', history || '_unpartitioned') LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        history || '_p' || to_char(month, 'YYYYMM'), history, month, (month + interval '1 month')::date);
    END LOOP;
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
      FROM pg_attribute a WHERE a.attrelid = format('%I', history)::regclass AND a.attnum > 0 AND NOT a.attisdropped;
    EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', history, columns, columns, history || '_unpartitioned');
    EXECUTE format('DROP TABLE %I', history || '_unpartitioned');
  END LOOP;
END $$;

ALTER TABLE "ad_reach_days" ADD CONSTRAINT "ad_reach_days_pkey" PRIMARY KEY ("adId", "date");
CREATE INDEX "ad_reach_days_date_idx" ON "ad_reach_days"("date");
ALTER TABLE "ad_reach_days" ADD CONSTRAINT "ad_reach_days_adId_fkey" FOREIGN KEY ("adId") REFERENCES "ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "advertiser_metric_days" ADD CONSTRAINT "advertiser_metric_days_pkey" PRIMARY KEY ("advertiserId", "date");
CREATE INDEX "advertiser_metric_days_date_advertiserId_totalImpressions_idx" ON "advertiser_metric_days"("date", "advertiserId", "totalImpressions");
ALTER TABLE "advertiser_metric_days" ADD CONSTRAINT "advertiser_metric_days_advertiserId_fkey" FOREIGN KEY ("advertiserId") REFERENCES "advertisers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "shop_social_days" ADD CONSTRAINT "shop_social_days_pkey" PRIMARY KEY ("shopId", "date");
ALTER TABLE "shop_social_days" ADD CONSTRAINT "shop_social_days_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "shop_sales_readings" ADD CONSTRAINT "shop_sales_readings_pkey" PRIMARY KEY ("shopId", "date");
ALTER TABLE "shop_sales_readings" ADD CONSTRAINT "shop_sales_readings_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "tiktok_page_snapshots" ADD CONSTRAINT "tiktok_page_snapshots_pkey" PRIMARY KEY ("profileId", "date");
ALTER TABLE "tiktok_page_snapshots" ADD CONSTRAINT "tiktok_page_snapshots_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "tiktok_profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
