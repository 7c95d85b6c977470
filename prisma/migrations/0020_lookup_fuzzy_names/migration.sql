-- The lookup's fuzzy names: the names whose word similarity to the query ($1) is at least 0.5 (they hold at least
-- half of its trigrams, in order), best first, then the larger brand (as the lookup orders its results), at most $2.
-- Scored 0.99 * greatest(similarity, word similarity), which is 0.99 * the word similarity (a name's similarity
-- never exceeds it). Until this migration a fuzzy name was one with similarity >= 0.3 or word similarity >= 0.6
-- (pg_trgm's default thresholds): the trigram index then handed over every name holding 30% of the query's
-- trigrams, 13,437 of 100,000 shops for a brand name at the bench's medium scale, each re-checked (107 ms),
-- growing with the market; at 0.5 it hands over 354 (7 ms).
-- The threshold is the function's own setting (SET clause), restored when it returns: nothing else in the
-- session or the statement sees it. ROWS 10: without it the planner expects a thousand rows (its default for a
-- set-returning function) and joins the lookup's details by scanning whole tables.
-- src/schema/lookup/sql.ts (FUZZY_WORD_SIMILARITY) holds the same 0.5 for the workspace's brandtrackers.
CREATE FUNCTION "lookup_fuzzy_advertiser_names"(text, integer) RETURNS TABLE ("id" text, "score" double precision)
LANGUAGE sql STABLE ROWS 10
SET pg_trgm.word_similarity_threshold = 0.5
AS $$
  SELECT v."id", 0.99 * greatest(similarity(v."name", $1), word_similarity($1, v."name"))
  FROM "advertisers" v
  WHERE v."name" %> $1
  ORDER BY 2 DESC, v."totalReach" DESC, 1
  LIMIT $2
$$;

CREATE FUNCTION "lookup_fuzzy_shop_names"(text, integer) RETURNS TABLE ("id" text, "score" double precision)
LANGUAGE sql STABLE ROWS 10
SET pg_trgm.word_similarity_threshold = 0.5
AS $$
  SELECT s."id"::text, 0.99 * greatest(similarity(s."name", $1), word_similarity($1, s."name"))
  FROM "shops" s
  WHERE s."name" %> $1
  ORDER BY 2 DESC, s."monthlyVisits" DESC, 1
  LIMIT $2
$$;
