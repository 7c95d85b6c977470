import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { apiError, notFound } from '../../../errors.js';
import type { Fingerprint } from '../../../data/images/fingerprint.js';
import { ASYNC_COMMIT, prepared } from '../../../db/statements.js';
import { inWorkspace } from '../../shared/workspace.js';

// Nearest neighbours of an image's fingerprint: the GiST index on image_fingerprints.features answers
// `ORDER BY features <-> q LIMIT n` without reading every fingerprint. Each distinct picture is stored once, so the
// nearest pictures lead to every product showing them (products.imageFingerprintId, a B-tree). Equally close
// pictures are ordered by the perceptual hash's Hamming distance. A search's ranked results are kept
// (image_searches) so `searchId` + `offset` page through them without searching again. Both statements have a
// fixed shape and run prepared on the pool, one round trip each.

const sql = Prisma.sql;

/** Distinct pictures read from the index per search. */
export const NEAREST_IMAGES = 40;
/** Products a search keeps at most (and so the largest offset). */
export const CANDIDATES = 300;
/** Similarity below which a candidate is not a result: unrelated pictures score about 0.2–0.35. */
export const MIN_SCORE = 0.4;
/** Feature distance at which the score reaches 0. */
const SCALE = 0.8;
export const SEARCH_TTL_MS = 60 * 60 * 1000;

export type Match = { productId: string; shopId: string; score: number };

/** Products whose image looks like the fingerprint's, most similar first (best sellers first among equals). */
export async function nearestProducts(pool: pg.Pool, query: Fingerprint): Promise<Match[]> {
  const features = sql`cube(${query.features}::float8[])`;
  const minScoreDistance = (1 - MIN_SCORE) * SCALE;
  const statement = sql`
    WITH near AS (
      SELECT f."id", f."features" <-> ${features} AS distance, bit_count((f."phash" # ${query.phash}::int8)::bit(64)) AS bits
      FROM "image_fingerprints" f
      ORDER BY f."features" <-> ${features}
      LIMIT ${NEAREST_IMAGES})
    SELECT p."id" AS "productId", p."shopId"::text AS "shopId", n.distance
    FROM near n JOIN "products" p ON p."imageFingerprintId" = n."id"
    WHERE n.distance <= ${minScoreDistance}
    ORDER BY n.distance, n.bits, coalesce(p."bestSellerPosition", 2147483647), p."monthlyRevenueUsd" DESC, p."id"
    LIMIT ${CANDIDATES}`;
  const { rows } = await pool.query<{ productId: string; shopId: string; distance: number }>(prepared(statement.text, statement.values));
  return rows.map((row) => ({ productId: row.productId, shopId: row.shopId, score: Math.round(Math.max(0, 1 - row.distance / SCALE) * 1000) / 1000 }));
}

/** The shops selling the matches, each once at its best match; with `groupBrands`, each brand once (its best shop). */
export async function nearestShops(prisma: PrismaClient, matches: Match[], groupBrands: boolean): Promise<{ id: string; score: number }[]> {
  const shops = new Map<string, number>();
  for (const match of matches) if (!shops.has(match.shopId)) shops.set(match.shopId, match.score);
  let ranked = [...shops].map(([id, score]) => ({ id, score }));
  if (groupBrands && ranked.length) {
    // A brand is the Facebook page a shop's ads mostly come from (its main page); a shop without one is its own brand.
    const pages = await prisma.advertiserShop.findMany({ where: { shopId: { in: ranked.map((s) => s.id) }, isMain: true }, select: { shopId: true, advertiserId: true } });
    const brandOf = new Map(pages.map((link) => [link.shopId, link.advertiserId]));
    const seen = new Set<string>();
    ranked = ranked.filter((shop) => {
      const brand = brandOf.get(shop.id) ?? `shop:${shop.id}`;
      if (seen.has(brand)) return false;
      seen.add(brand);
      return true;
    });
  }
  return ranked;
}

export type StoredSearch = { id: string; resultIds: string[]; scores: number[]; expiresAt: Date };

/**
 * Keeps a search's results, for the workspace's own requests only (findSearch reads through its filter): the search
 * at once (its id and expiry are made here), and the write, to await before answering. One statement that does not
 * wait for the WAL flush: a search lost in a database crash is searched again. The workspace's searches that expired
 * a day ago go with it: the table holds about a day of each workspace's searches.
 */
export function storeSearch(pool: pg.Pool, workspaceId: string, kind: 'products' | 'shops', groupBrands: boolean, results: { id: string; score: number }[]): { search: StoredSearch; stored: Promise<unknown> } {
  const search = { id: randomUUID(), resultIds: results.map((r) => r.id), scores: results.map((r) => r.score), expiresAt: new Date(Date.now() + SEARCH_TTL_MS) };
  const statement = sql`
    WITH ${Prisma.raw(ASYNC_COMMIT)}, expired AS (
      DELETE FROM "image_searches" s WHERE ${inWorkspace('s', workspaceId)} AND s."expiresAt" < ${new Date(Date.now() - 24 * SEARCH_TTL_MS)}::timestamptz)
    INSERT INTO "image_searches" ("id", "workspaceId", "kind", "groupBrands", "resultIds", "scores", "expiresAt")
    SELECT ${search.id}::uuid, ${workspaceId}::uuid, ${kind}::text, ${groupBrands}::boolean, ${search.resultIds}::text[], ${search.scores}::float8[], ${search.expiresAt}::timestamptz
    FROM commit_mode`;
  return { search, stored: pool.query(prepared(statement.text, statement.values)) };
}

/** A kept search of the workspace (`db` is its client): another workspace's is answered as a missing one. */
export async function findSearch(db: PrismaClient, kind: 'products' | 'shops', searchId: string): Promise<StoredSearch> {
  const search = await db.imageSearch.findFirst({ where: { id: searchId, kind }, select: { id: true, resultIds: true, scores: true, expiresAt: true } });
  if (!search) throw notFound(`Image search "${searchId}"`);
  if (search.expiresAt.getTime() <= Date.now()) {
    throw apiError('not_found', `Image search "${searchId}" has expired (searches are kept for ${SEARCH_TTL_MS / 60_000} minutes): search with the image again.`);
  }
  return search;
}
