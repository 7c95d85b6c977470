-- Issue #37: a brand's changes between two dates (GET /v1/brandtrackers/{id}/changes, /advertisers/{id}/changes,
-- /shops/{id}/changes) read the events of its Facebook page and its shops whose "occurredAt" falls in the window. The
-- feed's indexes are by (subject, seq): they would read every event the page or shop ever had. These two read only the
-- window's. Partial, and an event names a page or a shop, not both (an ad's events the page, a product's or an app's the
-- shop): each event costs its writer one more index entry.
CREATE INDEX "market_events_advertiserId_occurredAt_idx" ON "market_events" ("advertiserId", "occurredAt") WHERE "advertiserId" IS NOT NULL;
CREATE INDEX "market_events_shopId_occurredAt_idx" ON "market_events" ("shopId", "occurredAt") WHERE "shopId" IS NOT NULL;
