import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';

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
