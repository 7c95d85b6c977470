-- Issue #17: POST /v1/emails/query sorted by relevance ranks the newest matches of a search
-- (src/schema/shared/search-page.ts). For a common phrase ("free shipping": 7% of the emails) finding the newest
-- 250 read every match's row to learn its date (7,200 rows at the bench's medium scale, growing with the market).
-- The text index now holds the date too (btree_gin), so that one index scan answers "matches sent since T":
-- the newest matches are looked for among the newest emails first, reading only the rows of those matches.
-- A search without a date condition uses the same index as before (its text column alone).
CREATE EXTENSION IF NOT EXISTS btree_gin;
DROP INDEX "emails_searchText_idx";
CREATE INDEX "emails_searchText_sentAt_idx" ON "emails" USING GIN ("searchText", "sentAt");
