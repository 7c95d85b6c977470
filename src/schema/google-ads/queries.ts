import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { pageListRef } from '../shared/list.js';
import { googleAdsQueryArgs } from './args.js';
import { filterFromGoogleArgs } from './filter.js';
import { searchGoogleAds } from './service.js';
import { GoogleAdRef } from './types.js';

const GoogleAdPageRef = pageListRef('GoogleAdPage', GoogleAdRef, 'A page of Google ads.', { searchable: true });

builder.queryFields((t) => ({
  googleAdsQuery: t.field({
    type: GoogleAdPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Query the Google Ads library (POST /v1/google-ads/query). One credit per returned ad.',
    args: googleAdsQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromGoogleArgs(args);
      return searchGoogleAds(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
}));
