import { builder } from '../builder.js';

export const GOOGLE_NETWORKS = ['search', 'shopping', 'maps', 'youtube', 'other'] as const;
export type GoogleNetwork = (typeof GOOGLE_NETWORKS)[number];

export const GoogleAdStatusEnum = builder.enumType('GoogleAdStatus', { values: ['active', 'inactive'] as const });
export const GoogleAdNetworkEnum = builder.enumType('GoogleAdNetwork', { values: GOOGLE_NETWORKS, description: 'Google delivery network.' });
export const GoogleAdMediaTypeEnum = builder.enumType('GoogleAdMediaType', { values: ['image', 'video'] as const });
export const GoogleAdStatusFilter = builder.enumType('GoogleAdStatusFilter', { values: ['active', 'inactive', 'all'] as const });
export const GoogleAdsSort = builder.enumType('GoogleAdsSort', {
  values: ['newest', 'reach', 'longestRunning'] as const,
  description: 'newest: first seen; reach: the reach estimate; longestRunning: daysRunning.',
});
