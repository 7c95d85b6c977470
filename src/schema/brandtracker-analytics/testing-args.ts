import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { AdvertiserAdMediaType } from '../advertisers/enums.js';
import { adsQueryArgs } from '../ads/args.js';
import { AdStatusFilter } from '../ads/enums.js';
import { RankDirection } from '../ads/inputs.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { countries } from '../shared/countries.js';

// The filters of GET /v1/brandtrackers/{id}/testing: those of POST /v1/ads/query under the names gaps-filled gives
// them (keywords, partnership, adCountries and excludeAdCountries as lists, …), plus what only the brand's ad lists
// have (partner ids, a linked domain, start-date bounds). ad-filters.ts turns them into the ads filter.

const pageIds = z.array(z.string().min(1).max(64)).max(50);
const domain = z.string().trim().min(1).max(500)
  .refine((value) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(hostOf(value)), { message: '{name} must be a domain or a URL' });

export function testingFilterArgs() {
  const q = adsQueryArgs();
  return builder.args((t) => ({
    status: t.field({ type: AdStatusFilter, defaultValue: 'all', description: 'With snapshotDate, active means running on the resolved snapshot day.' }),
    mediaType: t.field({ type: AdvertiserAdMediaType, defaultValue: 'all' }),
    keywords: q.search,
    keywordMode: q.keywordMode,
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    minReach: q.minReach,
    maxReach: q.maxReach,
    reachPeriod: q.reachPeriod,
    minSpend: q.minSpend,
    maxSpend: q.maxSpend,
    spendPeriod: q.spendPeriod,
    cpm: q.cpm,
    hideLowReach: q.hideLowReach,
    sex: q.sex,
    landingPages: q.landingPages,
    adLanguage: q.adLanguage,
    cta: q.cta,
    adCopyHashes: q.adCopyHashes,
    adCountries: t.stringList({ description: 'Ads targeting any of these countries (ISO codes).', validate: countries }),
    excludeAdCountries: t.stringList({ description: 'Ads targeting none of these countries (ISO codes).', validate: countries }),
    mainCountries: q.mainCountries,
    partnership: t.boolean({ description: 'true: partnership ads only; false: non-partnership ads only.' }),
    partnerIds: t.stringList({ description: 'Facebook page ids of partners (creators) of partnership ads.', validate: pageIds }),
    linkedDomain: t.string({ description: 'Ads linking to this domain or its subdomains; a URL is reduced to its hostname.', validate: domain }),
    growthRank: t.field({ type: [RankDirection], description: 'Rank trend over 7 days: rising, falling or stable (any of them).' }),
    startedAfter: t.field({ type: 'Date', description: 'Start date (UTC day first seen) on or after this date.' }),
    startedBefore: t.field({ type: 'Date', description: 'Start date (UTC day first seen) on or before this date.' }),
  }));
}

export type TestingFilterArgs = InputShapeFromFields<ReturnType<typeof testingFilterArgs>>;
