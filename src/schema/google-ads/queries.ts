import { queryFromInfo } from '@pothos/plugin-prisma';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { loadIdPage } from '../shared/id-page.js';
import { pageListRef, type RowPage } from '../shared/pagination.js';
import { googleAdsQueryArgs } from './args.js';
import { filterFromGoogleArgs } from './filter.js';
import { searchGoogleAdIds, type GoogleAdsFilter, type GoogleAdsSort } from './sql/search.js';
import { GoogleAdRef } from './types.js';

const GoogleAdPageRef = pageListRef('GoogleAdPage', GoogleAdRef, 'A page of Google ads.', { searchable: true });

async function googleAdPage(prisma: PrismaClient, select: object, filter: GoogleAdsFilter, sort: GoogleAdsSort, page: { page: number; limit: number }): Promise<RowPage> {
  const found = await searchGoogleAdIds(prisma, filter, sort, page);
  return loadIdPage(found, page, (ids) => prisma.googleAd.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }));
}

builder.queryFields((t) => ({
  googleAdsQuery: t.field({
    type: GoogleAdPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Query the Google Ads library (POST /v1/google-ads/query). One credit per returned ad.',
    args: googleAdsQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromGoogleArgs(args);
      return googleAdPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
}));
