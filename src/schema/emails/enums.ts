import { builder } from '../builder.js';

export const EmailSearchType = builder.enumType('EmailSearchType', {
  values: ['domain', 'email', 'shopKeywords'] as const,
  description: "shopKeywords: words of the subject, preheader and body; domain: the sending shop's domain (or the sender address's), subdomains included; email: the sender address, exactly (case-insensitive).",
});
export const EmailSort = builder.enumType('EmailSort', {
  values: ['newest', 'oldest', 'relevance', 'monthlyVisits', 'bodyLength', 'shopEmailFrequency', 'event', 'promotionType'] as const,
  description: "Discovery sorts, not performance: relevance ranks a keyword search (newest without one); monthlyVisits is the shop's; shopEmailFrequency is the shop's emails of the last 90 days; event and promotionType sort by name.",
});
export const ShopEmailSort = builder.enumType('ShopEmailSort', { values: ['newest', 'oldest', 'relevance', 'event', 'promotionType'] as const });
export const ShopifyPlan = builder.enumType('ShopifyPlan', { values: ['all', 'plus', 'nonPlus'] as const });
