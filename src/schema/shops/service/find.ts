import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { provenanceOf, type ProvenanceView } from '../../ads/types.js';
import { inIdOrder } from '../../shared/list.js';

// Shops by id: the shop a path names (its uuid), and the summaries of a page of ids.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Query = { select?: Prisma.ShopSelect | null; include?: Prisma.ShopInclude | null };

/** The shop a path's shopId names (its uuid), loaded with `query`; null when there is none (a non-uuid names none). */
export async function findShop<Q extends Query>(prisma: PrismaClient, shopId: string, query: Q): Promise<Prisma.ShopGetPayload<Q> | null> {
  if (!UUID.test(shopId)) return null;
  const shop = await prisma.shop.findUnique({ where: { id: shopId.toLowerCase() }, relationLoadStrategy: 'join', ...query });
  return shop as Prisma.ShopGetPayload<Q> | null;
}

/** The id of the shop a path's shopId names, or null. */
export async function findShopId(prisma: PrismaClient, shopId: string): Promise<string | null> {
  return (await findShop(prisma, shopId, { select: { id: true } }))?.id ?? null;
}

/** The id of the shop a path's shopId names; not_found when there is none. */
export async function requireShopId(prisma: PrismaClient, shopId: string): Promise<string> {
  const id = await findShopId(prisma, shopId);
  if (!id) throw notFound(`Shop "${shopId}"`);
  return id;
}

/** GET /v1/shops/{shopId}: the shop loaded with Pothos' `query`; not_found when there is none. */
export async function shopDetail<Q extends Query>(context: Pick<Context, 'prisma'>, shopId: string, query: Q): Promise<Prisma.ShopGetPayload<Q>> {
  const shop = await findShop(context.prisma, shopId, query);
  if (!shop) throw notFound(`Shop "${shopId}"`);
  return shop;
}

/** Loads shops by id with a queryFromInfo selection, in the order of `ids` (missing ids are skipped). */
export async function shopsByIds<T extends { id: string }>(prisma: PrismaClient, ids: readonly string[], select: object): Promise<T[]> {
  if (!ids.length) return [];
  const rows = (await prisma.shop.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...select })) as unknown as T[];
  return inIdOrder(ids, rows);
}

/**
 * Where a shop's catalogue comes from (the shop detail's provenance): the source of its first product brought in by
 * an import and when, and the Shopify connector's latest complete fetch of its domain, else the newest product's first
 * fetch; `demo` when none of its products was imported.
 */
export async function shopProvenance(prisma: PrismaClient, shop: { id: string; domain: string }): Promise<ProvenanceView> {
  const [row] = await prisma.$queryRaw<{ fetchedFrom: string | null; first: Date | null; newest: Date | null; fetched: Date | null }[]>`
    SELECT (array_agg(p."fetchedFrom" ORDER BY p."firstFetchedAt", p."id") FILTER (WHERE p."fetchedFrom" IS NOT NULL))[1] AS "fetchedFrom",
           min(p."firstFetchedAt") AS "first", max(p."firstFetchedAt") AS "newest",
           (SELECT f."lastFetchedAt" FROM "shop_fetch_states" f WHERE f."domain" = ${shop.domain}) AS "fetched"
    FROM "products" p WHERE p."shopId" = ${shop.id}::uuid`;
  return provenanceOf(row.fetchedFrom, row.first, row.fetched ?? row.newest);
}
