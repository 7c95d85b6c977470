-- Text search, written by hand: Prisma's datamodel cannot express generated tsvector columns.
-- The 'simple' configuration keeps brand names and ad copy in any language searchable word by word.

ALTER TABLE "ads" ADD COLUMN "searchText" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple',
    coalesce("title", '') || ' ' || coalesce("body", '') || ' ' ||
    coalesce("ctaDescription", '') || ' ' || coalesce("ctaLinkDescription", ''))
) STORED;
CREATE INDEX "ads_searchText_idx" ON "ads" USING GIN ("searchText");

ALTER TABLE "advertisers" ADD COLUMN "searchName" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', coalesce("name", ''))
) STORED;
CREATE INDEX "advertisers_searchName_idx" ON "advertisers" USING GIN ("searchName");
