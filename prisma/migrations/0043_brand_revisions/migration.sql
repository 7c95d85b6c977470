-- Issue #37: a brand diff's answer is kept and served again while the brand's revision is unchanged
-- (src/schema/brand-changes/README.md, "Kept answers"). Its recorded events give most of that revision; this table
-- gives the rest: a counter per Facebook page and per shop that the writers of market data raise, in the transaction
-- of the write, whenever they change the page's ads or the shop's products (a product renamed, an ad's first day
-- corrected, an ad resumed or moved to another page: changes that record no event). A reader sees the counter and
-- the rows it counts together or not at all. One row per page or shop ever written; a page's id or a shop's id (text)
-- as the key (the two never look alike: digits, a uuid). Raised for pages and shops in key order, so that two
-- writers never wait on each other's rows in opposite orders.
CREATE TABLE "brand_revisions" (
  "key" text PRIMARY KEY,
  "revision" bigint NOT NULL DEFAULT 1
);
