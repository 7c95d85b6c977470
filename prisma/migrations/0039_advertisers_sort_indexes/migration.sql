-- Issue #38: GET /v1/advertisers sorted by a stored figure (activeAds, followers, newest, reach over total or 30 days)
-- orders by the figure DESC NULLS LAST, then the id ascending. The figures' indexes (one column, ascending) cannot give
-- that order, so each page sorted every page of the market: 171-246 ms at the large scale (200,000 pages) for 20 rows,
-- growing with the market (S9: 47 ms at small). These give the order itself: a page is read from the index, its
-- first rows only. (The ascending sorts are rarer, and their order, NULLS LAST then the id, is the figures' own
-- indexes' but for the id: left as they are.)
CREATE INDEX "advertisers_liveAdsCount_desc_idx" ON "advertisers" ("liveAdsCount" DESC NULLS LAST, "id");
CREATE INDEX "advertisers_facebookLikes_desc_idx" ON "advertisers" ("facebookLikes" DESC NULLS LAST, "id");
CREATE INDEX "advertisers_pageCreatedAt_desc_idx" ON "advertisers" ("pageCreatedAt" DESC NULLS LAST, "id");
CREATE INDEX "advertisers_totalReach_desc_idx" ON "advertisers" ("totalReach" DESC NULLS LAST, "id");
CREATE INDEX "advertisers_reach30d_desc_idx" ON "advertisers" ("reach30d" DESC NULLS LAST, "id");
