-- Text search for shops, products and emails, written by hand: Prisma's datamodel cannot express generated
-- tsvector columns. 'simple' keeps brand names, product titles and email copy searchable in any language.
-- mi_split (0005) turns "glow-skin.co" into the words "glow skin co".

ALTER TABLE "shops" ADD COLUMN "searchText" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', coalesce("name", '') || ' ' || "mi_split"("domain"))
) STORED;
CREATE INDEX "shops_searchText_idx" ON "shops" USING GIN ("searchText");

ALTER TABLE "products" ADD COLUMN "searchTitle" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', coalesce("title", ''))
) STORED;
CREATE INDEX "products_searchTitle_idx" ON "products" USING GIN ("searchTitle");

ALTER TABLE "emails" ADD COLUMN "searchText" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', coalesce("subject", '') || ' ' || coalesce("preheader", '') || ' ' || coalesce("body", ''))
) STORED;
CREATE INDEX "emails_searchText_idx" ON "emails" USING GIN ("searchText");
