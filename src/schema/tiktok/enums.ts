import { TikTokItemStatus, TikTokItemType, TikTokMediaType } from '../../generated/prisma/enums.js';
import { builder } from '../builder.js';

// The TikTok enums, each written once: the stored ones come from the database schema, the others are the API's
// value sets. TypeScript types of these values are derived from them (`typeof TikTokLibrarySort.$inferType`).

export const TikTokItemTypeEnum = builder.enumType(TikTokItemType, { name: 'TikTokItemType' });
export const TikTokItemStatusEnum = builder.enumType(TikTokItemStatus, { name: 'TikTokItemStatus' });
export const TikTokMediaTypeEnum = builder.enumType(TikTokMediaType, { name: 'TikTokMediaType' });
export const TikTokMediaItemTypeEnum = builder.enumType('TikTokMediaItemType', { values: ['image', 'video'] as const });

export const TikTokSearchArea = builder.enumType('TikTokSearchArea', {
  values: ['all', 'caption', 'profile', 'hashtag', 'music'] as const,
  description: 'Where search terms are looked for: the caption, the profile handle and name, the hashtags, the music title and author, or all of them.',
});
export const TikTokItemTypeFilter = builder.enumType('TikTokItemTypeFilter', { values: ['all', 'ad', 'organic'] as const });
export const TikTokStatusFilter = builder.enumType('TikTokStatusFilter', { values: ['all', 'active', 'inactive'] as const });
export const TikTokMediaTypeFilter = builder.enumType('TikTokMediaTypeFilter', { values: ['image', 'video', 'carousel'] as const });
export const TikTokLibrarySort = builder.enumType('TikTokLibrarySort', {
  values: ['relevance', 'newest', 'updatedAt', 'views', 'likes', 'comments', 'shares', 'saves', 'engagementRate', 'daysRunning', 'followers'] as const,
  description: 'relevance ranks text matches (always descending; without search terms it ranks by relevanceScore); followers sorts by the profile followers.',
});
export const YesNo = builder.enumType('YesNo', { values: ['yes', 'no'] as const });
