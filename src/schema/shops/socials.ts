import type { Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';

// The detail's socials: each network's handle, profile URL and latest follower count (null without a profile).

export type SocialDay = { facebook: number | null; instagram: number | null; tiktok: number | null; youtube: number | null };
type Social = { handle: string; url: string; followers: number | null };
type ShopWithSocialDays = Shop & { socialDays: SocialDay[] };

const NETWORKS = {
  facebook: { handle: 'facebookHandle', url: (h: string) => `https://www.facebook.com/${h}` },
  instagram: { handle: 'instagramHandle', url: (h: string) => `https://www.instagram.com/${h}` },
  tiktok: { handle: 'tiktokHandle', url: (h: string) => `https://www.tiktok.com/@${h}` },
  youtube: { handle: 'youtubeHandle', url: (h: string) => `https://www.youtube.com/@${h}` },
  pinterest: { handle: 'pinterestHandle', url: (h: string) => `https://www.pinterest.com/${h}` },
  linkedin: { handle: 'linkedinHandle', url: (h: string) => `https://www.linkedin.com/company/${h}` },
  twitter: { handle: 'twitterHandle', url: (h: string) => `https://x.com/${h}` },
} as const;

const ShopSocialNetwork = builder.objectRef<Social>('ShopSocialNetwork').implement({
  fields: (t) => ({
    handle: t.exposeString('handle'),
    url: t.exposeString('url'),
    followers: t.exposeInt('followers', { nullable: true, description: 'Latest daily count; null where it is not tracked (Pinterest, LinkedIn, X).' }),
  }),
});

export const ShopSocials = builder.objectRef<ShopWithSocialDays>('ShopSocials').implement({
  description: 'The shop\'s social profiles; null for a network where it has none.',
  fields: (t) =>
    Object.fromEntries(
      Object.entries(NETWORKS).map(([network, { handle, url }]) => [
        network,
        t.field({
          type: ShopSocialNetwork,
          nullable: true,
          resolve: (shop) => {
            const name = shop[handle];
            if (!name) return null;
            const day = shop.socialDays[0] as Record<string, number | null> | undefined;
            return { handle: name, url: url(name), followers: day?.[network] ?? null };
          },
        }),
      ]),
    ),
});

