-- CreateTable
CREATE TABLE "credit_reservations" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "recurring" INTEGER NOT NULL,
    "topup" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_records" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "credentialId" UUID NOT NULL,
    "requestId" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "cost" INTEGER NOT NULL,
    "recurring" INTEGER NOT NULL,
    "topup" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "credit_reservations_createdAt_idx" ON "credit_reservations"("createdAt");

-- CreateIndex
CREATE INDEX "usage_records_workspaceId_createdAt_idx" ON "usage_records"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "usage_records_requestId_idx" ON "usage_records"("requestId");

-- AddForeignKey
ALTER TABLE "credit_reservations" ADD CONSTRAINT "credit_reservations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
