-- Issue #33: the growth filters of POST /v1/ads/query. adReachGrowth over 7 and 30 days compares the ad's reach
-- with its reach at the period's start (reach minus the stored gain), in percent: these expression indexes hold
-- that growth, written exactly as src/schema/ads/sql/growth.ts writes it, so a selective bound is an index range
-- instead of a computation over every ad (ads first seen within the period, a start of 0, have no growth: null).
-- Not partial: the planner reads an expression's statistics only from an index over the whole table. trafficGrowth compares the primary shop's stored growth columns as they are; the 30-day one
-- was indexed already (shops_trafficGrowth30d_idx), the 90- and 180-day ones are here. ANALYZE gathers the
-- expressions' statistics now, so the planner sees how selective a bound is before autovacuum comes by. Written
-- by hand, like the other indexes Prisma's schema language does not express.
CREATE INDEX "ads_reachGrowth7d_idx" ON "ads" ((("reach" - ("reach" - "reachDelta7d")) * 100::float8 / nullif(("reach" - "reachDelta7d"), 0)));
CREATE INDEX "ads_reachGrowth30d_idx" ON "ads" ((("reach" - ("reach" - "reachDelta30d")) * 100::float8 / nullif(("reach" - "reachDelta30d"), 0)));
CREATE INDEX "shops_trafficGrowth90d_idx" ON "shops" ("trafficGrowth90d") WHERE "trafficGrowth90d" IS NOT NULL;
CREATE INDEX "shops_trafficGrowth180d_idx" ON "shops" ("trafficGrowth180d") WHERE "trafficGrowth180d" IS NOT NULL;
ANALYZE "ads";
ANALYZE "shops";
