-- CreateTable
CREATE TABLE "brandtracker_quotas" (
    "workspaceId" UUID NOT NULL,
    "activeLimit" INTEGER NOT NULL DEFAULT 100,
    "operationsLimit" INTEGER NOT NULL DEFAULT 200,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brandtracker_quotas_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateTable
CREATE TABLE "brandtracker_quota_operations" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "affectedCount" INTEGER NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brandtracker_quota_operations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "brandtracker_quota_operations_workspaceId_createdAt_idx" ON "brandtracker_quota_operations"("workspaceId", "createdAt");

-- (ads by page and first-seen date: "ads_advertiserId_firstSeenAt_idx" of migration 0010 serves both directions)

-- CreateIndex
CREATE INDEX "ads_advertiserId_status_idx" ON "ads"("advertiserId", "status");

-- AddForeignKey
ALTER TABLE "brandtracker_quotas" ADD CONSTRAINT "brandtracker_quotas_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "brandtracker_quota_operations" ADD CONSTRAINT "brandtracker_quota_operations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
