-- Issue #37: notices of the changes a kept brand diff depends on (src/db/notices.ts, src/schema/brand-changes/README.md
-- "Kept answers"). Each trigger sends a NOTIFY on the channel "mi_changes" in the writing transaction: PostgreSQL
-- delivers it to the listening servers when, and only if, that transaction commits, whoever wrote (an importer, the
-- API, a statement typed by hand). The payload names what changed: 'k:' and a Facebook page's or a shop's id (its
-- recorded market events, its brand revision counter of migration 0043, which the importers raise with any change of
-- the page's ads or the shop's products, the page or shop itself deleted), 'b:' and a brandtracker's id (who tracks
-- it, its page, its shops), or '*' (one of these tables truncated: anything may have changed). A transaction's
-- identical notices are sent once. Ads and products changed by hand (not by the importers) send none: a kept answer
-- shows them once it is BRAND_CHANGES_CACHE_SECONDS old. A transaction that notified commits while holding
-- PostgreSQL's notify queue lock, so such commits (the importers' batches, brandtracker writes) are serialised.

CREATE FUNCTION "notice_market_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF OLD."advertiserId" IS NOT NULL THEN PERFORM pg_notify('mi_changes', 'k:' || OLD."advertiserId"); END IF;
    IF OLD."shopId" IS NOT NULL THEN PERFORM pg_notify('mi_changes', 'k:' || OLD."shopId"::text); END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF NEW."advertiserId" IS NOT NULL THEN PERFORM pg_notify('mi_changes', 'k:' || NEW."advertiserId"); END IF;
    IF NEW."shopId" IS NOT NULL THEN PERFORM pg_notify('mi_changes', 'k:' || NEW."shopId"::text); END IF;
  END IF;
  RETURN NULL;
END $$;

-- A workspace's own events (its saved searches' matches, its webhooks') are not a brand's diff; the dispatcher's
-- numbering (seq) changes nothing a diff reads.
CREATE TRIGGER "market_events_notice_insert" AFTER INSERT ON "market_events" FOR EACH ROW
  WHEN (NEW."workspaceId" IS NULL AND (NEW."advertiserId" IS NOT NULL OR NEW."shopId" IS NOT NULL))
  EXECUTE FUNCTION "notice_market_event"();
CREATE TRIGGER "market_events_notice_update" AFTER UPDATE ON "market_events" FOR EACH ROW
  WHEN ((OLD."type", OLD."occurredAt", OLD."workspaceId", OLD."advertiserId", OLD."adId", OLD."shopId", OLD."productId", OLD."data")
    IS DISTINCT FROM (NEW."type", NEW."occurredAt", NEW."workspaceId", NEW."advertiserId", NEW."adId", NEW."shopId", NEW."productId", NEW."data"))
  EXECUTE FUNCTION "notice_market_event"();
CREATE TRIGGER "market_events_notice_delete" AFTER DELETE ON "market_events" FOR EACH ROW
  WHEN (OLD."advertiserId" IS NOT NULL OR OLD."shopId" IS NOT NULL)
  EXECUTE FUNCTION "notice_market_event"();

CREATE FUNCTION "notice_brand_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mi_changes', 'k:' || NEW."key");
  RETURN NULL;
END $$;
CREATE TRIGGER "brand_revisions_notice" AFTER INSERT OR UPDATE ON "brand_revisions" FOR EACH ROW EXECUTE FUNCTION "notice_brand_revision"();

CREATE FUNCTION "notice_deleted_subject"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mi_changes', 'k:' || OLD."id"::text);
  RETURN NULL;
END $$;
CREATE TRIGGER "advertisers_notice_delete" AFTER DELETE ON "advertisers" FOR EACH ROW EXECUTE FUNCTION "notice_deleted_subject"();
CREATE TRIGGER "shops_notice_delete" AFTER DELETE ON "shops" FOR EACH ROW EXECUTE FUNCTION "notice_deleted_subject"();

-- A brandtracker's subject: who tracks it (brandtracker_links), its page and website (brandtrackers), its other shops
-- (brandtracker_websites).
CREATE FUNCTION "notice_brandtracker"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'brandtrackers' THEN
    PERFORM pg_notify('mi_changes', 'b:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END)::text);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('mi_changes', 'b:' || OLD."brandtrackerId"::text); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('mi_changes', 'b:' || NEW."brandtrackerId"::text); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "brandtrackers_notice_update" AFTER UPDATE ON "brandtrackers" FOR EACH ROW
  WHEN (OLD."facebookPageId" IS DISTINCT FROM NEW."facebookPageId" OR OLD."websiteId" IS DISTINCT FROM NEW."websiteId")
  EXECUTE FUNCTION "notice_brandtracker"();
CREATE TRIGGER "brandtrackers_notice_delete" AFTER DELETE ON "brandtrackers" FOR EACH ROW EXECUTE FUNCTION "notice_brandtracker"();
CREATE TRIGGER "brandtracker_links_notice" AFTER INSERT OR DELETE ON "brandtracker_links" FOR EACH ROW
  EXECUTE FUNCTION "notice_brandtracker"();
CREATE TRIGGER "brandtracker_links_notice_update" AFTER UPDATE ON "brandtracker_links" FOR EACH ROW
  WHEN ((OLD."isActive", OLD."workspaceId", OLD."brandtrackerId") IS DISTINCT FROM (NEW."isActive", NEW."workspaceId", NEW."brandtrackerId"))
  EXECUTE FUNCTION "notice_brandtracker"();
CREATE TRIGGER "brandtracker_websites_notice" AFTER INSERT OR UPDATE OR DELETE ON "brandtracker_websites" FOR EACH ROW
  EXECUTE FUNCTION "notice_brandtracker"();

-- A table truncated: every kept answer may be stale.
CREATE FUNCTION "notice_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mi_changes', '*');
  RETURN NULL;
END $$;
CREATE TRIGGER "market_events_notice_truncate" AFTER TRUNCATE ON "market_events" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
CREATE TRIGGER "brand_revisions_notice_truncate" AFTER TRUNCATE ON "brand_revisions" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
CREATE TRIGGER "advertisers_notice_truncate" AFTER TRUNCATE ON "advertisers" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
CREATE TRIGGER "shops_notice_truncate" AFTER TRUNCATE ON "shops" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
CREATE TRIGGER "brandtrackers_notice_truncate" AFTER TRUNCATE ON "brandtrackers" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
CREATE TRIGGER "brandtracker_links_notice_truncate" AFTER TRUNCATE ON "brandtracker_links" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
CREATE TRIGGER "brandtracker_websites_notice_truncate" AFTER TRUNCATE ON "brandtracker_websites" FOR EACH STATEMENT EXECUTE FUNCTION "notice_truncated"();
