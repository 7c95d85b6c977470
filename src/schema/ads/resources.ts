import { z } from 'zod';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { prepared } from '../../db/statements.js';
import { AdMediaTypeEnum } from './enums.js';
import { normaliseAdId } from './queries.js';

const adIdArg = z.string().min(1).max(128);

const ReachHistoryPoint = builder.objectRef<{ date: Date | string; reach: number }>('ReachHistoryPoint').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), reach: t.expose('reach', { type: 'SafeInt', description: 'Cumulative reach on that day.' }) }),
});

type MediaUrl = {
  adId: string;
  mediaType: 'image' | 'video' | 'carousel' | 'dco' | 'unknown';
  url: string | null;
  urlType: 'public_asset' | 'external_direct';
  selectedSource: 'media_url' | 'thumbnail_url';
  mediaUrl: string | null;
  thumbnailUrl: string | null;
  filename: string | null;
};

const UrlType = builder.enumType('MediaUrlType', { values: ['public_asset', 'external_direct'] as const });
const MediaSource = builder.enumType('MediaUrlSource', { values: ['media_url', 'thumbnail_url'] as const });

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

// Hosts whose URLs do not expire; anything else (Meta's CDN) is an external direct link.
const PUBLIC_ASSET_HOSTS = [/(^|\.)cdn\.example\.com$/];

function describeMedia(ad: { id: string; mediaType: MediaUrl['mediaType']; mediaUrl: string | null; thumbnailUrl: string | null }): MediaUrl {
  const selectedSource = ad.mediaUrl ? 'media_url' : 'thumbnail_url';
  const url = ad.mediaUrl ?? ad.thumbnailUrl;
  let host = '';
  let extension = '';
  try {
    const parsed = new URL(url ?? '');
    host = parsed.hostname;
    extension = /\.([a-z0-9]{2,5})$/i.exec(parsed.pathname)?.[1]?.toLowerCase() ?? '';
  } catch {
    // no usable URL: keep the defaults
  }
  return {
    adId: ad.id,
    mediaType: ad.mediaType,
    url,
    urlType: PUBLIC_ASSET_HOSTS.some((pattern) => pattern.test(host)) ? 'public_asset' : 'external_direct',
    selectedSource,
    mediaUrl: ad.mediaUrl,
    thumbnailUrl: ad.thumbnailUrl,
    filename: url ? `${ad.id}${extension ? `.${extension}` : ''}` : null,
  };
}

builder.queryFields((t) => ({
  adReachHistory: t.field({
    type: [ReachHistoryPoint],
    nullable: true,
    authScopes: { workspace: true },
    description: 'Daily reach of one ad, oldest first: the most recent `limit` days.',
    args: {
      adId: t.arg.string({ required: true, validate: adIdArg }),
      limit: t.arg.int({ defaultValue: 365, validate: z.number().int().min(1).max(365) }),
    },
    resolve: async (_root, args, context) => {
      // A hot, fixed-shape read: plain SQL on the shared pool (Prisma's query planning was a quarter of its CPU), prepared.
      // The days come back as one JSON array, oldest first: one row to read instead of up to 365. Dates of years
      // 1-9999 come already written as `YYYY-MM-DD`; any other (never seen) as epoch milliseconds, made a Date here
      // so the Date scalar writes it as it writes every other one. No row: no such ad; a null array: no history.
      const { rows } = await context.pool.query<{ days: { date: string | number; reach: number }[] | null }>(prepared(
        `SELECT (SELECT json_agg(json_build_object(
                   'date', CASE WHEN d."date" BETWEEN DATE '0001-01-01' AND DATE '9999-12-31' THEN to_json(to_char(d."date", 'YYYY-MM-DD'))
                                ELSE to_json(extract(epoch FROM d."date")::float8 * 1000) END,
                   'reach', d."reach") ORDER BY d."date")
                 FROM (SELECT "date", "reach" FROM "ad_reach_days" WHERE "adId" = a."id" ORDER BY "date" DESC LIMIT $2) d) AS "days"
         FROM "ads" a
         WHERE a."id" = $1`,
        [normaliseAdId(args.adId), args.limit ?? 365],
      ));
      if (rows.length === 0) throw notFound(`Ad "${args.adId}"`);
      const days: { date: Date | string | number; reach: number }[] = rows[0]!.days ?? [];
      for (const day of days) if (typeof day.date === 'number') day.date = new Date(day.date);
      return days as { date: Date | string; reach: number }[];
    },
  }),
  adMediaUrl: t.field({
    type: AdMediaUrl,
    nullable: true,
    authScopes: { workspace: true },
    args: { adId: t.arg.string({ required: true, validate: adIdArg }) },
    resolve: async (_root, args, context) => {
      const ad = await context.prisma.ad.findUnique({
        where: { id: normaliseAdId(args.adId) },
        select: { id: true, mediaType: true, mediaUrl: true, thumbnailUrl: true },
      });
      if (!ad) throw notFound(`Ad "${args.adId}"`);
      return describeMedia(ad);
    },
  }),
}));
