-- CreateTable
CREATE TABLE "market_events" (
    "id" BIGSERIAL NOT NULL,
    "seq" BIGINT,
    "type" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dedupeKey" TEXT,
    "workspaceId" UUID,
    "advertiserId" TEXT,
    "adId" TEXT,
    "shopId" UUID,
    "productId" TEXT,
    "savedSearchId" UUID,
    "webhookId" UUID,
    "data" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "market_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "eventTypes" TEXT[],
    "filter" JSONB,
    "description" TEXT,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" TIMESTAMPTZ(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledAt" TIMESTAMPTZ(3),
    "disabledReason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "webhookId" UUID NOT NULL,
    "eventId" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAttemptAt" TIMESTAMPTZ(3),
    "responseStatus" INTEGER,
    "latencyMs" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_searches" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "notifyLeft" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_searches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_search_matches" (
    "savedSearchId" UUID NOT NULL,
    "rowId" TEXT NOT NULL,
    "matchedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_search_matches_pkey" PRIMARY KEY ("savedSearchId","rowId")
);

-- CreateIndex
CREATE UNIQUE INDEX "market_events_dedupeKey_key" ON "market_events"("dedupeKey");

-- The feed's order, once the dispatcher has given it, and its lookups by what a workspace follows: partial, so that an
-- event costs its writer only the indexes of the subjects it has.
CREATE UNIQUE INDEX "market_events_seq_key" ON "market_events"("seq") WHERE "seq" IS NOT NULL;
CREATE INDEX "market_events_advertiserId_seq_idx" ON "market_events"("advertiserId", "seq") WHERE "advertiserId" IS NOT NULL;
CREATE INDEX "market_events_adId_seq_idx" ON "market_events"("adId", "seq") WHERE "adId" IS NOT NULL;
CREATE INDEX "market_events_shopId_seq_idx" ON "market_events"("shopId", "seq") WHERE "shopId" IS NOT NULL;
CREATE INDEX "market_events_productId_seq_idx" ON "market_events"("productId", "seq") WHERE "productId" IS NOT NULL;
CREATE INDEX "market_events_workspaceId_seq_idx" ON "market_events"("workspaceId", "seq") WHERE "workspaceId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "webhooks_workspaceId_createdAt_idx" ON "webhooks"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhookId_status_id_idx" ON "webhook_deliveries"("webhookId", "status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_webhookId_eventId_key" ON "webhook_deliveries"("webhookId", "eventId");

-- CreateIndex
CREATE INDEX "saved_searches_workspaceId_createdAt_idx" ON "saved_searches"("workspaceId", "createdAt");

-- AddForeignKey
ALTER TABLE "market_events" ADD CONSTRAINT "market_events_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_savedSearchId_fkey" FOREIGN KEY ("savedSearchId") REFERENCES "saved_searches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The dispatcher's queue: the events not yet handed out, in the order they were written.
CREATE INDEX "market_events_undispatched_idx" ON "market_events" ("id") WHERE "seq" IS NULL;

-- What a workspace follows, the one definition the feed, the webhooks and the live subscriptions share: the pages
-- and shops of its active brandtrackers (with the brandtracker, for the feed's filter), and the ads, shops, products
-- and pages saved on its workspace boards and favorites (personal ones are left out: a workspace's feed would show
-- what one member saved for themself). An event concerns a workspace when one of its subjects is one of these, or
-- when it is the workspace's own (its `workspaceId`).
CREATE VIEW "workspace_interests" AS
  SELECT l."workspaceId", 'advertiser'::text AS "kind", b."facebookPageId" AS "key", l."brandtrackerId"
  FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId"
  WHERE l."isActive" AND b."facebookPageId" IS NOT NULL
  UNION ALL
  SELECT l."workspaceId", 'shop', b."websiteId"::text, l."brandtrackerId"
  FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId"
  WHERE l."isActive" AND b."websiteId" IS NOT NULL
  UNION ALL
  SELECT l."workspaceId", 'shop', w."shopId"::text, l."brandtrackerId"
  FROM "brandtracker_links" l JOIN "brandtracker_websites" w ON w."brandtrackerId" = l."brandtrackerId"
  WHERE l."isActive"
  UNION ALL
  SELECT i."workspaceId", i."itemType"::text, coalesce(i."adId", i."shopId"::text, i."productId", i."advertiserId"), NULL::uuid
  FROM "board_items" i
  WHERE i."scope" = 'workspace' AND i."itemType" IN ('ad', 'shop', 'product', 'advertiser');
