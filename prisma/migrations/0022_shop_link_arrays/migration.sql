-- Issue #17: a shops list filtered by a Shopify app and a pixel (GET /v1/shops?shopifyAppIds=…&pixelIds=…) tested
-- each candidate shop with an EXISTS on shop_apps and shop_pixels. A page stops early on the sort's index, but the
-- total had to join every shop of the category with both link tables: 12 ms at small, 150-280 ms at medium.
-- Each shop now also holds its app, pixel and technology ids as arrays with GIN indexes, so that any combination of
-- category, app, pixel and technology filters is a BitmapAnd of index scans, as the categories already were.
--
-- The link tables stay the source of truth (the shop detail reads them with their names); the arrays are kept equal
-- to them by statement-level triggers, so every writer (Prisma, an importer, psql) keeps them right without knowing.
-- A market load (seedMarket) sets "mi.market_load" for its transaction: the triggers then do nothing and the load
-- refreshes every shop once at the end (refresh_shop_link_arrays(NULL)), instead of once per inserted batch.
-- These columns are not in schema.prisma: nothing writes them but the function below.

ALTER TABLE "shops"
  ADD COLUMN "appIds" integer[] NOT NULL DEFAULT '{}',
  ADD COLUMN "pixelIds" uuid[] NOT NULL DEFAULT '{}',
  ADD COLUMN "technologyIds" uuid[] NOT NULL DEFAULT '{}';

-- Recomputes the arrays of the given shops (NULL: of every shop) from the link tables. Every shop at once is grouped
-- and hash-joined (a market load runs it before its indexes are back); a few shops are read through the link tables'
-- primary keys. Rows already equal are not rewritten.
-- Two transactions writing links of one shop: the second's UPDATE would wait for the first's row lock, then write
-- the arrays it read before the first committed, losing its links. So the shops are locked first, in a statement of
-- their own: the next statement (READ COMMITTED) reads the link tables as they are once the lock is held. The lock
-- does not conflict with the KEY SHARE lock the link tables' foreign keys take.
CREATE FUNCTION "refresh_shop_link_arrays"(shop_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF shop_ids IS NULL THEN
    LOCK TABLE "shops" IN SHARE ROW EXCLUSIVE MODE;
    UPDATE "shops" s
    SET "appIds" = coalesce(a."ids", '{}'), "pixelIds" = coalesce(p."ids", '{}'), "technologyIds" = coalesce(t."ids", '{}')
    FROM "shops" s0
    LEFT JOIN (SELECT "shopId", array_agg("appId" ORDER BY "appId") AS "ids" FROM "shop_apps" GROUP BY 1) a ON a."shopId" = s0."id"
    LEFT JOIN (SELECT "shopId", array_agg("pixelId" ORDER BY "pixelId") AS "ids" FROM "shop_pixels" GROUP BY 1) p ON p."shopId" = s0."id"
    LEFT JOIN (SELECT "shopId", array_agg("technologyId" ORDER BY "technologyId") AS "ids" FROM "shop_technologies" GROUP BY 1) t ON t."shopId" = s0."id"
    WHERE s."id" = s0."id"
      AND (s."appIds", s."pixelIds", s."technologyIds") IS DISTINCT FROM (coalesce(a."ids", '{}'), coalesce(p."ids", '{}'), coalesce(t."ids", '{}'));
  ELSE
    PERFORM 1 FROM "shops" WHERE "id" = ANY(shop_ids) ORDER BY "id" FOR NO KEY UPDATE;
    UPDATE "shops" s
    SET "appIds" = l."appIds", "pixelIds" = l."pixelIds", "technologyIds" = l."technologyIds"
    FROM (
      SELECT s0."id",
        coalesce((SELECT array_agg(x."appId" ORDER BY x."appId") FROM "shop_apps" x WHERE x."shopId" = s0."id"), '{}') AS "appIds",
        coalesce((SELECT array_agg(x."pixelId" ORDER BY x."pixelId") FROM "shop_pixels" x WHERE x."shopId" = s0."id"), '{}') AS "pixelIds",
        coalesce((SELECT array_agg(x."technologyId" ORDER BY x."technologyId") FROM "shop_technologies" x WHERE x."shopId" = s0."id"), '{}') AS "technologyIds"
      FROM "shops" s0
      WHERE s0."id" = ANY(shop_ids)
    ) l
    WHERE s."id" = l."id" AND (s."appIds", s."pixelIds", s."technologyIds") IS DISTINCT FROM (l."appIds", l."pixelIds", l."technologyIds");
  END IF;
END
$$;

-- After a statement on a link table: refresh the shops whose rows it inserted, deleted or moved.
CREATE FUNCTION "shop_links_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('mi.market_load', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM "refresh_shop_link_arrays"(NULL);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM "refresh_shop_link_arrays"(ARRAY(SELECT DISTINCT "shopId" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "refresh_shop_link_arrays"(ARRAY(SELECT DISTINCT "shopId" FROM old_rows));
  ELSE
    PERFORM "refresh_shop_link_arrays"(ARRAY(SELECT "shopId" FROM new_rows UNION SELECT "shopId" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "shop_apps_inserted" AFTER INSERT ON "shop_apps" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_apps_deleted" AFTER DELETE ON "shop_apps" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_apps_updated" AFTER UPDATE ON "shop_apps" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_apps_truncated" AFTER TRUNCATE ON "shop_apps" FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_pixels_inserted" AFTER INSERT ON "shop_pixels" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_pixels_deleted" AFTER DELETE ON "shop_pixels" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_pixels_updated" AFTER UPDATE ON "shop_pixels" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_pixels_truncated" AFTER TRUNCATE ON "shop_pixels" FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_technologies_inserted" AFTER INSERT ON "shop_technologies" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_technologies_deleted" AFTER DELETE ON "shop_technologies" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_technologies_updated" AFTER UPDATE ON "shop_technologies" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();
CREATE TRIGGER "shop_technologies_truncated" AFTER TRUNCATE ON "shop_technologies" FOR EACH STATEMENT EXECUTE FUNCTION "shop_links_changed"();

SELECT "refresh_shop_link_arrays"(NULL);

CREATE INDEX "shops_appIds_idx" ON "shops" USING GIN ("appIds");
CREATE INDEX "shops_pixelIds_idx" ON "shops" USING GIN ("pixelIds");
CREATE INDEX "shops_technologyIds_idx" ON "shops" USING GIN ("technologyIds");
