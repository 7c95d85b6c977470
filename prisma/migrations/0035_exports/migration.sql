-- CreateTable
CREATE TABLE "exports" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "credentialId" UUID NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "format" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'queued',
    "rowsWritten" INTEGER NOT NULL DEFAULT 0,
    "totalRows" INTEGER,
    "pricePerRow" INTEGER NOT NULL DEFAULT 0,
    "priceHeld" INTEGER NOT NULL DEFAULT 0,
    "priceCharged" INTEGER NOT NULL DEFAULT 0,
    "holds" JSONB NOT NULL DEFAULT '[]',
    "fileName" TEXT,
    "fileBytes" BIGINT,
    "etag" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "heartbeatAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3),

    CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "exports_workspaceId_createdAt_idx" ON "exports"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "exports_state_idx" ON "exports"("state");

-- AddForeignKey
ALTER TABLE "exports" ADD CONSTRAINT "exports_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
