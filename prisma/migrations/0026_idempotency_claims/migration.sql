-- Keys become the caller's (credential) and claims become leases: the claiming request, when it claimed, and the
-- results of the writes committed under the key. Keys kept so far belong to no credential and are dropped: a repeat
-- of a write made before this migration, within its 24 hours, runs again.
DELETE FROM "idempotency_keys";

-- AlterTable
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_pkey",
ADD COLUMN     "claimedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "credentialId" UUID NOT NULL,
ADD COLUMN     "requestId" TEXT NOT NULL,
ADD COLUMN     "writes" JSONB NOT NULL DEFAULT '[]',
ADD CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("workspaceId", "credentialId", "key");
