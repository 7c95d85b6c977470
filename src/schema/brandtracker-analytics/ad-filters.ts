import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { AdvertiserAdMediaType } from '../advertisers/enums.js';
import { adsQueryArgs, type AdsQueryArgs } from '../ads/args.js';
import { AdStatusFilter } from '../ads/enums.js';
import { filterFromQueryArgs } from '../ads/filter.js';
import { RankDirection } from '../ads/inputs.js';
import { conditions } from '../ads/sql/conditions.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { countries } from '../shared/countries.js';
import { onDomain } from '../shared/domains.js';
import { endOfDay } from '../shared/time.js';
import { adsOf, windowSql, type Frame } from './frame.js';

// The ad filters of the brandtracker's ad lists (testing; the timeline takes the same list): the filters of
// POST /v1/ads/query under the names gaps-filled gives them, turned into that route's filter and conditions, plus
// what only these lists have (partner ids, a linked domain, start-date bounds, status at a snapshot day).

const pageIds = z.array(z.string().min(1).max(64)).max(50);
const domain = z.string().trim().min(1).max(500)
  .refine((value) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(hostOf(value)), { message: '{name} must be a domain or a URL' });

export function adFilterArgs() {
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

export type AdFilterArgs = InputShapeFromFields<ReturnType<typeof adFilterArgs>>;

/** The ads query's arguments for the shared filters (status is read here: it depends on the snapshot). */
function asQueryArgs(args: AdFilterArgs): AdsQueryArgs {
  return {
    search: args.keywords, keywordMode: args.keywordMode, searchType: 'adCopy',
    mediaType: args.mediaType === 'all' ? null : args.mediaType,
    createdAfter: args.createdAfter, createdBefore: args.createdBefore,
    minReach: args.minReach, maxReach: args.maxReach, reachPeriod: args.reachPeriod,
    minSpend: args.minSpend, maxSpend: args.maxSpend, spendPeriod: args.spendPeriod, cpm: args.cpm,
    hideLowReach: args.hideLowReach, sex: args.sex, landingPages: args.landingPages, adLanguage: args.adLanguage, cta: args.cta,
    adCopyHashes: args.adCopyHashes, adCountries: { include: args.adCountries, exclude: args.excludeAdCountries },
    mainCountries: args.mainCountries, partners: args.partnership,
    growthRank: args.growthRank?.length ? { anyOf: [{ all: args.growthRank.map((direction) => ({ direction })) }] } : null,
  } as AdsQueryArgs;
}

/** Running at the frame's moment: active now, or with a reach row on the snapshot day. */
export const runningSql = (frame: Frame) => windowSql(frame, 'live');

/**
 * The conditions on `a` (an ad, with its page as `v`) of the frame's ads that match the filters: one per duplicate
 * group (its lead), with media, and, at a snapshot day, first seen by its end.
 */
export function adFilterSql(frame: Frame, args: AdFilterArgs): Prisma.Sql[] {
  const out = [adsOf(frame), Prisma.sql`a."platform" = 'facebook'`, Prisma.sql`a."mediaUrl" IS NOT NULL`, ...conditions(filterFromQueryArgs(asQueryArgs(args)).filter)];
  if (frame.snapshot.requested !== null) out.push(Prisma.sql`a."firstSeenAt" < ${frame.until}`);
  if (args.status === 'active') out.push(runningSql(frame));
  if (args.status === 'inactive') out.push(Prisma.sql`NOT (${runningSql(frame)})`);
  if (args.partnerIds?.length) out.push(Prisma.sql`a."partnerPageId" = ANY(${args.partnerIds}::text[])`);
  if (args.linkedDomain) out.push(onDomain(Prisma.sql`a."landingPageDomain"`, hostOf(args.linkedDomain)));
  if (args.startedAfter) out.push(Prisma.sql`a."firstSeenAt" >= ${args.startedAfter}`);
  if (args.startedBefore) out.push(Prisma.sql`a."firstSeenAt" <= ${endOfDay(args.startedBefore)}`);
  return out;
}
