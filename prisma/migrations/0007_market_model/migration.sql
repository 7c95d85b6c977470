-- CreateEnum
CREATE TYPE "BoardScope" AS ENUM ('workspace', 'personal');

-- CreateEnum
CREATE TYPE "BoardKind" AS ENUM ('folder', 'collection');

-- CreateEnum
CREATE TYPE "BoardSurface" AS ENUM ('ads', 'shops', 'landing', 'emails', 'products', 'advertisers', 'mixed');

-- CreateEnum
CREATE TYPE "BoardVisibility" AS ENUM ('private', 'workspace', 'public');

-- CreateEnum
CREATE TYPE "BoardItemType" AS ENUM ('ad', 'shop', 'email', 'product', 'advertiser', 'landing');

-- AlterTable
ALTER TABLE "advertisers" ADD COLUMN     "about" TEXT,
ADD COLUMN     "audienceGender" TEXT NOT NULL DEFAULT 'all',
ADD COLUMN     "pageType" TEXT NOT NULL DEFAULT 'brand',
ADD COLUMN     "spenderSegment" TEXT;

-- AlterTable
ALTER TABLE "shops" ADD COLUMN     "bestSellerPriceUsd" DOUBLE PRECISION,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "defaultLanguage" TEXT,
ADD COLUMN     "displayInTrending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "facebookHandle" TEXT,
ADD COLUMN     "faviconUrl" TEXT,
ADD COLUMN     "instagramHandle" TEXT,
ADD COLUMN     "isDtc" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "isShopifyPlus" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "linkedinHandle" TEXT,
ADD COLUMN     "logoUrl" TEXT,
ADD COLUMN     "mainMarket" TEXT,
ADD COLUMN     "monthlyRevenueUsd" INTEGER,
ADD COLUMN     "myShopifyDomain" TEXT,
ADD COLUMN     "pinterestHandle" TEXT,
ADD COLUMN     "relatedDomains" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "screenshotUrl" TEXT,
ADD COLUMN     "themeId" UUID,
ADD COLUMN     "tiktokHandle" TEXT,
ADD COLUMN     "trafficGrowth180d" DOUBLE PRECISION,
ADD COLUMN     "trafficGrowth90d" DOUBLE PRECISION,
ADD COLUMN     "trustpilotRating" DOUBLE PRECISION,
ADD COLUMN     "trustpilotReviews" INTEGER,
ADD COLUMN     "trustpilotUrl" TEXT,
ADD COLUMN     "twitterHandle" TEXT,
ADD COLUMN     "youtubeHandle" TEXT;

-- AlterTable
ALTER TABLE "advertiser_shops" ADD COLUMN     "isMain" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "rank" INTEGER;

-- AlterTable
ALTER TABLE "ads" ADD COLUMN     "bestRank" INTEGER,
ADD COLUMN     "landingPageId" UUID,
ADD COLUMN     "partnerPageId" TEXT,
ADD COLUMN     "partnerPageName" TEXT,
ADD COLUMN     "rankDelta14d" INTEGER,
ADD COLUMN     "rankDelta30d" INTEGER,
ADD COLUMN     "rankDelta7d" INTEGER,
ADD COLUMN     "videoDurationSec" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "categories" ADD COLUMN     "usageCount" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "shop_traffic_months" (
    "shopId" UUID NOT NULL,
    "month" DATE NOT NULL,
    "visits" INTEGER NOT NULL,

    CONSTRAINT "shop_traffic_months_pkey" PRIMARY KEY ("shopId","month")
);

-- CreateTable
CREATE TABLE "shop_traffic_countries" (
    "shopId" UUID NOT NULL,
    "countryCode" TEXT NOT NULL,
    "share" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "shop_traffic_countries_pkey" PRIMARY KEY ("shopId","countryCode")
);

