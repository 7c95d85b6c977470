import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { AdvertiserAdMediaType } from '../advertisers/service.js';
import { adsQueryArgs } from '../ads/args.js';
import { AdStatusFilter } from '../ads/enums.js';
import { RankDirection } from '../ads/inputs.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { countries } from '../shared/countries.js';
import { brandAdSharedArgs } from './ads-args.js';
import { lastSeenArgs } from './timeline-args.js';

// The filters of GET /v1/brandtrackers/{id}/testing: those of POST /v1/ads/query under the names gaps-filled gives
// them (keywords, partnership, adCountries and excludeAdCountries as lists, …), plus what only the brand's ad lists
// have (partner ids, a linked domain, start-date bounds), the bounds the brandtracker ads route takes (ads-args.ts)
// and the timeline's end-day bounds. ad-filters.ts turns them into the ads filter.

const pageIds = z.array(z.string().min(1).max(64)).max(50);
const domain = z.string().trim().min(1).max(500)
  .refine((value) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(hostOf(value)), { message: '{name} must be a domain or a URL' });

export function testingFilterArgs() {
  const q = adsQueryArgs();
  const shared = brandAdSharedArgs();
  return builder.args((t) => ({
    status: t.field({ type: AdStatusFilter, defaultValue: 'all', description: 'With snapshotDate, active means running on the resolved snapshot day.' }),
    mediaType: t.field({ type: AdvertiserAdMediaType, defaultValue: 'all' }),
    keywords: q.search,
    keywordMode: q.keywordMode,
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    minDaysRunning: shared.minDaysRunning,
    maxDaysRunning: shared.maxDaysRunning,
    minDuplicates: shared.minDuplicates,
    maxDuplicates: shared.maxDuplicates,
    minReach: q.minReach,
    maxReach: q.maxReach,
    reachPeriod: q.reachPeriod,
    minSpend: q.minSpend,
    maxSpend: q.maxSpend,
    spendPeriod: q.spendPeriod,
    minSpendPerPage: shared.minSpendPerPage,
    maxSpendPerPage: shared.maxSpendPerPage,
    spendPerPagePeriod: shared.spendPerPagePeriod,
    cpm: q.cpm,
    hideLowReach: q.hideLowReach,
    minAge: shared.minAge,
    maxAge: shared.maxAge,
    sex: q.sex,
    minFacebookLikes: shared.minFacebookLikes,
    maxFacebookLikes: shared.maxFacebookLikes,
    minInstagramFollowers: shared.minInstagramFollowers,
    maxInstagramFollowers: shared.maxInstagramFollowers,
    minVideoDuration: shared.minVideoDuration,
    maxVideoDuration: shared.maxVideoDuration,
    minDescriptionLength: shared.minDescriptionLength,
    maxDescriptionLength: shared.maxDescriptionLength,
    landingPages: q.landingPages,
    adLanguage: q.adLanguage,
    cta: q.cta,
    adCopyHashes: q.adCopyHashes,
    adCountries: t.stringList({ description: 'Ads targeting any of these countries (ISO codes).', validate: countries }),
    excludeAdCountries: t.stringList({ description: 'Ads targeting none of these countries (ISO codes).', validate: countries }),
    mainCountries: q.mainCountries,
    partners: shared.partners,
    partnership: t.boolean({ description: 'The same filter as partners, under the name gaps-filled.md gives it; given with partners, it must agree.' }),
    partnerIds: t.stringList({ description: 'Facebook page ids of partners (creators) of partnership ads.', validate: pageIds }),
    linkedDomain: t.string({ description: 'Ads linking to this domain or its subdomains; a URL is reduced to its hostname.', validate: domain }),
    growthRank: t.field({ type: [RankDirection], description: 'Rank trend over 7 days: rising, falling or stable (any of them).' }),
    startedAfter: t.field({ type: 'Date', description: 'Start date (UTC day first seen) on or after this date.' }),
    startedBefore: t.field({ type: 'Date', description: 'Start date (UTC day first seen) on or before this date.' }),
    ...lastSeenArgs(),
  }));
}

/** partners (the reference's name) and partnership (gaps-filled.md's) are one filter: given together, they must agree. */
export const testingArgsRule = z.looseObject({ partners: z.boolean().nullish(), partnership: z.boolean().nullish() }).superRefine((args, ctx) => {
  if (args.partners != null && args.partnership != null && args.partners !== args.partnership) {
    ctx.addIssue({ code: 'custom', path: ['partners'], message: '{name} must equal partnership when both are given (they are one filter)' });
  }
});

/** The one partnership filter of the two names. */
export const partnersOf = (args: { partners?: boolean | null; partnership?: boolean | null }) => args.partners ?? args.partnership;

export type TestingFilterArgs = InputShapeFromFields<ReturnType<typeof testingFilterArgs>>;
