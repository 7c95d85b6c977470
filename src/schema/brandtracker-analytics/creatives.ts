import { builder } from '../builder.js';
import { resolveMediaUrl } from '../shared/media-url.js';
import { listRef, pageRequest } from '../shared/list.js';
import { frameArgs, INSIGHT_LIMITS, insightArgs, orderArg } from './args.js';
import { CreativeFormat, CreativesMediaType, CreativesSort } from './enums.js';
import { creativesPage, frameOf, type Creative } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/creatives: the brand's creatives in a window, one per duplicate group (its
// lead ad, with the group's size as duplicates), newest first unless sorted otherwise.

const CreativeRef = builder.objectRef<Creative>('BrandtrackerCreative').implement({
  fields: (t) => ({
    adId: t.exposeString('id', { description: 'The lead ad of the duplicate group.' }),
    mediaType: t.field({ type: CreativeFormat, resolve: (row) => row.mediaType }),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime' }),
    daysRunning: t.exposeInt('daysRunning', { description: 'Days from first seen to now while active, else to last seen (as on the Ad summary).' }),
    duplicates: t.exposeInt('duplicates', { description: 'Ads in its duplicate group.' }),
  }),
});

const CreativesPage = listRef('BrandtrackerCreativesPage', CreativeRef, { style: 'page', description: "A brandtracker's creatives." });

builder.queryFields((t) => ({
  brandtrackerCreatives: t.field({
    type: CreativesPage,
    authScopes: { workspace: true },
    description:
      "A brandtracker's creatives (GET /v1/brandtrackers/{brandtrackerId}/creatives): the ads of the window, one per duplicate group (its lead), " +
      'with snapshotDate evaluated at that snapshot day.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...insightArgs(),
      ...orderArg(),
      sortBy: t.arg({ type: CreativesSort, defaultValue: 'firstSeenAt' }),
      mediaType: t.arg({ type: CreativesMediaType, defaultValue: 'all' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return creativesPage(context.prisma, frame, {
        window: args.timePeriod ?? 'live',
        sortBy: args.sortBy ?? 'firstSeenAt',
        order: args.order === 'asc' ? 'asc' : 'desc',
        mediaType: args.mediaType ?? 'all',
        page: pageRequest(args, INSIGHT_LIMITS.defaultLimit),
      });
    },
  }),
}));