-- CreateTable
CREATE TABLE "shop_social_days" (
    "shopId" UUID NOT NULL,
    "date" DATE NOT NULL,
    "facebook" INTEGER,
    "instagram" INTEGER,
    "tiktok" INTEGER,
    "youtube" INTEGER,

    CONSTRAINT "shop_social_days_pkey" PRIMARY KEY ("shopId","date")
);

-- CreateTable
CREATE TABLE "shop_sales_readings" (
    "shopId" UUID NOT NULL,
    "date" DATE NOT NULL,
    "revenueUsd" INTEGER NOT NULL,
    "revenueMinUsd" INTEGER NOT NULL,
    "revenueMaxUsd" INTEGER NOT NULL,
    "unitsSold" INTEGER NOT NULL,
    "ordersCount" INTEGER NOT NULL,

    CONSTRAINT "shop_sales_readings_pkey" PRIMARY KEY ("shopId","date")
);

-- CreateTable
CREATE TABLE "shopify_apps" (
    "id" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "iconUrl" TEXT,
    "shopifyUrl" TEXT,
    "usageCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "shopify_apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "technologies" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "iconUrl" TEXT,
    "categories" TEXT[],
    "usageCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "technologies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pixels" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "iconUrl" TEXT,
    "categories" TEXT[],
    "usageCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "pixels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "themes" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "usageCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "themes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shop_apps" (
    "shopId" UUID NOT NULL,
    "appId" INTEGER NOT NULL,

    CONSTRAINT "shop_apps_pkey" PRIMARY KEY ("shopId","appId")
);

-- CreateTable
CREATE TABLE "shop_technologies" (
    "shopId" UUID NOT NULL,
    "technologyId" UUID NOT NULL,

    CONSTRAINT "shop_technologies_pkey" PRIMARY KEY ("shopId","technologyId")
);

-- CreateTable
CREATE TABLE "shop_pixels" (
    "shopId" UUID NOT NULL,
    "pixelId" UUID NOT NULL,

    CONSTRAINT "shop_pixels_pkey" PRIMARY KEY ("shopId","pixelId")
);

-- CreateTable
CREATE TABLE "landing_pages" (
    "id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "normalizedUrl" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "shopId" UUID,
    "screenshotDesktopUrl" TEXT,
    "screenshotMobileUrl" TEXT,
    "screenshotHeadUrl" TEXT,
    "firstSeenAt" TIMESTAMPTZ(3),

    CONSTRAINT "landing_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "landing_page_technologies" (
    "landingPageId" UUID NOT NULL,
    "technologyId" UUID NOT NULL,

    CONSTRAINT "landing_page_technologies_pkey" PRIMARY KEY ("landingPageId","technologyId")
);

-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "shopId" UUID NOT NULL,
    "shopifyId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "handle" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "imageUrl" TEXT,
    "vendor" TEXT,
    "productType" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "optionNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "publishedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "price" DECIMAL(12,2) NOT NULL,
    "compareAtPrice" DECIMAL(12,2),
    "priceUsd" DECIMAL(12,2) NOT NULL,
    "isSubscription" BOOLEAN NOT NULL DEFAULT false,
    "promoTypes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "categoryIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "rating" DOUBLE PRECISION,
    "reviewCount" INTEGER NOT NULL DEFAULT 0,
    "bestSellerPosition" INTEGER,
    "bestSellerPercentile" DOUBLE PRECISION,
    "dailyRevenueUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "dailyRevenueMinUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "dailyRevenueMaxUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "monthlyRevenueUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "dailyUnitsSold" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "monthlyUnitsSold" INTEGER NOT NULL DEFAULT 0,
    "activeAds" INTEGER NOT NULL DEFAULT 0,
    "totalAds" INTEGER NOT NULL DEFAULT 0,
    "adsLaunched7d" INTEGER NOT NULL DEFAULT 0,
    "adsLaunched14d" INTEGER NOT NULL DEFAULT 0,
    "adsLaunched30d" INTEGER NOT NULL DEFAULT 0,
    "weekOverWeekGrowth" DOUBLE PRECISION,
    "adShare" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "advertisersCount" INTEGER NOT NULL DEFAULT 0,
    "hasPartnershipAds" BOOLEAN NOT NULL DEFAULT false,
    "previewUrls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "activeByCountry" JSONB NOT NULL DEFAULT '[]',
    "sellingCountries" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "mainSellingCountry" TEXT,
    "euSpendUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "euDailySpendUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "euSpend14dUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "euReach" BIGINT NOT NULL DEFAULT 0,
    "spendShare" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "euReachByCountry" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_variants" (
    "productId" TEXT NOT NULL,
    "shopifyId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "sku" TEXT,
    "available" BOOLEAN NOT NULL DEFAULT true,
    "price" DECIMAL(12,2) NOT NULL,
    "compareAtPrice" DECIMAL(12,2),
    "position" INTEGER NOT NULL,
    "option1" TEXT,
    "option2" TEXT,
    "option3" TEXT,

    CONSTRAINT "product_variants_pkey" PRIMARY KEY ("productId","shopifyId")
);

