import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { countryFilterInput } from '../shared/countries.js';
import { SortOrder } from '../shared/enums.js';
import { bigCount, count } from '../shared/ranges.js';
import { pageArgs, searchTerms } from '../shared/list.js';
import { GoogleAdNetworkEnum, GoogleAdsSort, GoogleAdStatusFilter } from './enums.js';

// The arguments of POST /v1/google-ads/query and their validation; filter.ts turns them into the list's filter.

export const GoogleAdsAudienceCountries = countryFilterInput(
  'GoogleAdsAudienceCountries',
  "ISO 3166-1 alpha-2 audience countries, matched against the ad's main targeted country (not the advertiser's country).",
);

export const googleAdsQueryArgs = () =>
  builder.args((t) => ({
    search: t.stringList({ description: 'Advertiser, shop name or domain terms; any of them matches.', validate: searchTerms(50) }),
    status: t.field({ type: GoogleAdStatusFilter, defaultValue: 'all' }),
    networks: t.field({ type: [GoogleAdNetworkEnum], validate: z.array(z.string()).max(5) }),
    categoryIds: t.intList({ description: 'Google category ids from GET /v1/google-ads/facets/categories.', validate: z.array(z.number().int()).max(100) }),
    audienceCountries: t.field({ type: GoogleAdsAudienceCountries }),
    publishedAfter: t.field({ type: 'Date', description: 'First seen on or after this date.' }),
    publishedBefore: t.field({ type: 'Date', description: 'First seen on or before this date.' }),
    minDaysRunning: t.int({ validate: count }),
    maxDaysRunning: t.int({ validate: count }),
    minReach: t.float({ validate: bigCount }),
    maxReach: t.float({ validate: bigCount }),
    sortBy: t.field({ type: GoogleAdsSort, defaultValue: 'newest' }),
    order: t.field({ type: SortOrder, defaultValue: 'desc' }),
    ...pageArgs({ defaultLimit: 25, maxLimit: 100 }),
  }));

export type GoogleAdsArgs = InputShapeFromFields<ReturnType<typeof googleAdsQueryArgs>>;
