import { queryFromInfo } from '@pothos/plugin-prisma';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { PagePaginationRef, pagePagination, type PagePagination } from '../shared/pagination.js';
import { filterFromGoogleArgs, googleAdsQueryArgs } from './query-args.js';
import { searchGoogleAdIds, type GoogleAdsFilter, type GoogleAdsSort } from './search.js';
import { GoogleAdRef } from './types.js';

type GoogleAdPage = { data: { id: string }[]; pagination: PagePagination };

const GoogleAdPageRef = builder.objectRef<GoogleAdPage>('GoogleAdPage').implement({
  description: 'A page of Google ads.',
  fields: (t) => ({
    data: t.field({ type: [GoogleAdRef], resolve: (page) => page.data as never }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
  }),
});

async function googleAdPage(prisma: PrismaClient, select: object, filter: GoogleAdsFilter, sort: GoogleAdsSort, page: { page: number; limit: number }): Promise<GoogleAdPage> {
  const { ids, total } = await searchGoogleAdIds(prisma, filter, sort, page);
  const rows = ids.length ? await prisma.googleAd.findMany({ ...select, where: { id: { in: ids } } }) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { data: ids.map((id) => byId.get(id)!).filter(Boolean), pagination: pagePagination(page, total) };
}

builder.queryFields((t) => ({
  googleAdsQuery: t.field({
    type: GoogleAdPageRef,
    authScopes: { workspace: true },
    description: 'Query the Google Ads library (POST /v1/google-ads/query). One credit per returned ad.',
    args: googleAdsQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromGoogleArgs(args);
      return googleAdPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
}));
