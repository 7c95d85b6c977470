-- CreateEnum
CREATE TYPE "TikTokItemType" AS ENUM ('ad', 'organic');

-- CreateEnum
CREATE TYPE "TikTokItemStatus" AS ENUM ('active', 'inactive', 'unknown');

-- CreateEnum
CREATE TYPE "TikTokMediaType" AS ENUM ('image', 'video', 'carousel', 'unknown');

-- CreateEnum
CREATE TYPE "GoogleAdStatus" AS ENUM ('active', 'inactive');

-- CreateEnum
CREATE TYPE "GoogleAdNetwork" AS ENUM ('search', 'shopping', 'maps', 'youtube', 'other');

-- CreateEnum
CREATE TYPE "GoogleAdMediaType" AS ENUM ('image', 'video');

-- AlterTable
ALTER TABLE "shops" ADD COLUMN     "categoryIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "countryCode" TEXT,
ADD COLUMN     "productsCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trafficGrowth30d" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "tiktok_profiles" (
    "id" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "avatarUrl" TEXT,
    "bio" TEXT,
    "bioUrl" TEXT,
    "accountType" TEXT NOT NULL,
    "secUid" TEXT NOT NULL,
    "followers" BIGINT NOT NULL DEFAULT 0,
    "following" INTEGER NOT NULL DEFAULT 0,
    "totalTikToks" INTEGER NOT NULL DEFAULT 0,
    "newTikToks" INTEGER NOT NULL DEFAULT 0,
    "percentAds" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "views" BIGINT NOT NULL DEFAULT 0,
    "likes" BIGINT NOT NULL DEFAULT 0,
    "pageCreation" TIMESTAMPTZ(3),
    "shopId" UUID,

    CONSTRAINT "tiktok_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tiktok_music" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "author" TEXT NOT NULL,

    CONSTRAINT "tiktok_music_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tiktok_items" (
    "id" TEXT NOT NULL,
    "type" "TikTokItemType" NOT NULL,
    "status" "TikTokItemStatus" NOT NULL,
    "isPinned" BOOLEAN NOT NULL DEFAULT false,
    "publishedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "indexedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "mediaType" "TikTokMediaType" NOT NULL,
    "thumbnailUrl" TEXT,
    "mediaUrl" TEXT,
    "videoUrl" TEXT,
    "imageUrls" TEXT[],
    "durationSec" DOUBLE PRECISION,
    "description" TEXT NOT NULL DEFAULT '',
    "language" TEXT,
    "category" TEXT,
    "hashtags" TEXT[],
    "countries" TEXT[],
    "views" BIGINT NOT NULL DEFAULT 0,
    "likes" BIGINT NOT NULL DEFAULT 0,
    "comments" INTEGER NOT NULL DEFAULT 0,
    "saves" INTEGER NOT NULL DEFAULT 0,
    "shares" INTEGER NOT NULL DEFAULT 0,
    "reposts" INTEGER NOT NULL DEFAULT 0,
    "engagementRate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "rank" INTEGER,
    "rankPercent" DOUBLE PRECISION,
    "relevanceScore" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "deltaRank3d" INTEGER,
    "deltaRank7d" INTEGER,
    "deltaRank14d" INTEGER,
    "deltaRank30d" INTEGER,
    "profileId" TEXT NOT NULL,
    "musicId" TEXT,
    "shopId" UUID,

    CONSTRAINT "tiktok_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tiktok_pins" (
    "itemId" TEXT NOT NULL,
    "isCurrent" BOOLEAN NOT NULL,
    "firstPinnedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastPinnedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastUnpinnedAt" TIMESTAMPTZ(3),

    CONSTRAINT "tiktok_pins_pkey" PRIMARY KEY ("itemId")
);

-- CreateTable
CREATE TABLE "tiktok_page_snapshots" (
    "profileId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "recordedAt" TIMESTAMPTZ(3) NOT NULL,
    "adsCount" INTEGER NOT NULL,
    "organicCount" INTEGER NOT NULL,
    "totalTikToks" INTEGER NOT NULL,
    "dailyViews" BIGINT NOT NULL,
    "dailyLikes" BIGINT NOT NULL,
    "dailyFollowers" INTEGER NOT NULL,

    CONSTRAINT "tiktok_page_snapshots_pkey" PRIMARY KEY ("profileId","date")
);

-- CreateTable
CREATE TABLE "categories" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "parentId" INTEGER,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "google_advertisers" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "shopName" TEXT,
    "domain" TEXT,
    "websiteId" UUID,
    "logoUrl" TEXT,
    "categoryIds" INTEGER[],
    "liveAdsAll" INTEGER NOT NULL DEFAULT 0,
    "liveAdsSearch" INTEGER NOT NULL DEFAULT 0,
    "liveAdsShopping" INTEGER NOT NULL DEFAULT 0,
    "liveAdsMaps" INTEGER NOT NULL DEFAULT 0,
    "liveAdsYoutube" INTEGER NOT NULL DEFAULT 0,
    "liveAdsOther" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "google_advertisers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "google_ads" (
    "id" TEXT NOT NULL,
    "googleAdId" TEXT NOT NULL,
    "status" "GoogleAdStatus" NOT NULL,
    "network" "GoogleAdNetwork" NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "mediaType" "GoogleAdMediaType" NOT NULL,
    "mediaUrl" TEXT,
    "format" TEXT NOT NULL,
    "reach" BIGINT NOT NULL DEFAULT 0,
    "reachLowerBound" BIGINT NOT NULL DEFAULT 0,
    "reachUpperBound" BIGINT NOT NULL DEFAULT 0,
    "mainCountry" TEXT,
    "countryShares" JSONB NOT NULL,
    "remarketing" BOOLEAN NOT NULL DEFAULT false,
    "interest" BOOLEAN NOT NULL DEFAULT false,
    "advertiserId" TEXT NOT NULL,

    CONSTRAINT "google_ads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tiktok_profiles_handle_key" ON "tiktok_profiles"("handle");

-- CreateIndex
CREATE INDEX "tiktok_profiles_shopId_idx" ON "tiktok_profiles"("shopId");

-- CreateIndex
CREATE INDEX "tiktok_profiles_followers_idx" ON "tiktok_profiles"("followers");

-- CreateIndex
CREATE INDEX "tiktok_items_publishedAt_idx" ON "tiktok_items"("publishedAt");

-- CreateIndex
CREATE INDEX "tiktok_items_updatedAt_idx" ON "tiktok_items"("updatedAt");

-- CreateIndex
CREATE INDEX "tiktok_items_views_idx" ON "tiktok_items"("views");

-- CreateIndex
CREATE INDEX "tiktok_items_likes_idx" ON "tiktok_items"("likes");

-- CreateIndex
CREATE INDEX "tiktok_items_engagementRate_idx" ON "tiktok_items"("engagementRate");

-- CreateIndex
CREATE INDEX "tiktok_items_profileId_idx" ON "tiktok_items"("profileId");

-- CreateIndex
CREATE INDEX "tiktok_items_shopId_idx" ON "tiktok_items"("shopId");

-- CreateIndex
CREATE INDEX "tiktok_items_musicId_idx" ON "tiktok_items"("musicId");

-- CreateIndex
CREATE INDEX "tiktok_items_type_status_idx" ON "tiktok_items"("type", "status");

-- CreateIndex
CREATE INDEX "tiktok_items_hashtags_idx" ON "tiktok_items" USING GIN ("hashtags");

-- CreateIndex
CREATE INDEX "tiktok_items_countries_idx" ON "tiktok_items" USING GIN ("countries");

-- CreateIndex
CREATE INDEX "google_advertisers_websiteId_idx" ON "google_advertisers"("websiteId");

-- CreateIndex
CREATE INDEX "google_advertisers_categoryIds_idx" ON "google_advertisers" USING GIN ("categoryIds");

-- CreateIndex
CREATE UNIQUE INDEX "google_ads_googleAdId_key" ON "google_ads"("googleAdId");

-- CreateIndex
CREATE INDEX "google_ads_firstSeenAt_idx" ON "google_ads"("firstSeenAt");

-- CreateIndex
CREATE INDEX "google_ads_reach_idx" ON "google_ads"("reach");

-- CreateIndex
CREATE INDEX "google_ads_advertiserId_idx" ON "google_ads"("advertiserId");

-- CreateIndex
CREATE INDEX "google_ads_status_network_idx" ON "google_ads"("status", "network");

-- CreateIndex
CREATE INDEX "google_ads_mainCountry_idx" ON "google_ads"("mainCountry");

-- AddForeignKey
ALTER TABLE "tiktok_profiles" ADD CONSTRAINT "tiktok_profiles_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tiktok_items" ADD CONSTRAINT "tiktok_items_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "tiktok_profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tiktok_items" ADD CONSTRAINT "tiktok_items_musicId_fkey" FOREIGN KEY ("musicId") REFERENCES "tiktok_music"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tiktok_items" ADD CONSTRAINT "tiktok_items_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tiktok_pins" ADD CONSTRAINT "tiktok_pins_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "tiktok_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tiktok_page_snapshots" ADD CONSTRAINT "tiktok_page_snapshots_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "tiktok_profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "google_advertisers" ADD CONSTRAINT "google_advertisers_websiteId_fkey" FOREIGN KEY ("websiteId") REFERENCES "shops"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "google_ads" ADD CONSTRAINT "google_ads_advertiserId_fkey" FOREIGN KEY ("advertiserId") REFERENCES "google_advertisers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
