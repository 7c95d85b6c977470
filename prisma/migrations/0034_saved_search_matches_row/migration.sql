-- The searches that hold a row. After a write of market data, the saved-searches consumer reads which searches hold
-- the changed rows (a row may have left them) in one probe per row, instead of reading every search's matches.
CREATE INDEX "saved_search_matches_rowId_idx" ON "saved_search_matches"("rowId");
