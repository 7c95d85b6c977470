import type { TikTokItem, TikTokMusic } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { TikTokItemStatusEnum, TikTokItemTypeEnum, TikTokMediaItemTypeEnum, TikTokMediaTypeEnum } from './enums.js';
import { compositeId, daysRunning } from './figures.js';

/** The TikTok item id the routes show (saved searches hold rows by it). */
export { compositeId };
import { NEVER_PINNED, TikTokPageSnapshotRef, TikTokPinRef, TikTokProfile, TikTokShop } from './profile.js';
import { resolveMediaUrl, resolveMediaUrls } from '../shared/media-url.js';

// A TikTok library item: its media, content and metrics, and the fields every item shows (list rows and detail).

type MediaItem = { type: typeof TikTokMediaItemTypeEnum.$inferType; url: string; order: number };

function mediasOf(item: TikTokItem): MediaItem[] {
  if (item.videoUrl) return [{ type: 'video', url: item.videoUrl, order: 0 }];
  return item.imageUrls.map((url, order) => ({ type: 'image', url, order }));
}

const TikTokMediaItem = builder.objectRef<MediaItem>('TikTokMediaItem').implement({
  fields: (t) => ({ type: t.expose('type', { type: TikTokMediaItemTypeEnum }), url: t.string({ resolve: resolveMediaUrl((p) => p.url) }), order: t.exposeInt('order') }),
});

export const TikTokMedia = builder.objectRef<TikTokItem>('TikTokMedia').implement({
  fields: (t) => ({
    type: t.expose('mediaType', { type: TikTokMediaTypeEnum, description: 'carousel is a photo post of several images.' }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    videoUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.videoUrl) }),
    imageUrls: t.stringList({ resolve: resolveMediaUrls((p) => p.imageUrls) }),
    medias: t.field({ type: [TikTokMediaItem], description: 'Every asset in display order.', resolve: mediasOf }),
    durationSec: t.exposeFloat('durationSec', { nullable: true }),
    mediaCount: t.int({ resolve: (item) => mediasOf(item).length }),
    imageCount: t.int({ resolve: (item) => item.imageUrls.length }),
  }),
});

const TikTokMusicRef = builder.objectRef<TikTokMusic>('TikTokMusic').implement({
  fields: (t) => ({ id: t.exposeString('id'), title: t.exposeString('title'), author: t.exposeString('author') }),
});

type ItemWithMusic = TikTokItem & { music: TikTokMusic | null };

export const TikTokContent = builder.objectRef<ItemWithMusic>('TikTokContent').implement({
  fields: (t) => ({
    description: t.exposeString('description', { description: 'The caption, hashtags included.' }),
    language: t.exposeString('language', { nullable: true, description: 'ISO 639-1 code.' }),
    category: t.exposeString('category', { nullable: true }),
    hashtags: t.exposeStringList('hashtags', { description: 'Lower case, without #.' }),
    music: t.field({ type: TikTokMusicRef, nullable: true, resolve: (item) => item.music }),
  }),
});

export const TikTokMetrics = builder.objectRef<TikTokItem>('TikTokMetrics').implement({
  fields: (t) => ({
    views: t.expose('views', { type: 'SafeInt' }),
    likes: t.expose('likes', { type: 'SafeInt' }),
    comments: t.exposeInt('comments'),
    saves: t.exposeInt('saves'),
    shares: t.exposeInt('shares'),
    reposts: t.exposeInt('reposts'),
    engagementRate: t.exposeFloat('engagementRate', { description: 'Percentage, not fraction: (likes + comments + shares) / views * 100.' }),
    rank: t.exposeInt('rank', { nullable: true, description: "Rank by views among the profile's items (1 = most viewed)." }),
    rankPercent: t.exposeFloat('rankPercent', { nullable: true, description: 'rank as a percentage of the profile items (lower is better).' }),
    relevanceScore: t.exposeFloat('relevanceScore', { description: '0..1, from engagement and reach.' }),
    deltaRank3d: t.exposeInt('deltaRank3d', { nullable: true, description: 'Rank change over 3 days; positive = climbed.' }),
    deltaRank7d: t.exposeInt('deltaRank7d', { nullable: true }),
    deltaRank14d: t.exposeInt('deltaRank14d', { nullable: true }),
    deltaRank30d: t.exposeInt('deltaRank30d', { nullable: true }),
  }),
});


/** The profile's latest daily snapshot (pageSnapshot; the detail's provenance reads its recordedAt). */
export const LATEST_SNAPSHOT = { profile: { select: { snapshots: { orderBy: { date: 'desc' }, take: 1 } } } } as const;

/** The fields of every TikTok library item, in list rows and in the detail alike. */
export const TikTokItemFields = builder.prismaInterface('TikTokItem', {
  name: 'TikTokItemFields',
  fields: (t) => ({
    id: t.string({ description: 'Composite id `tiktok_<number>`.', resolve: (item) => compositeId(item.id) }),
    tiktokId: t.exposeString('id', { description: "TikTok's 64-bit id as decimal text." }),
    type: t.expose('type', { type: TikTokItemTypeEnum }),
    status: t.expose('status', { type: TikTokItemStatusEnum }),
    isPinned: t.exposeBoolean('isPinned'),
    publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    indexedAt: t.expose('indexedAt', { type: 'DateTime' }),
    daysRunning: t.int({ description: 'Days from publication to today while active, else to when it was last seen.', resolve: (item) => daysRunning(item) }),
    media: t.field({ type: TikTokMedia, resolve: (item) => item }),
    content: t.field({ type: TikTokContent, select: { music: true }, resolve: (item) => item }),
    metrics: t.field({ type: TikTokMetrics, resolve: (item) => item }),
    profile: t.relation('profile', { type: TikTokProfile }),
    shop: t.relation('shop', { type: TikTokShop, nullable: true }),
    pin: t.field({ type: TikTokPinRef, select: { pin: true }, resolve: (item) => item.pin ?? NEVER_PINNED }),
    pageSnapshot: t.field({
      type: TikTokPageSnapshotRef,
      nullable: true,
      select: LATEST_SNAPSHOT,
      resolve: (item) => item.profile.snapshots[0] ?? null,
    }),
  }),
});

export const TikTokLibraryItem = builder.prismaObject('TikTokItem', {
  variant: 'TikTokLibraryItem',
  interfaces: [TikTokItemFields],
  description: 'A TikTok ad or organic video of the library.',
  fields: () => ({}),
});
