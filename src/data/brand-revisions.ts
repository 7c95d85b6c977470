import type pg from 'pg';

// The brands' revisions (migration 0043): a counter per Facebook page and per shop, raised by the writers of market
// data in the transaction that changes the page's ads or the shop's products. A brand diff's kept answer is served
// again only while the counters of its pages and shops, and its recorded events, are what it was read with
// (src/schema/brand-changes): a change that records no event (a product renamed, an ad's first day corrected, an ad
// resumed) still reads the diff anew.

/** Raises the revision of each page or shop in `keys` (their ids), in key order. */
export async function bumpBrandRevisions(client: pg.PoolClient | pg.Pool, keys: Iterable<string>): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  if (!sorted.length) return;
  await client.query(
    `INSERT INTO "brand_revisions" ("key") SELECT k FROM unnest($1::text[]) AS k ORDER BY k
     ON CONFLICT ("key") DO UPDATE SET "revision" = "brand_revisions"."revision" + 1`,
    [sorted],
  );
}
