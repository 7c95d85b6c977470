-- Issue #37: a brand's changes (GET /v1/brandtrackers/{id}/changes, and an advertiser's or a shop's) count and page
-- each section by an index: the brand's entries of the window, and one entry per domain of its page. Before, the statement read every event
-- of the brand's window and the page's inactive ads from the tables (the bench's largest brand at the large scale:
-- 20-30 ms a request; with these, ~5 ms).
-- Costs: the indexes are built inside the migration's transaction (writes to "ads" and "market_events" wait for
-- them: seconds at the bench's large scale, 1 M ads; plan a quiet moment on a bigger market). "lastSeenAt" becomes an
-- indexed column of "ads": the daily update of a running ad's last day can no longer be a HOT update (most running
-- ads' daily update also changes their reach, an indexed column, so it was not one already). Each event is written
-- into two more indexes (three for a copy change that changes the hook).

-- The opening line of a copy (up to its first sentence end or line break): the hook of a copy change.
CREATE FUNCTION "opening_line"(body text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT nullif(btrim(substring(coalesce(body, '') from '^\s*([^\n.!?]*[.!?]?)')), '') $$;

-- adsStopped: the page's inactive ads by their last day, newest first.
CREATE INDEX "ads_advertiserId_stopped_idx" ON "ads" ("advertiserId", "lastSeenAt" DESC, "id" DESC) WHERE "status" = 'inactive';
-- newLandingPages: the page's domains one after the other, and the first ad of each started in or before the window.
CREATE INDEX "ads_advertiserId_landingPageDomain_idx" ON "ads" ("advertiserId", "landingPageDomain", "firstSeenAt");

-- The market's events of a page or a shop by type and time: each section's count and newest items.
CREATE INDEX "market_events_advertiserId_type_occurredAt_idx" ON "market_events" ("advertiserId", "type", "occurredAt")
  WHERE "advertiserId" IS NOT NULL AND "workspaceId" IS NULL;
CREATE INDEX "market_events_shopId_type_occurredAt_idx" ON "market_events" ("shopId", "type", "occurredAt")
  WHERE "shopId" IS NOT NULL AND "workspaceId" IS NULL;
-- hookChanges: the copy changes that changed the hook (the statement writes this predicate as it is written here, the
-- type as a literal, so that the planner proves its rows are the index's, in a generic plan too).
CREATE INDEX "market_events_hook_changes_idx" ON "market_events" ("advertiserId", "occurredAt")
  WHERE "advertiserId" IS NOT NULL AND "workspaceId" IS NULL AND "type" = 'ad.copy_changed'
    AND opening_line("data"->'before'->>'body') IS DISTINCT FROM opening_line("data"->'after'->>'body');
