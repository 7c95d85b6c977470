import type { Prisma, PrismaClient, Shop } from '../../generated/prisma/client.js';
import { EmailSummary } from '../emails/types.js';
import { loadShopSummaries, ShopSummary } from '../shops/types.js';

// The summaries a saved shop and a saved email embed: the shops and emails domains' own (Shop summary, email summary).

export { EmailSummary as FavoriteEmailSummary, ShopSummary as FavoriteShopSummary };

/** Shops by id with a queryFromInfo selection. */
export async function loadFavoriteShops(prisma: PrismaClient, ids: readonly string[], select: object) {
  return loadShopSummaries<Shop>(prisma, ids, select);
}

/** Emails by id with a queryFromInfo selection. */
export async function loadFavoriteEmails(prisma: PrismaClient, ids: readonly number[], select: object) {
  return ids.length ? prisma.email.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...(select as Prisma.EmailFindManyArgs) }) : [];
}
