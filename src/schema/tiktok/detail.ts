import { builder } from '../builder.js';
import { Provenance, provenanceOf } from '../ads/types.js';
import { LATEST_SNAPSHOT, TikTokItemFields } from './types.js';

// GET /v1/tiktok/library/{itemId}: an item with its links and where it comes from.

type Links = { tiktokUrl: string; profileUrl: string };
type Source = { network: string; sourceType: string; tiktokPageId: string; websiteId: string | null; domain: string | null };

const TikTokLinks = builder.objectRef<Links>('TikTokLinks').implement({
  fields: (t) => ({ tiktokUrl: t.exposeString('tiktokUrl'), profileUrl: t.exposeString('profileUrl') }),
});

const TikTokSource = builder.objectRef<Source>('TikTokSource').implement({
  fields: (t) => ({
    network: t.exposeString('network'),
    sourceType: t.exposeString('sourceType', { description: 'commercial_content_library for ads, profile for organic videos.' }),
    tiktokPageId: t.exposeString('tiktokPageId'),
    websiteId: t.exposeString('websiteId', { nullable: true }),
    domain: t.exposeString('domain', { nullable: true }),
  }),
});

export const TikTokLibraryItemDetail = builder.prismaObject('TikTokItem', {
  variant: 'TikTokLibraryItemDetail',
  interfaces: [TikTokItemFields],
  description: 'A TikTok library item with its links and source.',
  fields: (t) => ({
    links: t.field({
      type: TikTokLinks,
      select: { profile: { select: { handle: true } } },
      resolve: (item) => {
        const profileUrl = `https://www.tiktok.com/@${item.profile.handle}`;
        const kind = item.mediaType === 'video' || item.mediaType === 'unknown' ? 'video' : 'photo';
        return { tiktokUrl: `${profileUrl}/${kind}/${item.id}`, profileUrl };
      },
    }),
    source: t.field({
      type: TikTokSource,
      select: { shop: { select: { domain: true } } },
      resolve: (item) => ({
        network: 'tiktok',
        sourceType: item.type === 'ad' ? 'commercial_content_library' : 'profile',
        tiktokPageId: item.profileId,
        websiteId: item.shopId,
        domain: item.shop?.domain ?? null,
      }),
    }),
    provenance: t.field({
      type: Provenance,
      description: "lastFetchedAt is the latest snapshot of the item's profile, written by every import that fetched one of its items.",
      // The same selection as pageSnapshot's: one join for both.
      select: LATEST_SNAPSHOT,
      resolve: (item) =>
        provenanceOf(item.fetchedFrom, item.firstFetchedAt, item.fetchedFrom === null ? null : (item.profile.snapshots[0]?.recordedAt ?? null)),
    }),
  }),
});
