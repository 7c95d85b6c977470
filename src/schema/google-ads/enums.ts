import { GoogleAdMediaType, GoogleAdNetwork, GoogleAdStatus } from '../../generated/prisma/enums.js';
import { builder } from '../builder.js';

// The Google Ads enums, each written once: the stored ones come from the database schema, the others are the
// API's value sets. TypeScript types of these values are derived from them.

export const GOOGLE_NETWORKS = Object.values(GoogleAdNetwork);
export type GoogleNetwork = GoogleAdNetwork;

export const GoogleAdStatusEnum = builder.enumType(GoogleAdStatus, { name: 'GoogleAdStatus' });
export const GoogleAdNetworkEnum = builder.enumType(GoogleAdNetwork, { name: 'GoogleAdNetwork', description: 'Google delivery network.' });
export const GoogleAdMediaTypeEnum = builder.enumType(GoogleAdMediaType, { name: 'GoogleAdMediaType' });
export const GoogleAdStatusFilter = builder.enumType('GoogleAdStatusFilter', { values: ['active', 'inactive', 'all'] as const });
export const GoogleAdsSort = builder.enumType('GoogleAdsSort', {
  values: ['newest', 'reach', 'longestRunning'] as const,
  description: 'newest: first seen; reach: the reach estimate; longestRunning: daysRunning.',
});
