import type { Context } from '../../context.js';
import { loadIdPage } from '../shared/id-page.js';
import type { RowPage } from '../shared/pagination.js';
import { searchTikTokIds, type TikTokFilter, type TikTokSort } from './service/search.js';

// The TikTok domain's public face and the home of its SQL: the library list (its engine in service/search.ts), one
// item, and the shop a shop-scoped list names.

export type { SearchArea, TikTokFilter, TikTokSort, TikTokSortValue } from './service/search.js';

/** A page of the TikTok library: finds the page of ids, then loads the selected fields for them in the same order. */
export async function searchTikTokItems(context: Context, select: object, filter: TikTokFilter, sort: TikTokSort, page: { page: number; limit: number }): Promise<RowPage> {
  const { prisma } = context;
  const found = await searchTikTokIds(prisma, filter, sort, page);
  return loadIdPage(found, page, (ids) => prisma.tikTokItem.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }));
}

/** One library item by its TikTok id, loaded with `query`, Pothos's selection; null when there is none. */
export function tiktokItem(context: Context, id: string, query: object) {
  return context.prisma.tikTokItem.findUnique({ where: { id }, relationLoadStrategy: 'join', ...query });
}

/** The id of the shop `shopId` (a lower-case UUID) names, or null. */
export async function tiktokShopId(context: Context, shopId: string): Promise<string | null> {
  return (await context.prisma.shop.findUnique({ where: { id: shopId }, select: { id: true } }))?.id ?? null;
}
