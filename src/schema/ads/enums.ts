import { AdMediaType, AdStatus } from '../../generated/prisma/enums.js';
import { builder } from '../builder.js';

// The ads enums, each written once: the stored ones come from the database schema, the others are the API's
// value sets. TypeScript types of these values are derived from them (`typeof AdQuerySort.$inferType`).

export const AdStatusEnum = builder.enumType(AdStatus, { name: 'AdStatus' });
export const AdMediaTypeEnum = builder.enumType(AdMediaType, { name: 'AdMediaType' });
/** The audience's gender in an ad record, and the `sex` filter of the lists. */
export const AudienceGender = builder.enumType('AudienceGender', { values: ['men', 'women', 'all'] as const });

export const AdStatusFilter = builder.enumType('AdStatusFilter', { values: ['active', 'inactive', 'all'] as const });
export const AdMediaTypeFilter = builder.enumType('AdMediaTypeFilter', {
  values: ['image', 'video', 'carousel'] as const,
  description: 'carousel means indexed carousel creatives, not DCO.',
});
export const AdSearchType = builder.enumType('AdSearchType', { values: ['adCopy', 'brand'] as const });
export const AdQuerySearchType = builder.enumType('AdQuerySearchType', {
  values: ['adCopy', 'brand', 'website', 'domain', 'urlContains'] as const,
});
export const AdPlatform = builder.enumType('AdPlatform', { values: ['facebook', 'all'] as const });
export const AdQueryPlatform = builder.enumType('AdQueryPlatform', { values: ['facebook'] as const });
export const AdListSort = builder.enumType('AdListSort', { values: ['relevance', 'newest', 'longestRunning', 'reach'] as const });
export const AdQuerySort = builder.enumType('AdQuerySort', {
  values: [
    'createdAt', 'longestRunning', 'relevance', 'relevanceScore', 'newest', 'mostDuplicates', 'reach',
    'reachDelta1d', 'reachDelta7d', 'reachDelta30d', 'rankDelta7d', 'rankDelta14d', 'rankDelta30d', 'adOrder',
  ] as const,
});
export const ReachPeriod = builder.enumType('ReachPeriod', { values: ['total', 'last24h', 'last7d', 'last30d'] as const });
export const AdsTimePeriod = builder.enumType('AdsTimePeriod', { values: ['last24h', 'last7d', 'last30d'] as const });
