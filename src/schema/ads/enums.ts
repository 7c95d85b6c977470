import { builder } from '../builder.js';

export const AdStatusEnum = builder.enumType('AdStatus', { values: ['active', 'inactive', 'unknown'] as const });
export const AdMediaTypeEnum = builder.enumType('AdMediaType', { values: ['image', 'video', 'carousel', 'dco', 'unknown'] as const });
export const GenderEnum = builder.enumType('AudienceGender', { values: ['men', 'women', 'all'] as const });

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
export const AudienceSex = builder.enumType('AudienceSex', { values: ['men', 'women', 'all'] as const });
