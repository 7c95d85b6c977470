-- Text search for the TikTok library and Google Ads, written by hand: Prisma's datamodel cannot express
-- generated tsvector columns. 'simple' keeps captions, handles and brand names in any language searchable.

-- array_to_string is only STABLE; a generated column needs an IMMUTABLE expression over text[].
CREATE FUNCTION "mi_words"(text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_to_string($1, ' '), '') $$;

-- Handles and domains also as words: "glow_skin.co" is searchable as "glow", "skin" and "co".
CREATE FUNCTION "mi_split"(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(coalesce($1, ''), '[^[:alnum:]]+', ' ', 'g') $$;

ALTER TABLE "tiktok_items" ADD COLUMN "searchCaption" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', coalesce("description", ''))
) STORED;
CREATE INDEX "tiktok_items_searchCaption_idx" ON "tiktok_items" USING GIN ("searchCaption");

ALTER TABLE "tiktok_items" ADD COLUMN "searchHashtags" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', "mi_words"("hashtags"))
) STORED;
CREATE INDEX "tiktok_items_searchHashtags_idx" ON "tiktok_items" USING GIN ("searchHashtags");

ALTER TABLE "tiktok_profiles" ADD COLUMN "searchProfile" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', "handle" || ' ' || "mi_split"("handle") || ' ' || coalesce("name", ''))
) STORED;
CREATE INDEX "tiktok_profiles_searchProfile_idx" ON "tiktok_profiles" USING GIN ("searchProfile");

ALTER TABLE "tiktok_music" ADD COLUMN "searchMusic" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', coalesce("title", '') || ' ' || coalesce("author", ''))
) STORED;
CREATE INDEX "tiktok_music_searchMusic_idx" ON "tiktok_music" USING GIN ("searchMusic");

ALTER TABLE "google_advertisers" ADD COLUMN "searchName" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple',
    coalesce("name", '') || ' ' || coalesce("shopName", '') || ' ' || coalesce("domain", '') || ' ' || "mi_split"("domain"))
) STORED;
CREATE INDEX "google_advertisers_searchName_idx" ON "google_advertisers" USING GIN ("searchName");
