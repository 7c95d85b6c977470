import type { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';

// A shop's linked Facebook pages (advertisers): GET /v1/shops/{shopId}/advertisers and the detail's advertising.

export type LinkedAdvertiserLink = {
  isPrimary: boolean;
  isMain: boolean;
  rank: number | null;
  advertiser: { id: string; name: string; liveAdsCount: number; reach30d: bigint; totalReach: bigint; facebookLikes: number; instagramFollowers: number; _count: { ads: number } };
};
export type LinkedAdvertiser = { id: string; platform: 'facebook'; facebookPageId: string; name: string; isPrimary: boolean; activeAds: number };

/** The links of a shop, main page first, each page with its active ads counted. */
export const LINKED_ADVERTISERS_SELECT = {
  orderBy: [{ isMain: 'desc' }, { rank: { sort: 'asc', nulls: 'last' } }, { advertiserId: 'asc' }],
  select: {
    isPrimary: true,
    isMain: true,
    rank: true,
    advertiser: {
      select: {
        id: true, name: true, liveAdsCount: true, reach30d: true, totalReach: true, facebookLikes: true, instagramFollowers: true,
        _count: { select: { ads: { where: { status: 'active' } } } },
      },
    },
  },
} satisfies Prisma.AdvertiserShopFindManyArgs;

export function linkedAdvertisers(links: readonly LinkedAdvertiserLink[]): LinkedAdvertiser[] {
  return links.map(({ advertiser, isMain }) => ({
    id: advertiser.id,
    platform: 'facebook',
    facebookPageId: advertiser.id,
    name: advertiser.name,
    isPrimary: isMain,
    activeAds: advertiser._count.ads,
  }));
}

export const LinkedAdvertiserRef = builder.objectRef<LinkedAdvertiser>('ShopLinkedAdvertiser').implement({
  description: 'A Facebook page linked to the shop.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Equals the Facebook page id.' }),
    platform: t.exposeString('platform', { description: 'facebook' }),
    facebookPageId: t.exposeString('facebookPageId'),
    name: t.exposeString('name'),
    isPrimary: t.exposeBoolean('isPrimary', { description: "The shop's main page (most of its ads come from it)." }),
    activeAds: t.exposeInt('activeAds'),
  }),
});
