-- Issue #33: POST /v1/ads/query filters on figures of the advertiser's primary shop (Trustpilot rating and review
-- count, best seller price, Shopify Plus), on the page's spender segment and on the ad's video length. A
-- selective bound on one of them starts from an index scan of these columns (the shops, then their pages through
-- advertiser_shops_shopId_idx, then their ads through ads_advertiserId_idx) instead of reading every ad and probing
-- its page's primary shop. Written by hand, like the other indexes Prisma's schema language does not express
-- (the partial indexes hold only the rows a filter can select).
CREATE INDEX "shops_trustpilotRating_idx" ON "shops" ("trustpilotRating") WHERE "trustpilotRating" IS NOT NULL;
CREATE INDEX "shops_trustpilotReviews_idx" ON "shops" ("trustpilotReviews") WHERE "trustpilotReviews" IS NOT NULL;
CREATE INDEX "shops_bestSellerPriceUsd_idx" ON "shops" ("bestSellerPriceUsd") WHERE "bestSellerPriceUsd" IS NOT NULL;
CREATE INDEX "shops_isShopifyPlus_idx" ON "shops" ("isShopifyPlus");
CREATE INDEX "advertisers_spenderSegment_idx" ON "advertisers" ("spenderSegment") WHERE "spenderSegment" IS NOT NULL;
CREATE INDEX "ads_videoDurationSec_idx" ON "ads" ("videoDurationSec") WHERE "isGroupLead" AND "videoDurationSec" IS NOT NULL;
