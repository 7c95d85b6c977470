import { compactShop, continuation, type ShopRow } from './compact.js';
import type { TaskDefinition } from './frame.js';

// find_similar_shops: the shop a name, domain or URL stands for (GET /v1/lookup, shops only), then its similar
// shops (GET /v1/shops/{identifier}/similar), compact.

const params = {
  q: { type: 'string', description: 'A shop or brand name, a shop domain or URL (as GET /v1/lookup takes it).', maxLength: 200 },
  limit: { type: 'integer', description: 'Similar shops to return, 1..50.', minimum: 1, maximum: 50, default: 10 },
} as const;

type LookupRow = { matchType: string; score: number; shop: { id: string; domain: string; name: string } | null };
type SimilarRow = { shop: ShopRow; similarityScore: number };

export const findSimilarShops: TaskDefinition<typeof params> = {
  name: 'find_similar_shops',
  summary:
    'Shops similar to the one `q` names, in one call: resolves `q` to a shop (GET /v1/lookup with type shop), then its similar shops by similarity score (GET /v1/shops/{identifier}/similar). Compact JSON; continueWith pages on with shop_similar.',
  params,
  calls: [{ field: 'Query.lookup' }, { field: 'Query.shopSimilar' }],
  async run(api, { q, limit }) {
    const match = ((await api.call('Query.lookup', { q, type: 'shop', limit: 1 })).data as LookupRow[])[0];
    if (!match?.shop) return api.fail('not_found', `No shop matches "${q}". Try its domain.`);
    const page = await api.call('Query.shopSimilar', { identifier: match.shop.id, limit });
    const rows = page.data as SimilarRow[];
    return {
      query: q,
      shop: { ...match.shop, matchType: match.matchType, score: match.score },
      similar: rows.map((row) => ({ ...compactShop(row.shop), similarityScore: row.similarityScore })),
      continueWith: continuation('shop_similar', { identifier: match.shop.id, offset: rows.length, limit }, rows.length, (page.pagination as { total: number }).total),
    };
  },
};
