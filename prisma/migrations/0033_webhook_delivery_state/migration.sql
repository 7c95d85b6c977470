-- AlterTable
ALTER TABLE "webhooks" ADD COLUMN     "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failingSince" TIMESTAMPTZ(3),
ADD COLUMN     "lastSuccessAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "queuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- The deliveries still to make (waiting or in flight), by when they are due: the delivery jobs' sweep finds the
-- endpoints whose head is due without reading the delivered and failed ones.
CREATE INDEX "webhook_deliveries_open_nextAttemptAt_idx" ON "webhook_deliveries" ("nextAttemptAt") WHERE "status" IN ('pending', 'sending');
