import { builder } from '../builder.js';
import { frameArgs } from './args.js';
import { SnapshotMetaRef } from './types.js';
import { frameOf, mediaMixNote, mediaMixOf, snapshotMeta, type FormatCount, type MediaMix } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/media-mix: the formats of the brand's live ads, one per duplicate group
// (deduped by ad), at the snapshot day when one is asked for (service/media-mix.ts).

export const FormatCountRef = builder.objectRef<FormatCount>('BrandtrackerFormatCount').implement({
  fields: (t) => ({ image: t.exposeInt('image'), video: t.exposeInt('video'), dco: t.exposeInt('dco'), other: t.exposeInt('other', { description: 'Carousels and unknown formats.' }) }),
});

export const MediaMixRef = builder.objectRef<MediaMix>('BrandtrackerMediaMix').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds', { description: 'Live ads, one per duplicate group: the sum of the four formats.' }),
    formatCount: t.field({ type: FormatCountRef, resolve: (mix) => mix.formatCount }),
  }),
});

const MediaMixResponse = builder.objectRef<{ data: MediaMix; meta: ReturnType<typeof snapshotMeta> }>('BrandtrackerMediaMixResponse').implement({
  fields: (t) => ({
    data: t.field({ type: MediaMixRef, resolve: (response) => response.data }),
    meta: t.field({ type: SnapshotMetaRef, resolve: (response) => response.meta }),
  }),
});

builder.queryFields((t) => ({
  brandtrackerMediaMix: t.field({
    type: MediaMixResponse,
    authScopes: { workspace: true },
    description: "Formats of a brandtracker's live ads (GET /v1/brandtrackers/{brandtrackerId}/media-mix), deduped by ad; with snapshotDate, of the ads running on that snapshot day.",
    args: { ...frameArgs({ euOnly: false, snapshot: true }) },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return { data: await mediaMixOf(context.prisma, frame), meta: snapshotMeta(frame, mediaMixNote(frame)) };
    },
  }),
}));