-- CreateTable
CREATE TABLE "product_images" (
    "productId" TEXT NOT NULL,
    "shopifyId" TEXT NOT NULL,
    "src" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "position" INTEGER NOT NULL,

    CONSTRAINT "product_images_pkey" PRIMARY KEY ("productId","shopifyId")
);

-- CreateTable
CREATE TABLE "product_weeks" (
    "productId" TEXT NOT NULL,
    "weekStart" DATE NOT NULL,
    "weekEnd" DATE NOT NULL,
    "activeAds" INTEGER NOT NULL,
    "euDailySpendUsd" DOUBLE PRECISION NOT NULL,
    "euDailyReach" INTEGER NOT NULL,

    CONSTRAINT "product_weeks_pkey" PRIMARY KEY ("productId","weekStart")
);

-- CreateTable
CREATE TABLE "email_promotion_types" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "email_promotion_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_categories" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "email_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_events" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,

    CONSTRAINT "email_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "emails" (
    "id" SERIAL NOT NULL,
    "shopId" UUID,
    "fromAddress" TEXT NOT NULL,
    "fromName" TEXT,
    "sentAt" TIMESTAMPTZ(3) NOT NULL,
    "campaignType" TEXT NOT NULL,
    "language" TEXT,
    "subject" TEXT NOT NULL,
    "preheader" TEXT,
    "body" TEXT NOT NULL,
    "bodyLength" INTEGER NOT NULL,
    "html" TEXT,
    "screenshotUrl" TEXT,
    "promotionTypeId" INTEGER,
    "categoryId" INTEGER,
    "eventId" INTEGER,

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "brandtrackers" (
    "id" UUID NOT NULL,
    "targetType" TEXT NOT NULL DEFAULT 'page',
    "facebookPageId" TEXT,
    "websiteId" UUID,
    "name" TEXT NOT NULL,
    "avatarUrl" TEXT,
    "isLoaded" BOOLEAN NOT NULL DEFAULT false,
    "lastCrawledAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brandtrackers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "brandtracker_websites" (
    "brandtrackerId" UUID NOT NULL,
    "shopId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "brandtracker_websites_pkey" PRIMARY KEY ("brandtrackerId","shopId")
);

