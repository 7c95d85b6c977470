import { notFound } from '../../errors.js';
import type { AdMediaType } from '../../generated/prisma/enums.js';
import { builder } from '../builder.js';
import { MEDIA_PATH, mediaUrl } from '../shared/media-url.js';
import { adIdArg, normaliseAdId } from './args.js';
import { adMediaSource } from './service/detail.js';
import { AdMediaTypeEnum } from './types.js';

const UrlType = builder.enumType('MediaUrlType', { values: ['public_asset', 'external_direct'] as const });
const MediaSource = builder.enumType('MediaUrlSource', { values: ['media_url', 'thumbnail_url'] as const });

type MediaUrl = {
  adId: string;
  mediaType: AdMediaType;
  url: string | null;
  urlType: typeof UrlType.$inferType;
  selectedSource: typeof MediaSource.$inferType;
  mediaUrl: string | null;
  thumbnailUrl: string | null;
  filename: string | null;
};

const AdMediaUrl = builder.objectRef<MediaUrl>('AdMediaUrl').implement({
  description: 'Where the best media asset of an ad lives. The binary itself is not proxied.',
  fields: (t) => ({
    adId: t.exposeString('adId'),
    mediaType: t.expose('mediaType', { type: AdMediaTypeEnum }),
    url: t.exposeString('url', { nullable: true }),
    urlType: t.expose('urlType', { type: UrlType, description: 'public_asset: a stable URL; external_direct: may expire upstream.' }),
    selectedSource: t.expose('selectedSource', { type: MediaSource }),
    mediaUrl: t.exposeString('mediaUrl', { nullable: true }),
    thumbnailUrl: t.exposeString('thumbnailUrl', { nullable: true }),
    filename: t.exposeString('filename', { nullable: true, description: 'The ad id with the extension of the selected URL.' }),
  }),
});

// The server's own media (MEDIA_PATH: demo and seed data) does not expire; anything else (Meta's CDN) is an external
// direct link.
function describeMedia(ad: { id: string; mediaType: MediaUrl['mediaType']; mediaUrl: string | null; thumbnailUrl: string | null }, publicBaseUrl: string): MediaUrl {
  const selectedSource = ad.mediaUrl ? 'media_url' : 'thumbnail_url';
  const stored = ad.mediaUrl ?? ad.thumbnailUrl;
  const url = mediaUrl(stored, publicBaseUrl);
  let extension = '';
  try {
    extension = /\.([a-z0-9]{2,5})$/i.exec(new URL(url ?? '').pathname)?.[1]?.toLowerCase() ?? '';
  } catch {
    // no usable URL: no extension
  }
  return {
    adId: ad.id,
    mediaType: ad.mediaType,
    url,
    urlType: stored?.startsWith(`${MEDIA_PATH}/`) ? 'public_asset' : 'external_direct',
    selectedSource,
    mediaUrl: mediaUrl(ad.mediaUrl, publicBaseUrl),
    thumbnailUrl: mediaUrl(ad.thumbnailUrl, publicBaseUrl),
    filename: url ? `${ad.id}${extension ? `.${extension}` : ''}` : null,
  };
}

builder.queryFields((t) => ({
  adMediaUrl: t.field({
    type: AdMediaUrl,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Where an ad\'s creative downloads: its image or video URL, its thumbnail, its media type and a file name.',
    args: { adId: t.arg.string({ required: true, validate: adIdArg }) },
    resolve: async (_root, args, context) => {
      const ad = await adMediaSource(context.prisma, normaliseAdId(args.adId));
      if (!ad) throw notFound(`Ad "${args.adId}"`);
      return describeMedia(ad, context.publicBaseUrl);
    },
  }),
}));
