-- CreateIndex
CREATE INDEX "advertisers_totalReach_idx" ON "advertisers"("totalReach");

-- CreateIndex
CREATE INDEX "advertisers_facebookLikes_idx" ON "advertisers"("facebookLikes");

-- CreateIndex
CREATE INDEX "advertiser_metric_days_date_advertiserId_totalImpressions_idx" ON "advertiser_metric_days"("date", "advertiserId", "totalImpressions");

-- CreateIndex
CREATE INDEX "ads_advertiserId_firstSeenAt_idx" ON "ads"("advertiserId", "firstSeenAt" DESC);

-- Lookup (written by hand: Prisma's datamodel cannot express expression or trigram indexes).
-- Exact matches compare lower-cased names and handles; fuzzy name matches use pg_trgm's similarity, answered by
-- trigram GIN indexes (`name %> q` for word similarity, `name % q` for whole-name similarity).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "advertisers_name_trgm_idx" ON "advertisers" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "advertisers_name_lower_idx" ON "advertisers" (lower("name"));
CREATE INDEX "advertisers_instagramUsername_lower_idx" ON "advertisers" (lower("instagramUsername"));
CREATE INDEX "shops_name_trgm_idx" ON "shops" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "shops_name_lower_idx" ON "shops" (lower("name"));
CREATE INDEX "shops_instagramHandle_lower_idx" ON "shops" (lower("instagramHandle"));
CREATE INDEX "brandtrackers_name_trgm_idx" ON "brandtrackers" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "brandtrackers_name_lower_idx" ON "brandtrackers" (lower("name"));
