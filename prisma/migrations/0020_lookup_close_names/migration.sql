-- The lookup's fuzzy names, first pass: the names whose word similarity to the query is at least 0.5, best first.
-- A fuzzy match (a name with similarity >= 0.3 or word similarity >= 0.6, pg_trgm's default thresholds) scores
-- 0.99 * greatest(similarity, word_similarity), and a name's similarity never exceeds its word similarity to the
-- same query (word similarity divides the same shared trigrams by the query's trigrams alone), so these are all
-- the matches scoring at least 0.495: when there are `n` of them, they are the best `n` of all. The trigram
-- index then hands over only the names that share half the query's trigrams (354 of the 100,000 shops for a
-- typical brand name, against 13,437 at the 0.3 similarity threshold, whose candidates must all be re-checked).
-- The threshold is the function's own setting (SET clause), restored when it returns: nothing else in the
-- session or the statement sees it. src/schema/lookup/sql.ts falls back to the full match when fewer than `n`
-- names come back. ROWS 10: the planner would otherwise expect a thousand rows (its default for a set-returning
-- function) and join the lookup's page and shop details by scanning those tables whole.
CREATE FUNCTION "lookup_close_advertiser_names"(q text, n integer) RETURNS TABLE ("id" text, "score" double precision)
LANGUAGE sql STABLE ROWS 10
SET pg_trgm.word_similarity_threshold = 0.5
AS $$
  SELECT v."id", 0.99 * greatest(similarity(v."name", q), word_similarity(q, v."name"))
  FROM "advertisers" v
  WHERE v."name" %> q AND (similarity(v."name", q) >= 0.3 OR word_similarity(q, v."name") >= 0.6)
  ORDER BY 2 DESC, 1
  LIMIT n
$$;

CREATE FUNCTION "lookup_close_shop_names"(q text, n integer) RETURNS TABLE ("id" text, "score" double precision)
LANGUAGE sql STABLE ROWS 10
SET pg_trgm.word_similarity_threshold = 0.5
AS $$
  SELECT s."id"::text, 0.99 * greatest(similarity(s."name", q), word_similarity(q, s."name"))
  FROM "shops" s
  WHERE s."name" %> q AND (similarity(s."name", q) >= 0.3 OR word_similarity(q, s."name") >= 0.6)
  ORDER BY 2 DESC, 1
  LIMIT n
$$;
