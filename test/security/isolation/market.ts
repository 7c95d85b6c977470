import { declare, global } from './registry.js';

// The market routes that take an id: ads, the TikTok library, a shop's TikTok library. Their ids name market objects.
// The ad share is the caller's own object, made for a market ad.

declare('GET /ads/:adId', global('adId is a market ad', { adId: 'facebook_9001' }));
declare('GET /ads/:adId/reach-history', global('adId is a market ad', { adId: 'facebook_9001' }));
declare('GET /ads/:adId/media-url', global('adId is a market ad', { adId: 'facebook_9001' }));
declare('POST /ads/:adId/share', {
  kind: 'perWorkspace',
  args: { adId: 'facebook_9001' },
  secretsOf: (answer) => {
    const share = answer.data as { id: string; slug: string; shareUrl: string };
    return [share.id, share.slug, share.shareUrl];
  },
});
declare('GET /tiktok/library/:itemId', global('itemId is a market TikTok item', { itemId: '7412345678901234567' }));
declare('GET /shops/:shopId/tiktok/library', global('shopId is a market shop', { shopId: '5a0e0000-0000-4000-8000-000000000001' }));
