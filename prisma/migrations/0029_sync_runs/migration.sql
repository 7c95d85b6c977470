-- Issue #35: the runs of the source connectors, what the Shopify connector keeps of each storefront between runs,
-- and the provenance of the rows they bring in (the source and the first fetch; the last fetch is a snapshot's).

-- CreateEnum
CREATE TYPE "SyncRunStatus" AS ENUM ('running', 'succeeded', 'failed', 'interrupted');

-- AlterTable
ALTER TABLE "ads" ADD COLUMN     "fetchedFrom" TEXT,
ADD COLUMN     "firstFetchedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "ad_reach_days" ADD COLUMN     "fetchedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "tiktok_items" ADD COLUMN     "fetchedFrom" TEXT,
ADD COLUMN     "firstFetchedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "google_ads" ADD COLUMN     "fetchedFrom" TEXT,
ADD COLUMN     "firstFetchedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "fetchedFrom" TEXT,
ADD COLUMN     "firstFetchedAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "sync_runs" (
    "id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "query" JSONB NOT NULL,
    "queryKey" TEXT NOT NULL,
    "status" "SyncRunStatus" NOT NULL DEFAULT 'running',
    "trigger" TEXT NOT NULL DEFAULT 'cli',
    "asOf" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    "cursor" JSONB,
    "pages" INTEGER NOT NULL DEFAULT 0,
    "fetched" INTEGER NOT NULL DEFAULT 0,
    "inserted" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "skips" JSONB NOT NULL DEFAULT '{}',
    "errors" JSONB NOT NULL DEFAULT '[]',
    "waits" INTEGER NOT NULL DEFAULT 0,
    "waitedMs" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shop_fetch_states" (
    "domain" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'ok',
    "lastStatus" INTEGER,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "retryAt" TIMESTAMPTZ(3),
    "validators" JSONB NOT NULL DEFAULT '{}',
    "lastFetchedAt" TIMESTAMPTZ(3),
    "lastChangedAt" TIMESTAMPTZ(3),

    CONSTRAINT "shop_fetch_states_pkey" PRIMARY KEY ("domain")
);

-- CreateIndex
CREATE INDEX "sync_runs_source_startedAt_idx" ON "sync_runs"("source", "startedAt");

-- CreateIndex
CREATE INDEX "sync_runs_status_idx" ON "sync_runs"("status");

-- Written by hand: at most one run per source is running, across every instance of the server (on PGlite the
-- connections share one backend, so a session advisory lock could not tell two runners apart; a row can).
CREATE UNIQUE INDEX "sync_runs_one_running_per_source" ON "sync_runs"("source") WHERE "status" = 'running';
