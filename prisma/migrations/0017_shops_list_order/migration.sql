-- The shops list's default order (monthly visits, most first, then id), written by hand: Prisma's datamodel cannot
-- express NULLS LAST. The list orders by "monthlyVisits" DESC NULLS LAST, "id" (src/schema/shops/sql.ts); the index
-- of the column alone (ascending) cannot serve that order, so a filtered page sorted this way read and sorted every
-- matching shop. With this index the page walks the order and stops after its rows (about 1.5 ms instead of 117 ms
-- at the medium scale, for three facet filters).
CREATE INDEX "shops_monthlyVisits_desc_id_idx" ON "shops" ("monthlyVisits" DESC NULLS LAST, "id");
