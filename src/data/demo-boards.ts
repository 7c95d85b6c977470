import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../db/client.js';
import { scopeToWorkspace } from '../db/workspace-scope.js';

// The demo workspace's saved items, so that the boards and favorites routes answer with rows on a first start:
// a research board (the tracked brands' strongest ads, their shops and pages, a product) with a sub-board of
// video ads, a favorite ads folder, and favorites at the roots of the three families (ads, shops, emails).

type Item = { itemType: 'ad' | 'shop' | 'email' | 'product' | 'advertiser'; adId?: string; shopId?: string; emailId?: number; productId?: string; advertiserId?: string };

/** Saves the demo items; returns how many items it saved. */
export async function saveDemoItems(prisma: PrismaClient, workspaceId: string): Promise<number> {
  const ads = await prisma.$queryRaw<{ id: string; mediaType: string; advertiserId: string }[]>`
    SELECT a."id", a."mediaType"::text AS "mediaType", a."advertiserId"
    FROM "ads" a JOIN "brandtrackers" b ON b."facebookPageId" = a."advertiserId"
    WHERE a."isGroupLead" AND a."status" = 'active' AND a."mediaUrl" IS NOT NULL
    ORDER BY a."aggregatedReach" DESC, a."id" LIMIT 40`;
  const pages = [...new Set(ads.map((ad) => ad.advertiserId))].slice(0, 3);
  const shops = await prisma.advertiserShop.findMany({ where: { advertiserId: { in: pages }, isPrimary: true }, select: { shopId: true }, orderBy: { shopId: 'asc' }, take: 3 });
  const [emails, products] = await Promise.all([
    prisma.email.findMany({ select: { id: true }, orderBy: { id: 'asc' }, take: 3 }),
    prisma.product.findMany({ where: { shopId: { in: shops.map((shop) => shop.shopId) } }, select: { id: true }, orderBy: { id: 'asc' }, take: 2 }),
  ]);
  const images = ads.filter((ad) => ad.mediaType !== 'video');
  const videos = ads.filter((ad) => ad.mediaType === 'video');

  const db = scopeToWorkspace(prisma, workspaceId);
  const board = async (name: string, surface: 'mixed' | 'ads', description: string | null, parentBoardId: string | null, position: number) =>
    (await db.board.create({ data: { id: randomUUID(), workspaceId, name, surface, kind: 'folder', description, parentBoardId, position } })).id;
  const research = await board('Competitor research', 'mixed', 'What the tracked brands run and sell', null, 0);
  const hooks = await board('Video hooks', 'mixed', 'Openings worth testing', research, 0);
  const swipe = await board('Swipe file', 'ads', null, null, 1);

  const placed: { boardId: string | null; items: Item[] }[] = [
    {
      boardId: research,
      items: [
        ...images.slice(0, 4).map((ad): Item => ({ itemType: 'ad', adId: ad.id })),
        ...shops.map((shop): Item => ({ itemType: 'shop', shopId: shop.shopId })),
        ...pages.map((page): Item => ({ itemType: 'advertiser', advertiserId: page })),
        ...products.map((product): Item => ({ itemType: 'product', productId: product.id })),
      ],
    },
    { boardId: hooks, items: videos.slice(0, 3).map((ad): Item => ({ itemType: 'ad', adId: ad.id })) },
    { boardId: swipe, items: images.slice(4, 6).map((ad): Item => ({ itemType: 'ad', adId: ad.id })) },
    {
      boardId: null,
      items: [
        ...[...images.slice(6, 8), ...videos.slice(3, 4)].map((ad): Item => ({ itemType: 'ad', adId: ad.id })),
        ...shops.slice(0, 2).map((shop): Item => ({ itemType: 'shop', shopId: shop.shopId })),
        ...emails.map((email): Item => ({ itemType: 'email', emailId: email.id })),
      ],
    },
  ];
  const rows = placed.flatMap(({ boardId, items }) => items.map((item, position) => ({ workspaceId, boardId, position, ...item })));
  await db.boardItem.createMany({ data: rows });
  return rows.length;
}