-- CreateTable
CREATE TABLE "brandtracker_folders" (
    "id" SERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "rank" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brandtracker_folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "brandtracker_links" (
    "id" SERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "brandtrackerId" UUID NOT NULL,
    "name" TEXT,
    "folderId" INTEGER,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "addedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brandtracker_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "boards" (
    "id" TEXT NOT NULL,
    "workspaceId" UUID NOT NULL,
    "scope" "BoardScope" NOT NULL DEFAULT 'workspace',
    "ownerUserId" UUID,
    "name" TEXT NOT NULL,
    "kind" "BoardKind" NOT NULL DEFAULT 'folder',
    "surface" "BoardSurface" NOT NULL DEFAULT 'mixed',
    "description" TEXT,
    "createdByUserId" UUID,
    "parentBoardId" TEXT,
    "visibility" "BoardVisibility" NOT NULL DEFAULT 'workspace',
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMPTZ(3),

    CONSTRAINT "boards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "board_items" (
    "id" UUID NOT NULL,
    "number" SERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "scope" "BoardScope" NOT NULL DEFAULT 'workspace',
    "ownerUserId" UUID,
    "boardId" TEXT,
    "itemType" "BoardItemType" NOT NULL,
    "adId" TEXT,
    "shopId" UUID,
    "emailId" INTEGER,
    "productId" TEXT,
    "advertiserId" TEXT,
    "landingPageUrl" TEXT,
    "note" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdByUserId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "board_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "board_shares" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "boardId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "board_shares_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "credentialId" UUID,
    "userId" UUID,
    "requestId" TEXT,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "shop_traffic_countries_countryCode_share_idx" ON "shop_traffic_countries"("countryCode", "share");

-- CreateIndex
CREATE UNIQUE INDEX "shopify_apps_slug_key" ON "shopify_apps"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "technologies_slug_key" ON "technologies"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "pixels_slug_key" ON "pixels"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "themes_name_key" ON "themes"("name");

-- CreateIndex
CREATE INDEX "shop_apps_appId_idx" ON "shop_apps"("appId");

-- CreateIndex
CREATE INDEX "shop_technologies_technologyId_idx" ON "shop_technologies"("technologyId");

-- CreateIndex
CREATE INDEX "shop_pixels_pixelId_idx" ON "shop_pixels"("pixelId");

-- CreateIndex
CREATE UNIQUE INDEX "landing_pages_url_key" ON "landing_pages"("url");

-- CreateIndex
CREATE INDEX "landing_pages_normalizedUrl_idx" ON "landing_pages"("normalizedUrl");

-- CreateIndex
CREATE INDEX "landing_pages_domain_idx" ON "landing_pages"("domain");

-- CreateIndex
CREATE INDEX "landing_pages_shopId_idx" ON "landing_pages"("shopId");

-- CreateIndex
CREATE INDEX "landing_page_technologies_technologyId_idx" ON "landing_page_technologies"("technologyId");

-- CreateIndex
CREATE INDEX "products_shopId_bestSellerPosition_idx" ON "products"("shopId", "bestSellerPosition");

-- CreateIndex
CREATE INDEX "products_createdAt_idx" ON "products"("createdAt");

-- CreateIndex
CREATE INDEX "products_publishedAt_idx" ON "products"("publishedAt");

-- CreateIndex
CREATE INDEX "products_monthlyRevenueUsd_idx" ON "products"("monthlyRevenueUsd");

-- CreateIndex
CREATE INDEX "products_activeAds_idx" ON "products"("activeAds");

-- CreateIndex
CREATE INDEX "products_euSpendUsd_idx" ON "products"("euSpendUsd");

-- CreateIndex
CREATE INDEX "products_priceUsd_idx" ON "products"("priceUsd");

-- CreateIndex
CREATE INDEX "products_categoryIds_idx" ON "products" USING GIN ("categoryIds");

-- CreateIndex
CREATE UNIQUE INDEX "products_shopId_shopifyId_key" ON "products"("shopId", "shopifyId");

-- CreateIndex
CREATE UNIQUE INDEX "email_promotion_types_name_key" ON "email_promotion_types"("name");

-- CreateIndex
CREATE UNIQUE INDEX "email_categories_name_key" ON "email_categories"("name");

-- CreateIndex
CREATE UNIQUE INDEX "email_events_name_key" ON "email_events"("name");

-- CreateIndex
CREATE INDEX "emails_shopId_sentAt_idx" ON "emails"("shopId", "sentAt");

-- CreateIndex
CREATE INDEX "emails_sentAt_idx" ON "emails"("sentAt");

-- CreateIndex
CREATE INDEX "emails_campaignType_idx" ON "emails"("campaignType");

-- CreateIndex
CREATE INDEX "emails_promotionTypeId_idx" ON "emails"("promotionTypeId");

-- CreateIndex
CREATE INDEX "emails_categoryId_idx" ON "emails"("categoryId");

-- CreateIndex
CREATE INDEX "emails_eventId_idx" ON "emails"("eventId");

-- CreateIndex
CREATE UNIQUE INDEX "brandtrackers_facebookPageId_key" ON "brandtrackers"("facebookPageId");

-- CreateIndex
CREATE UNIQUE INDEX "brandtrackers_websiteId_key" ON "brandtrackers"("websiteId");

-- CreateIndex
CREATE INDEX "brandtracker_websites_shopId_idx" ON "brandtracker_websites"("shopId");

-- CreateIndex
CREATE INDEX "brandtracker_folders_workspaceId_rank_idx" ON "brandtracker_folders"("workspaceId", "rank");

-- CreateIndex
CREATE UNIQUE INDEX "brandtracker_folders_workspaceId_name_key" ON "brandtracker_folders"("workspaceId", "name");

-- CreateIndex
CREATE INDEX "brandtracker_links_workspaceId_isActive_idx" ON "brandtracker_links"("workspaceId", "isActive");

-- CreateIndex
CREATE INDEX "brandtracker_links_folderId_idx" ON "brandtracker_links"("folderId");

-- CreateIndex
CREATE UNIQUE INDEX "brandtracker_links_workspaceId_brandtrackerId_key" ON "brandtracker_links"("workspaceId", "brandtrackerId");

-- CreateIndex
CREATE INDEX "boards_workspaceId_scope_archivedAt_idx" ON "boards"("workspaceId", "scope", "archivedAt");

-- CreateIndex
CREATE INDEX "boards_parentBoardId_idx" ON "boards"("parentBoardId");

-- CreateIndex
CREATE UNIQUE INDEX "board_items_number_key" ON "board_items"("number");

-- CreateIndex
CREATE INDEX "board_items_workspaceId_scope_itemType_createdAt_idx" ON "board_items"("workspaceId", "scope", "itemType", "createdAt");

-- CreateIndex
CREATE INDEX "board_items_boardId_idx" ON "board_items"("boardId");

-- CreateIndex
CREATE INDEX "board_items_adId_idx" ON "board_items"("adId");

-- CreateIndex
CREATE INDEX "board_items_shopId_idx" ON "board_items"("shopId");

-- CreateIndex
CREATE INDEX "board_items_emailId_idx" ON "board_items"("emailId");

-- CreateIndex
CREATE UNIQUE INDEX "board_shares_slug_key" ON "board_shares"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "board_shares_boardId_key" ON "board_shares"("boardId");

-- CreateIndex
CREATE INDEX "audit_events_workspaceId_createdAt_idx" ON "audit_events"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "audit_events_entityType_entityId_idx" ON "audit_events"("entityType", "entityId");

-- CreateIndex
CREATE INDEX "advertisers_reach30d_idx" ON "advertisers"("reach30d");

-- CreateIndex
CREATE INDEX "advertisers_liveAdsCount_idx" ON "advertisers"("liveAdsCount");

-- CreateIndex
CREATE INDEX "advertisers_pageCreatedAt_idx" ON "advertisers"("pageCreatedAt");

-- CreateIndex
CREATE INDEX "shops_monthlyVisits_idx" ON "shops"("monthlyVisits");

-- CreateIndex
CREATE INDEX "shops_productsCount_idx" ON "shops"("productsCount");

-- CreateIndex
CREATE INDEX "shops_trafficGrowth30d_idx" ON "shops"("trafficGrowth30d");

-- CreateIndex
CREATE INDEX "shops_createdAt_idx" ON "shops"("createdAt");

-- CreateIndex
CREATE INDEX "shops_countryCode_idx" ON "shops"("countryCode");

-- CreateIndex
CREATE INDEX "shops_mainMarket_idx" ON "shops"("mainMarket");

-- CreateIndex
CREATE INDEX "shops_themeId_idx" ON "shops"("themeId");

-- CreateIndex
CREATE INDEX "shops_categoryIds_idx" ON "shops" USING GIN ("categoryIds");

-- CreateIndex
CREATE INDEX "ads_landingPageId_idx" ON "ads"("landingPageId");

-- CreateIndex
CREATE INDEX "ads_partnerPageId_idx" ON "ads"("partnerPageId");

-- AddForeignKey
ALTER TABLE "shops" ADD CONSTRAINT "shops_themeId_fkey" FOREIGN KEY ("themeId") REFERENCES "themes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ads" ADD CONSTRAINT "ads_landingPageId_fkey" FOREIGN KEY ("landingPageId") REFERENCES "landing_pages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_traffic_months" ADD CONSTRAINT "shop_traffic_months_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_traffic_countries" ADD CONSTRAINT "shop_traffic_countries_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_social_days" ADD CONSTRAINT "shop_social_days_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_sales_readings" ADD CONSTRAINT "shop_sales_readings_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_apps" ADD CONSTRAINT "shop_apps_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_apps" ADD CONSTRAINT "shop_apps_appId_fkey" FOREIGN KEY ("appId") REFERENCES "shopify_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_technologies" ADD CONSTRAINT "shop_technologies_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_technologies" ADD CONSTRAINT "shop_technologies_technologyId_fkey" FOREIGN KEY ("technologyId") REFERENCES "technologies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_pixels" ADD CONSTRAINT "shop_pixels_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shop_pixels" ADD CONSTRAINT "shop_pixels_pixelId_fkey" FOREIGN KEY ("pixelId") REFERENCES "pixels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "landing_pages" ADD CONSTRAINT "landing_pages_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "landing_page_technologies" ADD CONSTRAINT "landing_page_technologies_landingPageId_fkey" FOREIGN KEY ("landingPageId") REFERENCES "landing_pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "landing_page_technologies" ADD CONSTRAINT "landing_page_technologies_technologyId_fkey" FOREIGN KEY ("technologyId") REFERENCES "technologies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_weeks" ADD CONSTRAINT "product_weeks_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_promotionTypeId_fkey" FOREIGN KEY ("promotionTypeId") REFERENCES "email_promotion_types"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "email_categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "email_events"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtrackers" ADD CONSTRAINT "brandtrackers_websiteId_fkey" FOREIGN KEY ("websiteId") REFERENCES "shops"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_websites" ADD CONSTRAINT "brandtracker_websites_brandtrackerId_fkey" FOREIGN KEY ("brandtrackerId") REFERENCES "brandtrackers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_websites" ADD CONSTRAINT "brandtracker_websites_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_folders" ADD CONSTRAINT "brandtracker_folders_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_links" ADD CONSTRAINT "brandtracker_links_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_links" ADD CONSTRAINT "brandtracker_links_brandtrackerId_fkey" FOREIGN KEY ("brandtrackerId") REFERENCES "brandtrackers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_links" ADD CONSTRAINT "brandtracker_links_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "brandtracker_folders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "boards" ADD CONSTRAINT "boards_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "boards" ADD CONSTRAINT "boards_parentBoardId_fkey" FOREIGN KEY ("parentBoardId") REFERENCES "boards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "board_items" ADD CONSTRAINT "board_items_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "board_items" ADD CONSTRAINT "board_items_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "boards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "board_items" ADD CONSTRAINT "board_items_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "emails"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "board_shares" ADD CONSTRAINT "board_shares_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "board_shares" ADD CONSTRAINT "board_shares_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "boards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
