-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ApiAccessStatus" AS ENUM ('enabled', 'disabled', 'suspended');

-- CreateEnum
CREATE TYPE "WorkspaceRole" AS ENUM ('owner', 'admin', 'member', 'readonly');

-- CreateEnum
CREATE TYPE "AccessLevel" AS ENUM ('full_access', 'delegated_user');

-- CreateEnum
CREATE TYPE "AdStatus" AS ENUM ('active', 'inactive', 'unknown');

-- CreateEnum
CREATE TYPE "AdMediaType" AS ENUM ('image', 'video', 'carousel', 'dco', 'unknown');

-- CreateTable
CREATE TABLE "workspaces" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspace_api_access" (
    "workspaceId" UUID NOT NULL,
    "status" "ApiAccessStatus" NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_api_access_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateTable
CREATE TABLE "workspace_users" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "fullName" TEXT NOT NULL,
    "avatarUrl" TEXT,
    "role" "WorkspaceRole" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "workspace_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credentials" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "keyPrefix" TEXT NOT NULL,
    "keyHash" BYTEA NOT NULL,
    "accessLevel" "AccessLevel" NOT NULL,
    "delegatedUserId" UUID,
    "expiresAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),

    CONSTRAINT "credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_accounts" (
    "workspaceId" UUID NOT NULL,
    "planCode" TEXT,
    "billingConfigured" BOOLEAN NOT NULL DEFAULT false,
    "currentPeriodStart" TIMESTAMPTZ(3),
    "currentPeriodEnd" TIMESTAMPTZ(3),
    "recurringLimit" INTEGER NOT NULL DEFAULT 10000,
    "recurringUsed" INTEGER NOT NULL DEFAULT 0,
    "topupBalance" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3),

    CONSTRAINT "credit_accounts_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateTable
CREATE TABLE "credit_ledger" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "credentialId" UUID,
    "pool" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "advertisers" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "logoUrl" TEXT,
    "category" TEXT,
    "pageCreatedAt" TIMESTAMPTZ(3),
    "facebookLikes" INTEGER NOT NULL DEFAULT 0,
    "instagramFollowers" INTEGER NOT NULL DEFAULT 0,
    "instagramUsername" TEXT,
    "liveAdsCount" INTEGER NOT NULL DEFAULT 0,
    "reach30d" BIGINT NOT NULL DEFAULT 0,
    "totalReach" BIGINT NOT NULL DEFAULT 0,
    "countriesCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "advertisers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "advertiser_metric_days" (
    "advertiserId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "facebookLikes" INTEGER NOT NULL,
    "instagramFollowers" INTEGER NOT NULL,
    "totalImpressions" BIGINT NOT NULL,

    CONSTRAINT "advertiser_metric_days_pkey" PRIMARY KEY ("advertiserId","date")
);

