import type { Context } from '../../context.js';

// The TikTok domain's public face and the home of its SQL: the library list (its engine in service/search.ts), one
// item, and the shop a shop-scoped list names.

export { searchTikTokItems, type SearchArea, type TikTokFilter, type TikTokSort, type TikTokSortValue } from './service/search.js';

/** One library item by its TikTok id, loaded with `query`, Pothos's selection; null when there is none. */
export function tiktokItem(context: Context, id: string, query: object) {
  return context.prisma.tikTokItem.findUnique({ where: { id }, relationLoadStrategy: 'join', ...query });
}

/** The id of the shop `shopId` (a lower-case UUID) names, or null. */
export async function tiktokShopId(context: Context, shopId: string): Promise<string | null> {
  return (await context.prisma.shop.findUnique({ where: { id: shopId }, select: { id: true } }))?.id ?? null;
}
