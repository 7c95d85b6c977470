-- pg_trgm declares its similarity operators as cheap as an equality (COST 1), while a trigram similarity costs
-- about a hundred of them. Planning `name % q OR name %> q` (the lookup's fuzzy names) with that price, PostgreSQL
-- scanned the whole table and computed a similarity per row (30 ms for 6,000 advertisers, growing with the market)
-- instead of the trigram index's bitmap scans (about 1 ms). The functions belong to whoever created the extension:
-- where this role may not change them (a managed database), the planner keeps the old price and nothing fails.
DO $$
BEGIN
  ALTER FUNCTION similarity_op(text, text) COST 100;
  ALTER FUNCTION word_similarity_op(text, text) COST 100;
  ALTER FUNCTION word_similarity_commutator_op(text, text) COST 100;
  ALTER FUNCTION strict_word_similarity_op(text, text) COST 100;
  ALTER FUNCTION strict_word_similarity_commutator_op(text, text) COST 100;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pg_trgm operator costs left as they are: %', SQLERRM;
END $$;