-- CreateTable
CREATE TABLE "shops" (
    "id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "monthlyVisits" INTEGER NOT NULL DEFAULT 0,
    "categories" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shops_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "advertiser_shops" (
    "advertiserId" TEXT NOT NULL,
    "shopId" UUID NOT NULL,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "advertiser_shops_pkey" PRIMARY KEY ("advertiserId","shopId")
);

-- CreateTable
CREATE TABLE "ads" (
    "id" TEXT NOT NULL,
    "collationId" TEXT NOT NULL,
    "isGroupLead" BOOLEAN NOT NULL DEFAULT true,
    "platform" TEXT NOT NULL DEFAULT 'facebook',
    "status" "AdStatus" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "mediaType" "AdMediaType" NOT NULL,
    "thumbnailUrl" TEXT,
    "mediaUrl" TEXT,
    "title" TEXT,
    "body" TEXT,
    "callToAction" TEXT,
    "landingPageUrl" TEXT,
    "landingPageDomain" TEXT,
    "ctaDescription" TEXT,
    "ctaLinkDescription" TEXT,
    "reach" BIGINT NOT NULL DEFAULT 0,
    "aggregatedReach" BIGINT NOT NULL DEFAULT 0,
    "duplicates" INTEGER NOT NULL DEFAULT 1,
    "reachDelta1d" BIGINT NOT NULL DEFAULT 0,
    "reachDelta7d" BIGINT NOT NULL DEFAULT 0,
    "reachDelta30d" BIGINT NOT NULL DEFAULT 0,
    "targetedCountries" TEXT[],
    "mainCountry" TEXT,
    "gender" TEXT NOT NULL DEFAULT 'all',
    "ageMin" INTEGER,
    "ageMax" INTEGER,
    "positionInPage" INTEGER,
    "currentRank" INTEGER,
    "rankDelta" INTEGER,
    "improvementPct" DOUBLE PRECISION,
    "isEuAd" BOOLEAN NOT NULL DEFAULT false,
    "isLowReach" BOOLEAN NOT NULL DEFAULT false,
    "isMediaChanged" BOOLEAN NOT NULL DEFAULT false,
    "hasPartnerBadge" BOOLEAN NOT NULL DEFAULT false,
    "advertiserId" TEXT NOT NULL,

    CONSTRAINT "ads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ad_transcripts" (
    "adId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "languageConfidence" DOUBLE PRECISION NOT NULL,
    "segments" JSONB NOT NULL,
    "fullText" TEXT NOT NULL,

    CONSTRAINT "ad_transcripts_pkey" PRIMARY KEY ("adId")
);

-- CreateTable
CREATE TABLE "ad_hooks" (
    "adId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceDescription" TEXT NOT NULL,
    "isFallback" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ad_hooks_pkey" PRIMARY KEY ("adId")
);

-- CreateTable
CREATE TABLE "ad_reach_days" (
    "adId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "reach" BIGINT NOT NULL,
    "rank" INTEGER,

    CONSTRAINT "ad_reach_days_pkey" PRIMARY KEY ("adId","date")
);

-- CreateTable
CREATE TABLE "ad_shares" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "adId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ad_shares_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "workspaces_slug_key" ON "workspaces"("slug");

-- CreateIndex
CREATE INDEX "workspace_users_workspaceId_idx" ON "workspace_users"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "credentials_keyPrefix_key" ON "credentials"("keyPrefix");

-- CreateIndex
CREATE INDEX "credentials_workspaceId_idx" ON "credentials"("workspaceId");

-- CreateIndex
CREATE INDEX "credit_ledger_workspaceId_createdAt_idx" ON "credit_ledger"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "advertisers_name_idx" ON "advertisers"("name");

-- CreateIndex
CREATE UNIQUE INDEX "shops_domain_key" ON "shops"("domain");

-- CreateIndex
CREATE INDEX "advertiser_shops_shopId_idx" ON "advertiser_shops"("shopId");

-- CreateIndex
CREATE INDEX "ads_advertiserId_idx" ON "ads"("advertiserId");

-- CreateIndex
CREATE INDEX "ads_collationId_idx" ON "ads"("collationId");

-- CreateIndex
CREATE INDEX "ads_firstSeenAt_idx" ON "ads"("firstSeenAt");

-- CreateIndex
CREATE INDEX "ads_reach_idx" ON "ads"("reach");

-- CreateIndex
CREATE INDEX "ads_status_mediaType_idx" ON "ads"("status", "mediaType");

-- CreateIndex
CREATE INDEX "ad_reach_days_date_idx" ON "ad_reach_days"("date");

-- CreateIndex
CREATE UNIQUE INDEX "ad_shares_slug_key" ON "ad_shares"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "ad_shares_workspaceId_adId_key" ON "ad_shares"("workspaceId", "adId");

-- AddForeignKey
ALTER TABLE "workspace_api_access" ADD CONSTRAINT "workspace_api_access_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_users" ADD CONSTRAINT "workspace_users_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_delegatedUserId_fkey" FOREIGN KEY ("delegatedUserId") REFERENCES "workspace_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "advertiser_metric_days" ADD CONSTRAINT "advertiser_metric_days_advertiserId_fkey" FOREIGN KEY ("advertiserId") REFERENCES "advertisers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "advertiser_shops" ADD CONSTRAINT "advertiser_shops_advertiserId_fkey" FOREIGN KEY ("advertiserId") REFERENCES "advertisers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "advertiser_shops" ADD CONSTRAINT "advertiser_shops_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ads" ADD CONSTRAINT "ads_advertiserId_fkey" FOREIGN KEY ("advertiserId") REFERENCES "advertisers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_transcripts" ADD CONSTRAINT "ad_transcripts_adId_fkey" FOREIGN KEY ("adId") REFERENCES "ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_hooks" ADD CONSTRAINT "ad_hooks_adId_fkey" FOREIGN KEY ("adId") REFERENCES "ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_reach_days" ADD CONSTRAINT "ad_reach_days_adId_fkey" FOREIGN KEY ("adId") REFERENCES "ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_shares" ADD CONSTRAINT "ad_shares_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ad_shares" ADD CONSTRAINT "ad_shares_adId_fkey" FOREIGN KEY ("adId") REFERENCES "ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
