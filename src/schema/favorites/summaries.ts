import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';

// TEMPORARY, until the shops and emails domains land on main: minimal summaries of a saved shop and a saved email,
// behind the two loaders the favorites use. Swap them for ShopSummary/loadShopSummaries (src/schema/shops/types.ts)
// and EmailSummary (src/schema/emails/types.ts) once they exist; nothing else in favorites names these types.

export const FavoriteShopSummary = builder.prismaObject('Shop', {
  variant: 'FavoriteShopSummary',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'uuid' }),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    screenshotUrl: t.exposeString('screenshotUrl', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const FavoriteEmailSummary = builder.prismaObject('Email', {
  variant: 'FavoriteEmailSummary',
  fields: (t) => ({
    id: t.exposeInt('id'),
    sentAt: t.expose('sentAt', { type: 'DateTime' }),
    campaignType: t.exposeString('campaignType'),
  }),
});

/** Shops by id with a queryFromInfo selection. */
export async function loadFavoriteShops(prisma: PrismaClient, ids: readonly string[], select: object) {
  return ids.length ? prisma.shop.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...(select as Prisma.ShopFindManyArgs) }) : [];
}

/** Emails by id with a queryFromInfo selection. */
export async function loadFavoriteEmails(prisma: PrismaClient, ids: readonly number[], select: object) {
  return ids.length ? prisma.email.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...(select as Prisma.EmailFindManyArgs) }) : [];
}
