import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { offsetOf, pagePagination, pageRequest } from '../shared/pagination.js';
import { rowPageRef } from '../workspace-analytics/types.js';
import { cpmArg, frameArgs, INSIGHT_LIMITS, insightArgs, orderArg } from './args.js';
import { adsOf, frameOf, spendSql, windowSql } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/partners: the creators the brand runs partnership ads with (the creator
// page of its ads, `partnerPageId`), each with the figures of the brand's ads in the window that name it.

const PartnersSort = builder.enumType('BrandtrackerPartnersSort', { values: ['activeAds', 'launchDate', 'reach', 'estimatedSpend'] as const });

type Partner = { facebookPageId: string; name: string; activeAds: number; launchDate: Date; reach: bigint; estimatedSpend: bigint };

const PartnerRef = builder.objectRef<Partner>('BrandtrackerPartner').implement({
  fields: (t) => ({
    facebookPageId: t.exposeString('facebookPageId', { description: "The creator's Facebook page." }),
    name: t.exposeString('name', { description: 'The creator page name on its latest ad (its id when no ad names it).' }),
    activeAds: t.exposeInt('activeAds', { description: 'Of those ads, the ones running at the frame (active now, or on the snapshot day).' }),
    launchDate: t.expose('launchDate', { type: 'DateTime', description: 'When the first of those ads was first seen.' }),
    reach: t.expose('reach', { type: 'SafeInt', description: 'Reach of those ads, summed.' }),
    estimatedSpend: t.expose('estimatedSpend', { type: 'SafeInt', description: 'round(reach × cpm / 1000).' }),
  }),
});

const PartnersPage = rowPageRef('BrandtrackerPartnersPage', PartnerRef, "A brandtracker's partners.");

builder.queryFields((t) => ({
  brandtrackerPartners: t.field({
    type: PartnersPage,
    authScopes: { workspace: true },
    description:
      "A brandtracker's partners (GET /v1/brandtrackers/{brandtrackerId}/partners): the creator pages of its partnership ads in the window " +
      '(every ad, duplicates included), with their ads, reach and estimated spend.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...insightArgs(),
      ...orderArg(),
      ...cpmArg({ min: 0, max: 10000, integer: true }),
      sortBy: t.arg({ type: PartnersSort, defaultValue: 'activeAds' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const page = pageRequest(args, INSIGHT_LIMITS.defaultLimit);
      const direction = args.order === 'asc' ? 'ASC' : 'DESC';
      const order = (prefix: string) => Prisma.raw(`${prefix}"${args.sortBy ?? 'activeAds'}" ${direction}, ${prefix}"facebookPageId" ASC`);
      const rows = await context.prisma.$queryRaw<(Partner & { total: number; facebookPageId: string | null })[]>`
        WITH g AS MATERIALIZED (
          SELECT a."partnerPageId" AS "facebookPageId",
                 coalesce((array_agg(a."partnerPageName" ORDER BY a."firstSeenAt" DESC, a."id") FILTER (WHERE a."partnerPageName" IS NOT NULL))[1], a."partnerPageId") AS "name",
                 count(*) FILTER (WHERE ${windowSql(frame, 'live')})::int AS "activeAds", min(a."firstSeenAt") AS "launchDate",
                 sum(a."reach")::bigint AS "reach", ${spendSql(frame, Prisma.sql`sum(a."reach")`)} AS "estimatedSpend"
          FROM "ads" a
          WHERE ${adsOf(frame)} AND a."partnerPageId" IS NOT NULL AND ${windowSql(frame, args.timePeriod ?? 'live')}
          GROUP BY a."partnerPageId"
        )
        SELECT p.*, t.total
        FROM (SELECT count(*)::int AS total FROM g) t
        LEFT JOIN LATERAL (SELECT * FROM g ORDER BY ${order('')} LIMIT ${page.limit} OFFSET ${offsetOf(page)}) p ON TRUE
        ORDER BY ${order('p.')}`;
      const data = rows.flatMap(({ total: _total, facebookPageId, ...row }) => (facebookPageId === null ? [] : [{ ...row, facebookPageId }]));
      return { data, pagination: pagePagination(page, rows[0]?.total ?? 0) };
    },
  }),
}));
