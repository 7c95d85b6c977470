-- AlterTable
ALTER TABLE "webhooks" ADD COLUMN     "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failingSince" TIMESTAMPTZ(3),
ADD COLUMN     "lastSuccessAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "queuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- The deliveries still to make (waiting or in flight) of each endpoint, in order: an endpoint's head (the next one
-- due), its claim of the next deliveries and the delivery jobs' sweep of due heads read them without the delivered
-- and failed ones.
CREATE INDEX "webhook_deliveries_open_idx" ON "webhook_deliveries" ("webhookId", "id") WHERE "status" IN ('pending', 'sending');
