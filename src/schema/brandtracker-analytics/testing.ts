import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { listRef, pageArgs } from '../shared/list.js';
import { testingArgsRule, testingFilterArgs } from './ad-list-args.js';
import { frameArgs } from './args.js';
import { MAX_ADS_PER_BATCH, testing, WINNER_DAYS, type Batch, type TestingPage } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/testing: the brand's ads grouped by start date (the UTC day first seen),
// newest batch first, a page of batches with their figures over every matching ad and at most 20 ads each
// (service/testing.ts).

const ReachStats = builder.objectRef<Batch>('BrandtrackerTestingReachStats').implement({
  description: "Reach of the batch's matching ads (all of them, not only those returned).",
  fields: (t) => ({
    min: t.expose('reachMin', { type: 'SafeInt' }),
    avg: t.exposeFloat('reachAvg', { description: 'Mean, rounded to 2 decimals.' }),
    max: t.expose('reachMax', { type: 'SafeInt' }),
    total: t.expose('reachTotal', { type: 'SafeInt' }),
  }),
});

const DaysRunningStats = builder.objectRef<Batch>('BrandtrackerTestingDaysRunningStats').implement({
  description: "Days running of the batch's matching ads, as each ad's daysRunning.",
  fields: (t) => ({ min: t.exposeInt('daysMin'), avg: t.exposeFloat('daysAvg', { description: 'Mean, rounded to 2 decimals.' }), max: t.exposeInt('daysMax') }),
});

const TestingStats = builder.objectRef<Batch>('BrandtrackerTestingStats').implement({
  fields: (t) => ({
    reach: t.field({ type: ReachStats, resolve: (batch) => batch }),
    daysRunning: t.field({ type: DaysRunningStats, resolve: (batch) => batch }),
    activeCount: t.exposeInt('activeCount', { description: 'Matching ads whose status is active now.' }),
    totalCount: t.exposeInt('totalCount', { description: 'Matching ads started that day.' }),
    bestPerformerId: t.string({ description: 'The ad with the highest reach (then the longest running, then the smallest id): the first of `ads`.', resolve: (batch) => batch.adIds[0] }),
  }),
});

export const TestingBatch = builder.objectRef<Batch>('BrandtrackerTestingBatch').implement({
  description: 'The ads a brand started on one day, one per duplicate group, best performer first.',
  fields: (t) => ({
    startDate: t.expose('startDate', { type: 'Date' }),
    ads: t.field({ type: [PublicAd], description: `At most ${MAX_ADS_PER_BATCH}, by reach (highest first), then days running, then id.`, resolve: (batch) => batch.ads }),
    adsReturned: t.int({ resolve: (batch) => batch.ads.length }),
    maxAdsPerBatch: t.int({ resolve: () => MAX_ADS_PER_BATCH }),
    adsTruncated: t.boolean({ description: 'More ads of the batch match than were returned.', resolve: (batch) => batch.totalCount > batch.adIds.length }),
    runningCount: t.exposeInt('runningCount', { description: 'Matching ads running at the frame: active now, or with a reach row on the snapshot day.' }),
    isWinner: t.exposeBoolean('isWinner', {
      description: `A concluded test with a survivor: at least 2 ads, some stopped while at least one still runs ${WINNER_DAYS} or more days after the start date (counted to today, or to the snapshot day).`,
    }),
    stats: t.field({ type: TestingStats, resolve: (batch) => batch }),
  }),
});

const TestingPageRef = listRef<Batch, TestingPage>('BrandtrackerTestingPage', TestingBatch, {
  style: 'page',
  paginationDescription: '`limit` and `total` count start-date batches.',
});

builder.queryFields((t) => ({
  brandtrackerTesting: t.field({
    type: TestingPageRef,
    authScopes: { workspace: true },
    description:
      "Creative-testing batches of a brandtracker (GET /v1/brandtrackers/{brandtrackerId}/testing): its Facebook ads with media, one per duplicate group, grouped by start date " +
      `(UTC day first seen), newest first; page and limit count batches (1..50, default 25); each batch returns at most ${MAX_ADS_PER_BATCH} ads. ` +
      'The filters are those of POST /v1/ads/query; with snapshotDate, ads first seen after the snapshot day are left out and status is read at that day.',
    args: { ...frameArgs({ euOnly: false, snapshot: true }), ...pageArgs({ defaultLimit: 25, maxLimit: 50 }), ...testingFilterArgs() },
    validate: testingArgsRule,
    resolve: (_root, args, context, info) => testing(context, info, args),
  }),
}));
