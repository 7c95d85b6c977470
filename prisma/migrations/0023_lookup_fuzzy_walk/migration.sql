-- Issue #22: the lookup of a common word ("studio") grew with the market: every name holding the word scores the
-- same (0.99, the highest a fuzzy match scores), so the trigram path rechecked, scored and sorted all of them
-- (5,760 advertisers and 11,078 shops at the bench's medium scale: 47 and 100 ms) to keep the largest ten.
--
-- A name scores 0.99 exactly when its word similarity to the query is 1 (it holds every trigram of the query). The
-- functions now first read the largest brands in size order, by its index, up to $3 of them (2,000: a constant
-- amount of work at any scale, and they stop as soon as $2 are found), keeping the names of word similarity 1. When
-- $2 are found, they are the answer: any other 0.99 name is smaller than all of them, and any other name scores less.
-- Otherwise (a rarer word, a misspelling) the trigram path answers as before. Same results in the same order
-- (score, then size, then id); test/lookup/plan.test.ts compares both paths at several walk lengths.
DROP FUNCTION "lookup_fuzzy_advertiser_names"(text, integer);
DROP FUNCTION "lookup_fuzzy_shop_names"(text, integer);

CREATE FUNCTION "lookup_fuzzy_advertiser_names"(text, integer, integer DEFAULT 2000) RETURNS TABLE ("id" text, "score" double precision)
LANGUAGE sql STABLE ROWS 10
SET pg_trgm.word_similarity_threshold = 0.5
AS $$
  WITH largest AS MATERIALIZED (
    SELECT w."id", w."totalReach" FROM (SELECT v."id", v."name", v."totalReach" FROM "advertisers" v ORDER BY v."totalReach" DESC, v."id" LIMIT $3) w
    WHERE word_similarity($1, w."name") = 1
    ORDER BY w."totalReach" DESC, w."id" LIMIT $2)
  SELECT l."id", 0.99::float8 FROM largest l WHERE (SELECT count(*) FROM largest) >= $2
  UNION ALL
  (SELECT f."id", f."score" FROM (
     SELECT v."id", 0.99 * greatest(similarity(v."name", $1), word_similarity($1, v."name")) AS "score", v."totalReach"
     FROM "advertisers" v
     WHERE v."name" %> $1
     ORDER BY 2 DESC, v."totalReach" DESC, 1
     LIMIT $2) f
   WHERE (SELECT count(*) FROM largest) < $2
   ORDER BY f."score" DESC, f."totalReach" DESC, f."id")
$$;

CREATE FUNCTION "lookup_fuzzy_shop_names"(text, integer, integer DEFAULT 2000) RETURNS TABLE ("id" text, "score" double precision)
LANGUAGE sql STABLE ROWS 10
SET pg_trgm.word_similarity_threshold = 0.5
AS $$
  WITH largest AS MATERIALIZED (
    SELECT w."id", w."monthlyVisits" FROM (SELECT s."id", s."name", s."monthlyVisits" FROM "shops" s ORDER BY s."monthlyVisits" DESC, s."id" LIMIT $3) w
    WHERE word_similarity($1, w."name") = 1
    ORDER BY w."monthlyVisits" DESC, w."id" LIMIT $2)
  SELECT l."id"::text, 0.99::float8 FROM largest l WHERE (SELECT count(*) FROM largest) >= $2
  UNION ALL
  (SELECT f."id", f."score" FROM (
     SELECT s."id"::text AS "id", 0.99 * greatest(similarity(s."name", $1), word_similarity($1, s."name")) AS "score", s."monthlyVisits"
     FROM "shops" s
     WHERE s."name" %> $1
     ORDER BY 2 DESC, s."monthlyVisits" DESC, 1
     LIMIT $2) f
   WHERE (SELECT count(*) FROM largest) < $2
   ORDER BY f."score" DESC, f."monthlyVisits" DESC, f."id")
$$;
