import { builder } from '../builder.js';

const SORTS = ['monthlyVisits', 'activeAds', 'growth30d', 'productsCount', 'createdAt', 'tiktokFollowers', 'tiktokActiveAds', 'tiktokTotalPosts', 'tiktokAvgActiveAds7d', 'tiktokAvgActiveAds30d'] as const;

export const ShopListSort = builder.enumType('ShopListSort', {
  values: SORTS,
  description: 'activeAds follows adsTimePeriod; the tiktok* keys read the shop\'s most followed TikTok account (shops without one come last).',
});
export const ShopQuerySort = builder.enumType('ShopQuerySort', {
  values: ['relevance', ...SORTS] as const,
  description: 'relevance ranks a shopContains text search and falls back to monthlyVisits otherwise.',
});
export const SimilarShopSort = builder.enumType('SimilarShopSort', {
  values: ['relevance', 'monthlyVisits', 'activeAds', 'growth30d', 'productsCount', 'createdAt'] as const,
  description: 'relevance is the similarity score.',
});
export const ShopSearchType = builder.enumType('ShopSearchType', {
  values: ['domain', 'productName', 'shopContains'] as const,
  description: 'domain: the exact domain or a related domain, from a domain or a URL (subdomains resolve to their shop), never a text match; productName: product titles; shopContains: shop names and domains as text.',
});
export const DtcRegion = builder.enumType('DtcRegion', {
  values: ['all', 'us', 'eu'] as const,
  description: 'all: direct-to-consumer shops; us and eu also require the shop to be based there.',
});
export const ShopProductSort = builder.enumType('ShopProductSort', {
  values: ['popularity', 'price', 'createdAt'] as const,
  description: 'popularity: best-seller rank; price: product price; createdAt: Shopify creation date.',
});
export const SocialPeriod = builder.enumType('SocialPeriod', { values: ['day', 'week', 'month'] as const, description: 'week and month keep the last snapshot of each bucket.' });
